/**
 * What the viseme classifier (phonetic-mouth.ts) reads: per 10 ms analysis frame the spectral envelope's
 * shape (mel band levels minus their mean, so loudness and gain do not matter) and the loudness relative to
 * the speaker's level; stacked over a context of past frames and at most LOOKAHEAD future ones — the same
 * look-ahead the stream already allows for plosive closures, so the live latency does not grow.
 */
import type { FrameFeatures } from "./lipsync-frame";
import { MEL_BANDS } from "./mel";

/** Values per analysis frame. */
export const FRAME_VALUES = MEL_BANDS + 1;
/** Frame offsets stacked into one classifier input (the past is sampled more sparsely). */
export const CONTEXT = [-10, -7, -5, -3, -2, -1, 0, 1, 2, 3, 4] as const;
export const LOOKAHEAD = CONTEXT[CONTEXT.length - 1];
export const INPUTS = CONTEXT.length * FRAME_VALUES;
/** Band levels more than this far below the frame's loudest band are read as this far (noise). */
const RANGE_DB = 60;
/** Loudness values are dB relative to the speaker's level ÷ 15, clipped to this floor (silence). */
const QUIET = -3;

/**
 * The classifier's values of one frame (`ref` = the speaker's level, dB): mel band levels (dB, floored
 * RANGE_DB below the loudest) minus their mean, ÷ 15, then the loudness. Near-silent frames carry no shape
 * (they equal SILENT_FRAME). Written into `v` (a stream's slot) or a new array.
 */
export function frameValues(
  f: FrameFeatures,
  ref: number,
  v: Float32Array = new Float32Array(FRAME_VALUES),
): Float32Array {
  const loud = Math.min(1, Math.max(QUIET, (f.db - ref) / 15));
  v[MEL_BANDS] = loud;
  if (loud === QUIET) {
    v.fill(0, 0, MEL_BANDS);
    return v;
  }
  let top = -Infinity;
  for (let b = 0; b < MEL_BANDS; b++) top = Math.max(top, f.mel[b]);
  let mean = 0;
  for (let b = 0; b < MEL_BANDS; b++) mean += Math.max(f.mel[b], top - RANGE_DB);
  mean /= MEL_BANDS;
  for (let b = 0; b < MEL_BANDS; b++) v[b] = (Math.max(f.mel[b], top - RANGE_DB) - mean) / 15;
  return v;
}

/** A frame of silence (what frame values are for no signal), used beyond the audio's ends. */
export const SILENT_FRAME: Float32Array = (() => {
  const v = new Float32Array(FRAME_VALUES);
  v[MEL_BANDS] = QUIET;
  return v;
})();

/** The stacked input around frame i; `at(j)` gives frame j's values or undefined outside the audio. */
export function stackContext(at: (j: number) => Float32Array | undefined, i: number, out: Float32Array): Float32Array {
  for (let c = 0; c < CONTEXT.length; c++) out.set(at(i + CONTEXT[c]) ?? SILENT_FRAME, c * FRAME_VALUES);
  return out;
}
