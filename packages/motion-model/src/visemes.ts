/** The mouth classes the viseme classifier tells apart (scripts/speech/ipa-visemes.ts maps phonemes onto them). */
export const VISEMES = ["rest", "mbp", "fv", "round", "spread", "open", "mid", "tongue", "sh"] as const;
export type Viseme = (typeof VISEMES)[number];
