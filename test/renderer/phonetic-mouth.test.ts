/**
 * Mouth shapes that follow the sounds (issue 25, point 3), on single words of known content spoken by two
 * espeak-ng voices the viseme classifier never heard in training (en-us, en-gb+f3; Debian's espeak-ng, which
 * `npm test` installs): m/b/p inside words seal, other words do not, f/v tuck the lower lip, oo rounds more
 * than ee, ah opens more than ee/oo, silence stays exactly still — on the live stream's channels and on the
 * renderer's track alike. (flite's voices, a synthesiser apart, are measured by npm run quality:phonetic;
 * they do not reach these figures yet: docs/phonetic-mouth.md.)
 */
import { describe, expect, it } from "vitest";
import { live, rendered, wordFigures, wordsAudio } from "../../scripts/quality/phonetic-measure";
import type { Voice } from "../../scripts/speech/tts";

const VOICES: Voice[] = [
  { engine: "espeak", name: "en-us", wpm: 150 },
  { engine: "espeak", name: "en-gb+f3", wpm: 170 },
];

describe.each(VOICES)("words spoken by $engine $name", (voice) => {
  const words = wordsAudio(voice);
  for (const [path, channels] of [
    ["live", live],
    ["rendered", rendered],
  ] as const) {
    it(`${path}: seals on m/b/p, tucks on f/v, rounds on oo, opens on ah, still in silence`, () => {
      const f = wordFigures(words.pcm, words.spans, channels(words.pcm));
      expect(f.seal).toBeGreaterThanOrEqual(0.75);
      expect(f.sealNone).toBeLessThanOrEqual(0.25);
      expect(f.tuck).toBeGreaterThanOrEqual(0.75);
      expect(f.roundAuc).toBeGreaterThanOrEqual(0.8);
      expect(f.roundDelta).toBeGreaterThanOrEqual(0.1);
      expect(f.openAuc).toBeGreaterThanOrEqual(0.75);
      expect(f.still).toBe(1);
    });
  }
});
