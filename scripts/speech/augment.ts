/**
 * The ways a customer's audio reaches us, applied to training audio (never to a measured recording) so the
 * classifier hears the same sounds through them (issue 33, point 4): talkers' babble or street noise mixed in
 * at 5–25 dB SNR, a reverberant room (RT60 0.2–0.9 s), a telephone band (≈ 300–3400 Hz at 8 kHz) and a
 * low-bitrate MP3. Each is drawn on its own, so some utterances get two or three. The noises are made here
 * with their own seeds and voices (quality/voices-conditions.ts makes the measured ones).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wavHeader } from "../lib/wav";
import { biquad, resample } from "./pcm";
import type { Rng } from "./rng";
import { englishSentence, LANGUAGES, pseudoSentence } from "./texts";
import { decode16k, RATE, speak } from "./tts";

/** Chance of each condition per utterance. */
const CHANCE = { babble: 0.15, street: 0.15, reverb: 0.2, telephone: 0.15, mp3: 0.15 };

const power = (x: Float32Array, a = 0, b = x.length) => {
  let s = 0;
  for (let i = a; i < b; i++) s += x[i] * x[i];
  return s / Math.max(1, b - a);
};

/** `noise` (from a random point, looped) at `snr` dB below the power of `pcm`'s louder half, added in place. */
function mix(pcm: Float32Array, noise: Float32Array, snr: number, rng: Rng): void {
  const frames = Array.from({ length: Math.floor(pcm.length / 160) }, (_, i) => power(pcm, i * 160, i * 160 + 160));
  frames.sort((a, b) => b - a);
  const half = Math.max(1, frames.length >> 1);
  const speech = frames.slice(0, half).reduce((a, b) => a + b, 0) / half;
  const g = Math.sqrt(speech / (power(noise) || 1)) * 10 ** (-snr / 20);
  const at = Math.floor(rng() * noise.length);
  for (let i = 0; i < pcm.length; i++) pcm[i] += g * noise[(at + i) % noise.length];
}

/** 30 s of 4–7 espeak-ng talkers of several languages at once. */
function makeBabble(rng: Rng, variants: readonly string[]): Float32Array {
  const out = new Float32Array(30 * RATE);
  const talkers = 4 + Math.floor(rng() * 4);
  for (let t = 0; t < talkers; t++) {
    const lang = rng() < 0.5 ? "en" : LANGUAGES[Math.floor(rng() * LANGUAGES.length)];
    const voice = `${lang === "en" ? "en-us" : lang}+${variants[Math.floor(rng() * variants.length)]}`;
    let at = Math.floor(rng() * RATE);
    while (at < out.length) {
      const text = lang === "en" ? englishSentence(rng) : pseudoSentence(rng, lang);
      const s = speak({ engine: "espeak", name: voice, wpm: 130 + Math.floor(90 * rng()) }, text);
      const g = 1 / Math.sqrt(power(s) || 1);
      for (let i = 0; i < s.length && at + i < out.length; i++) out[at + i] += g * s[i];
      at += s.length + Math.floor(0.3 * RATE * rng());
    }
  }
  return out;
}

/** 30 s of street: coloured noise with a slow traffic rumble that swells and fades. */
function makeStreet(rng: Rng): Float32Array {
  const out = new Float32Array(30 * RATE);
  const [pole, rumbleGain, swellHz] = [0.9 + 0.099 * rng(), 1 + 6 * rng(), 0.05 + 0.3 * rng()];
  let [c, rumble] = [0, 0];
  for (let i = 0; i < out.length; i++) {
    const w = rng() * 2 - 1;
    c = pole * c + w * (1 - pole) * 4;
    rumble = 0.999 * rumble + 0.05 * (rng() * 2 - 1);
    const swell = 0.6 + 0.4 * Math.sin((2 * Math.PI * swellHz * i) / RATE);
    out[i] = 0.5 * c + 0.1 * w + rumbleGain * rumble * swell;
  }
  return out;
}

/** A room: dense exponentially decaying noise after the direct sound, RT60 0.2–0.9 s, in place. */
function reverb(pcm: Float32Array, rng: Rng): void {
  const rt60 = 0.2 + 0.7 * rng();
  const wet = 0.3 + 0.6 * rng();
  const taps = Array.from({ length: 300 }, () => {
    const d = Math.floor(RATE * (0.004 + rt60 * rng()));
    return { d, g: (rng() * 2 - 1) * Math.exp((-6.9 * d) / (rt60 * RATE)) };
  });
  const norm = Math.sqrt(taps.reduce((s, t) => s + t.g * t.g, 0)) || 1;
  const dry = pcm.slice();
  for (const { d, g } of taps) {
    const k = (wet * g) / norm;
    for (let i = d; i < pcm.length; i++) pcm[i] += k * dry[i - d];
  }
}

/** `pcm` through ffmpeg with `args` (a WAV in, the format named last out), back at 16 kHz. */
function ffmpeg(pcm: Float32Array, args: string[]): Float32Array {
  const dir = mkdtempSync(join(tmpdir(), "augment-"));
  try {
    const peak = pcm.reduce((m, x) => Math.max(m, Math.abs(x)), 0) || 1;
    const pcm16 = Buffer.alloc(pcm.length * 2);
    pcm.forEach((x, i) => pcm16.writeInt16LE(Math.round((x / peak) * 30000), i * 2));
    writeFileSync(join(dir, "in.wav"), Buffer.concat([wavHeader(RATE, pcm16.length), pcm16]));
    const out = join(dir, `out.${args[args.length - 1]}`);
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", join(dir, "in.wav"), ...args.slice(0, -1), out]);
    const back = decode16k(out);
    // Codecs may add or drop a few samples: keep the utterance's length (labels are per 10 ms frame).
    const res = new Float32Array(pcm.length);
    res.set(back.subarray(0, pcm.length));
    return res.map((x) => x * (peak / 30000) * 32767);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Channel {
  /** The conditions applied (for the corpus index). */
  applied: string[];
  pcm: Float32Array;
}

/**
 * A channel maker: one babble and one street recording per corpus (a fresh one every 150 uses), then
 * conditions drawn per utterance. With `every`, an utterance that drew none draws again: each copy of a real
 * prompt is heard through at least one channel.
 */
export function makeChannel(rng: Rng, variants: readonly string[], every = false): (pcm: Float32Array) => Channel {
  let babble: Float32Array | undefined;
  let street: Float32Array | undefined;
  let uses = 0;
  const draw = () => {
    const noise = rng() < CHANCE.babble ? "babble" : rng() < CHANCE.street / (1 - CHANCE.babble) ? "street" : "";
    return {
      reverb: rng() < CHANCE.reverb,
      noise,
      telephone: rng() < CHANCE.telephone,
      mp3: rng() < CHANCE.mp3,
    };
  };
  return (input) => {
    let pcm = input;
    const applied: string[] = [];
    let c = draw();
    while (every && !c.reverb && !c.noise && !c.telephone && !c.mp3) c = draw();
    if (++uses % 150 === 0) [babble, street] = [undefined, undefined];
    if (c.reverb) {
      reverb(pcm, rng);
      applied.push("reverb");
    }
    if (c.noise === "babble") {
      babble ??= makeBabble(rng, variants);
      mix(pcm, babble, 5 + 20 * rng(), rng);
      applied.push("babble");
    } else if (c.noise === "street") {
      street ??= makeStreet(rng);
      mix(pcm, street, 5 + 20 * rng(), rng);
      applied.push("street");
    }
    if (c.telephone) {
      const [lo, hi] = [200 + 200 * rng(), 3000 + 700 * rng()];
      const band = biquad(biquad(pcm, RATE, lo | 0, "high"), RATE, hi | 0, "low");
      pcm = resample(resample(band, RATE, 8000), 8000, RATE);
      applied.push("telephone");
    }
    if (c.mp3) {
      pcm = ffmpeg(pcm, ["-c:a", "libmp3lame", "-b:a", `${[24, 32, 40, 48][Math.floor(rng() * 4)]}k`, "mp3"]);
      applied.push("mp3");
    }
    return { applied, pcm };
  };
}
