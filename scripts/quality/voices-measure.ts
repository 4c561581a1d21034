/**
 * Mouth channels against the phones of real recordings (forced-aligned, scripts/speech/voices.ts): what each
 * clip shows, kept as observations so clips pool by concatenation, and the figures of
 * scripts/quality-voices.ts over them (definitions there and in docs/phonetic-mouth.md, "Real voices").
 */
import { LIP_LEAD_SECONDS } from "@avatar-video/motion-model";
import type { Alignment, Timed } from "../speech/voices";
import { auc, mean } from "./phonetic-figures";
import type { Channels } from "./phonetic-measure";

const FPS = 25;
/** A phone is looked for in the frames showing it, widened by half a frame on each side (frames are 40 ms). */
const SLACK = 0.02;
/** Frames this far inside a pause are judged (the lips take about that long to settle). */
const PAUSE_MARGIN = 0.1;
export const CLOSED_OPEN = 0.05;

const VOWELS = new Set(["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]);
/** Vowels that are never reduced to a schwa (CMUdict's AH and ER often are). */
const CLEAR = new Set([...VOWELS].filter((v) => v !== "AH" && v !== "ER"));
const OPEN = new Set(["AA", "AE", "AW", "AY"]);
const CLOSE = new Set(["IY", "UW", "IH", "UH"]);
const ROUNDED = new Set(["UW", "OW", "UH", "OY"]);
const SPREAD = new Set(["IY", "IH", "EY"]);

export interface Observations {
  mbp: boolean[];
  vowelSealed: boolean[];
  vowelTucked: boolean[];
  openVowels: number[];
  closeVowels: number[];
  roundedVowels: number[];
  spreadVowels: number[];
  fv: boolean[];
  pauseOpen: number[];
  speechOpen: number[];
}

export const noObservations = (): Observations => ({
  mbp: [],
  vowelSealed: [],
  vowelTucked: [],
  openVowels: [],
  closeVowels: [],
  roundedVowels: [],
  spreadVowels: [],
  fv: [],
  pauseOpen: [],
  speechOpen: [],
});

export function pool(all: Observations[]): Observations {
  const out = noObservations();
  for (const o of all) for (const k of Object.keys(out) as (keyof Observations)[]) out[k].push(...(o[k] as never[]));
  return out;
}

/** Frames showing audio times [a, b] (the mouth leads the sound). */
const framesOf = (ch: Channels[], a: number, b: number) =>
  ch.slice(
    Math.max(0, Math.ceil((a - LIP_LEAD_SECONDS) * FPS)),
    Math.max(0, Math.floor((b - LIP_LEAD_SECONDS) * FPS) + 1),
  );

const sealed = (f: Channels) => f.lipsClosed >= 0.5 || f.mouthOpen <= 0.08;

/**
 * What the channels `ch` of a recording show against its alignment, the clip starting `offset` s into the
 * recording; pauses (SIL ≥ 300 ms) only where `pauses` (noisy recordings).
 */
export function observe(ch: Channels[], al: Alignment, offset = 0, pauses = false): Observations {
  const o = noObservations();
  const at = ([p, a, b]: Timed): [string, number, number] => [p, a + offset, b + offset];
  for (const [p, a, b] of al.phones.map(at)) {
    const around = framesOf(ch, a - SLACK, b + SLACK);
    if (p === "M" || p === "B" || p === "P") o.mbp.push(around.some(sealed));
    if (p === "F" || p === "V") o.fv.push(around.some((f) => f.lipTuck >= 0.5));
    if (!VOWELS.has(p) || b - a < 0.06) continue;
    const inside = framesOf(ch, a, b);
    const centre = ch[Math.round(((a + b) / 2 - LIP_LEAD_SECONDS) * FPS)];
    if (CLEAR.has(p) && b - a >= 0.08 && centre) {
      o.vowelSealed.push(centre.lipsClosed >= 0.5);
      o.vowelTucked.push(centre.lipTuck >= 0.5);
    }
    const m = (k: keyof Channels) => mean(inside.map((f) => f[k]));
    if (OPEN.has(p)) o.openVowels.push(m("mouthOpen"));
    if (CLOSE.has(p)) o.closeVowels.push(m("mouthOpen"));
    if (ROUNDED.has(p)) o.roundedVowels.push(m("mouthRound"));
    if (SPREAD.has(p)) o.spreadVowels.push(m("mouthRound"));
  }
  if (pauses) {
    const words: Timed[] = [];
    for (const [w, a, b] of al.words.map(at)) {
      const last = words[words.length - 1];
      if (w === "SIL" && last?.[0] === "SIL" && a - last[2] < 0.1) last[2] = b;
      else words.push([w, a, b]);
    }
    for (const [w, a, b] of words) {
      const frames =
        w === "SIL" ? (b - a >= 0.3 ? framesOf(ch, a + PAUSE_MARGIN, b - PAUSE_MARGIN) : []) : framesOf(ch, a, b);
      (w === "SIL" ? o.pauseOpen : o.speechOpen).push(...frames.map((f) => f.mouthOpen));
    }
  }
  return o;
}

const share = (v: boolean[]) => (v.length ? v.filter(Boolean).length / v.length : NaN);

export function figures(o: Observations) {
  return {
    seal: share(o.mbp),
    mbp: o.mbp.length,
    vowelsSealed: share(o.vowelSealed),
    vowels: o.vowelSealed.length,
    vowelsTucked: share(o.vowelTucked),
    openAuc: o.openVowels.length && o.closeVowels.length ? auc(o.openVowels, o.closeVowels) : NaN,
    roundAuc: o.roundedVowels.length && o.spreadVowels.length ? auc(o.roundedVowels, o.spreadVowels) : NaN,
    tuck: share(o.fv),
    fv: o.fv.length,
    pauseClosed: o.pauseOpen.length ? o.pauseOpen.filter((x) => x <= CLOSED_OPEN).length / o.pauseOpen.length : NaN,
    pauseMaxOpen: o.pauseOpen.length ? Math.max(...o.pauseOpen) : NaN,
    speechOverPause: o.pauseOpen.length ? mean(o.speechOpen) / Math.max(1e-3, mean(o.pauseOpen)) : NaN,
    pauseFrames: o.pauseOpen.length,
  };
}

/** Seals the channels show: runs of frames with lipsClosed ≥ 0.5. */
export function closures(ch: Channels[]): number {
  let n = 0;
  for (let i = 0; i < ch.length; i++) if (ch[i].lipsClosed >= 0.5 && !(i > 0 && ch[i - 1].lipsClosed >= 0.5)) n++;
  return n;
}
