/**
 * Mouth channels of speech with known words, and the figures of scripts/quality-phonetic.ts over them
 * (definitions there and in docs/phonetic-mouth.md): words joined by silences, the live
 * stream's channels and the renderer's track of the same audio.
 */
import {
  analyzeLipSync,
  LIP_LEAD_SECONDS,
  MotionStream,
  sampleTrack,
  type MotionFrame,
} from "@avatar-video/motion-model";
import { envelopeDb, percentile } from "./metrics";
import { auc, bandShare, mean } from "./phonetic-figures";
import * as W from "./phonetic-words";
import { RATE, speak, trimSilence, type Voice } from "../speech/tts";

const FPS = 25;
const GAP = 0.7;

export type Channels = Pick<MotionFrame, "mouthOpen" | "mouthWide" | "mouthRound" | "lipsClosed" | "lipTuck">;

/** `words` spoken one by one, joined by 0.7 s silences, and where each is. */
export function wordsAudio(
  voice: Voice,
  words: readonly string[] = W.ALL_WORDS,
): { pcm: Float32Array; spans: Map<string, [number, number]> } {
  const parts: Float32Array[] = [new Float32Array(GAP * RATE)];
  const spans = new Map<string, [number, number]>();
  let at = GAP * RATE;
  for (const w of words) {
    const p = trimSilence(speak(voice, w));
    spans.set(w, [at / RATE, (at + p.length) / RATE]);
    parts.push(p, new Float32Array(GAP * RATE));
    at += p.length + GAP * RATE;
  }
  const pcm = new Float32Array(at);
  let o = 0;
  for (const p of parts) pcm.set(p, o), (o += p.length);
  return { pcm, spans };
}

/** Live channels: the service's stream fed 20 ms chunks. */
export function live(pcm: Float32Array): Channels[] {
  const s = new MotionStream(RATE, 1);
  const out: MotionFrame[] = [];
  for (let i = 0; i < pcm.length; i += 320) out.push(...s.pushSamples(pcm.subarray(i, i + 320)));
  out.push(...s.finish());
  return out;
}

/** The renderer's channels: the whole-file track sampled at 25 fps with the same lead. */
export function rendered(pcm: Float32Array): Channels[] {
  const track = analyzeLipSync(pcm);
  return Array.from({ length: Math.ceil((pcm.length / RATE) * FPS) }, (_, n) => {
    const m = sampleTrack(track, n / FPS + LIP_LEAD_SECONDS);
    return { mouthOpen: m.open, mouthWide: m.spread, mouthRound: m.round, lipsClosed: m.press, lipTuck: m.tuck };
  });
}

/** Frames showing audio times [a, b] (the mouth leads the sound). */
function framesOf(ch: Channels[], a: number, b: number): Channels[] {
  return ch.slice(
    Math.max(0, Math.ceil((a - LIP_LEAD_SECONDS) * FPS)),
    Math.max(0, Math.floor((b - LIP_LEAD_SECONDS) * FPS) + 1),
  );
}

export function wordFigures(pcm: Float32Array, spans: Map<string, [number, number]>, ch: Channels[]) {
  const interior = (w: string) => {
    const [a, b] = spans.get(w)!;
    return framesOf(ch, a + 0.2 * (b - a), b - 0.2 * (b - a));
  };
  const rate = (words: string[], hit: (f: Channels) => boolean) =>
    words.filter((w) => interior(w).some(hit)).length / words.length;
  const sealed = (f: Channels) => f.lipsClosed >= 0.5 || f.mouthOpen <= 0.08;
  const env = envelopeDb(pcm, RATE / 100, 400);
  const vowel = (w: string, key: keyof Channels) => {
    const [a, b] = spans.get(w)!;
    const i0 = Math.floor(a * 100);
    const i1 = Math.ceil(b * 100);
    const peak = Math.max(...env.subarray(i0, i1));
    const vals: number[] = [];
    for (let i = i0; i < i1; i++)
      if (env[i] > peak - 10) vals.push(...framesOf(ch, i / 100, (i + 1) / 100).map((f) => f[key]));
    return mean(vals);
  };
  const by = (words: string[], key: keyof Channels) => words.map((w) => vowel(w, key));
  const [rnd, spr] = [by(W.ROUNDED, "mouthRound"), by(W.SPREAD, "mouthRound")];
  const silent = ch.filter((_, n) => {
    const t = n / FPS + LIP_LEAD_SECONDS;
    return [...spans.values()].every(([a, b]) => t < a - 0.3 || t > b + 0.3);
  });
  return {
    seal: rate(W.BILABIAL_INSIDE, sealed),
    sealNone: rate(W.NO_BILABIAL, sealed),
    tuck: rate(W.LABIODENTAL_INSIDE, (f) => f.lipTuck >= 0.5),
    roundAuc: auc(rnd, spr),
    roundDelta: mean(rnd) - mean(spr),
    wideAuc: auc(by(W.SPREAD, "mouthWide"), by(W.ROUNDED, "mouthWide")),
    openAuc: auc(by(W.OPEN, "mouthOpen"), by(W.CLOSE, "mouthOpen")),
    still:
      silent.filter(
        (f) => f.mouthOpen === 0 && f.mouthWide === 0 && f.mouthRound === 0 && f.lipsClosed === 0 && f.lipTuck === 0,
      ).length / silent.length,
  };
}

export function passageFigures(pcm: Float32Array, ch: Channels[]) {
  const hop = RATE / FPS;
  const at = (n: number) => Math.round((n / FPS + LIP_LEAD_SECONDS) * RATE);
  const env = ch.map((_, n) => {
    let s = 0;
    for (let j = at(n) - hop / 2; j < at(n) + hop / 2; j++) if (j >= 0 && j < pcm.length) s += pcm[j] * pcm[j];
    return Math.sqrt(s / hop);
  });
  const db = env.map((a) => 20 * Math.log10(a + 1e-9));
  const p95 = percentile(db, 0.95);
  const open = ch.map((f) => f.mouthOpen);
  const speech = open.filter((_, n) => db[n] > p95 - 30);
  return {
    p20p90: percentile(speech, 0.2) / (percentile(speech, 0.9) || 1),
    modulation: bandShare(open, FPS, 3, 7) / bandShare(env, FPS, 3, 7),
  };
}
