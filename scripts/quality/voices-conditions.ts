/**
 * The recordings of scripts/quality-voices.ts as a customer's audio may reach us: 20 dB SNR babble or street
 * noise mixed in, room reverb, telephone bandwidth at 8 kHz, 32 kbps MP3. Deterministic (seeded); the babble
 * is six espeak-ng voices talking at once (synthetic, so no recording of the measured sets is reused).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wavHeader } from "../lib/wav";
import { makeRng } from "../speech/rng";
import { englishSentence } from "../speech/texts";
import { decode16k, RATE, speak } from "../speech/tts";

export const CONDITIONS = ["clean", "babble", "street", "reverb", "telephone", "mp3"] as const;
export type Condition = (typeof CONDITIONS)[number];

const power = (x: Float32Array) => x.reduce((s, v) => s + v * v, 0) / (x.length || 1);

/** `noise` scaled to `snr` dB below `pcm`'s speech (the power of its louder half) and added. */
function mix(pcm: Float32Array, noise: Float32Array, snr: number): Float32Array {
  const frames = Array.from({ length: Math.floor(pcm.length / 160) }, (_, i) =>
    power(pcm.subarray(i * 160, i * 160 + 160)),
  );
  frames.sort((a, b) => b - a);
  const speech =
    frames.slice(0, Math.max(1, frames.length >> 1)).reduce((a, b) => a + b, 0) / Math.max(1, frames.length >> 1);
  const g = Math.sqrt(speech / (power(noise) || 1)) * 10 ** (-snr / 20);
  return pcm.map((x, i) => x + g * noise[i % noise.length]);
}

let babbleCache: Float32Array | undefined;
/** Six espeak-ng voices reading different sentences at once, 20 s. */
function babble(): Float32Array {
  if (babbleCache) return babbleCache;
  const rng = makeRng(33);
  const out = new Float32Array(20 * RATE);
  for (const v of ["en-us+m3", "en-gb+f4", "en-us+m7", "en+f2", "en-029+m2", "en-us+f5"]) {
    let at = Math.floor(rng() * RATE);
    while (at < out.length) {
      const s = speak({ engine: "espeak", name: v, wpm: 150 + Math.floor(60 * rng()) }, englishSentence(rng));
      const g = 1 / Math.sqrt(power(s) || 1);
      for (let i = 0; i < s.length && at + i < out.length; i++) out[at + i] += g * s[i];
      at += s.length + Math.floor(0.2 * RATE * rng());
    }
  }
  return (babbleCache = out);
}

/** Street: pink-ish noise, a low traffic rumble rising and falling, 30 s. */
function street(): Float32Array {
  const rng = makeRng(34);
  const out = new Float32Array(30 * RATE);
  let [b0, b1, b2, rumble] = [0, 0, 0, 0];
  for (let i = 0; i < out.length; i++) {
    const w = rng() * 2 - 1;
    b0 = 0.99765 * b0 + w * 0.099;
    b1 = 0.963 * b1 + w * 0.2965;
    b2 = 0.57 * b2 + w * 1.0527;
    rumble = 0.999 * rumble + 0.05 * (rng() * 2 - 1);
    const swell = 0.6 + 0.4 * Math.sin((2 * Math.PI * i) / (7 * RATE));
    out[i] = 0.2 * (b0 + b1 + b2 + w * 0.1848) + 4 * rumble * swell;
  }
  return out;
}

/** A room: 0.5 s of exponentially decaying noise (RT60 ≈ 0.5 s) after the direct sound, wet half as strong. */
function reverb(pcm: Float32Array): Float32Array {
  const rng = makeRng(35);
  const taps = Array.from({ length: 400 }, () => {
    const d = Math.floor(RATE * (0.005 + 0.5 * rng()));
    return { d, g: (rng() * 2 - 1) * Math.exp((-6.9 * d) / (0.5 * RATE)) };
  });
  const norm = Math.sqrt(taps.reduce((s, t) => s + t.g * t.g, 0));
  const out = pcm.slice();
  for (const { d, g } of taps) for (let i = d; i < pcm.length; i++) out[i] += (0.7 * g * pcm[i - d]) / norm;
  return out;
}

/** Through ffmpeg: `args` between a 16 kHz WAV in and the 16 kHz float out. */
function ffmpeg(pcm: Float32Array, args: string[][]): Float32Array {
  const dir = mkdtempSync(join(tmpdir(), "voices-cond-"));
  try {
    const pcm16 = Buffer.alloc(pcm.length * 2);
    pcm.forEach((x, i) => pcm16.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(x * 32767))), i * 2));
    writeFileSync(join(dir, "in.wav"), Buffer.concat([wavHeader(RATE, pcm16.length), pcm16]));
    let input = join(dir, "in.wav");
    args.forEach((a, k) => {
      const out = join(dir, `step${k}.${a[a.length - 1]}`);
      execFileSync("ffmpeg", ["-v", "error", "-y", "-i", input, ...a.slice(0, -1), out]);
      input = out;
    });
    return decode16k(input);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `pcm` (16 kHz) as it sounds under `condition`. */
export function degrade(condition: Condition, pcm: Float32Array): Float32Array {
  switch (condition) {
    case "clean":
      return pcm;
    case "babble":
      return mix(pcm, babble(), 20);
    case "street":
      return mix(pcm, street(), 20);
    case "reverb":
      return reverb(pcm);
    case "telephone":
      return ffmpeg(pcm, [["-af", "highpass=f=300,lowpass=f=3400", "-ar", "8000", "wav"]]);
    case "mp3":
      return ffmpeg(pcm, [["-c:a", "libmp3lame", "-b:a", "32k", "mp3"]]);
  }
}
