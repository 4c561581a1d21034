/**
 * The training corpus on disk (written by corpus.ts, read by train.ts): frames.f32 holds RAW_VALUES per frame
 * — the mel band levels, the loudness and the speaker's level, all dB, as the product's analysis measured
 * them — labels.i8 the class of each frame (−1 = unlabelled), utterances.json each utterance's voice and length.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MEL_BANDS } from "../../packages/motion-model/src/mel";

export const RAW_VALUES = MEL_BANDS + 2;

export interface Corpus {
  frames: Float32Array;
  labels: Int8Array;
  /** Each utterance's voice, length in frames and the channel conditions it went through (augment.ts). */
  utterances: Array<{ voice: string; frames: number; conditions?: string[] }>;
}

const bytes = (parts: ArrayBufferView[]) =>
  Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));

export function writeCorpus(
  dir: string,
  frames: Float32Array[],
  labels: Int8Array[],
  utterances: Corpus["utterances"],
): void {
  writeFileSync(join(dir, "frames.f32"), bytes(frames));
  writeFileSync(join(dir, "labels.i8"), bytes(labels));
  writeFileSync(join(dir, "utterances.json"), JSON.stringify(utterances));
}

export function readCorpus(dir: string): Corpus {
  const f = readFileSync(join(dir, "frames.f32"));
  return {
    frames: new Float32Array(f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength)),
    labels: new Int8Array(readFileSync(join(dir, "labels.i8"))),
    utterances: JSON.parse(readFileSync(join(dir, "utterances.json"), "utf8")),
  };
}

/** Several corpora read as one (utterances in the order given). */
export function readCorpora(dirs: string[]): Corpus {
  const all = dirs.map(readCorpus);
  const cat = <T extends Float32Array | Int8Array>(parts: T[], make: (n: number) => T): T => {
    const out = make(parts.reduce((s, p) => s + p.length, 0));
    parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
    return out;
  };
  return {
    frames: cat(
      all.map((c) => c.frames),
      (n) => new Float32Array(n),
    ),
    labels: cat(
      all.map((c) => c.labels),
      (n) => new Int8Array(n),
    ),
    utterances: all.flatMap((c) => c.utterances),
  };
}
