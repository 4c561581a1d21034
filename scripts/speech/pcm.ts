/**
 * Whole-utterance audio operations of the corpus done in-process (corpus.ts, augment.ts): the corpus makes
 * several copies of each real prompt, and an ffmpeg process per copy and per channel cost more than the rest
 * of the corpus on a loaded machine. Resampling is the product's own windowed-sinc resampler.
 */
import { execFileSync } from "node:child_process";
import { StreamResampler } from "../../packages/motion-model/src/resample";

/** A file decoded at its own sample rate (mono float). */
export interface Decoded {
  pcm: Float32Array;
  rate: number;
}

/** `args` are ffmpeg's input arguments (`-i file`, possibly with a format before it). */
export function decodeNative(args: string[]): Decoded {
  const probe = ["-v", "error", ...args.slice(0, -2), "-show_entries", "stream=sample_rate", "-of", "csv=p=0"];
  const rate = Number(
    execFileSync("ffprobe", [...probe, args[args.length - 1]])
      .toString()
      .trim(),
  );
  const out = execFileSync("ffmpeg", ["-v", "error", ...args, "-ac", "1", "-f", "f32le", "pipe:1"], {
    maxBuffer: 1 << 28,
  });
  return { pcm: new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength)), rate };
}

/** `pcm` at `inRate` resampled to `outRate`, as long as the audio lasts (the resampler's tail flushed). */
export function resample(pcm: Float32Array, inRate: number, outRate: number): Float32Array {
  if (inRate === outRate) return pcm.slice();
  const r = new StreamResampler(inRate, outRate);
  const n = Math.round((pcm.length * outRate) / inRate);
  const out = new Float32Array(n);
  const head = r.push(pcm);
  out.set(head.subarray(0, n));
  const tail = r.push(new Float32Array(Math.ceil(r.lookaheadSeconds * inRate) + 2));
  out.set(tail.subarray(0, Math.max(0, n - head.length)), Math.min(n, head.length));
  return out;
}

/** A second-order Butterworth high- or low-pass (the audio-EQ cookbook's, as ffmpeg's `highpass`/`lowpass`). */
export function biquad(pcm: Float32Array, rate: number, hz: number, kind: "high" | "low"): Float32Array {
  const w = (2 * Math.PI * hz) / rate;
  const alpha = Math.sin(w) / Math.SQRT2;
  const cos = Math.cos(w);
  const b1 = kind === "low" ? 1 - cos : -(1 + cos);
  const b0 = Math.abs(b1) / 2;
  const a0 = 1 + alpha;
  const [c0, c1, c2, d1, d2] = [b0 / a0, b1 / a0, b0 / a0, (-2 * cos) / a0, (1 - alpha) / a0];
  const out = new Float32Array(pcm.length);
  let [x1, x2, y1, y2] = [0, 0, 0, 0];
  for (let i = 0; i < pcm.length; i++) {
    const y = c0 * pcm[i] + c1 * x1 + c2 * x2 - d1 * y1 - d2 * y2;
    [x2, x1, y2, y1] = [x1, pcm[i], y1, y];
    out[i] = y;
  }
  return out;
}
