/**
 * Speech-like test audio: formant-synthesised vowels, fricatives, plosive bursts and silences,
 * encoded with the npm ffmpeg into wav / mp3 / m4a / ogg. No TTS, no external tools.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { prng as rng } from "@avatar-video/motion-model";

const require = createRequire(import.meta.url);
export const FFMPEG: string = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
export const FFPROBE: string = (require("@ffprobe-installer/ffprobe") as { path: string }).path;

export type Vowel = "AA" | "EE" | "OO" | "EH" | "ER";

/** Formant frequencies (Hz) and bandwidths for a few vowels (adult male, Peterson & Barney-ish). */
export const VOWELS: Record<
  Vowel,
  { f: [number, number, number]; bw: [number, number, number]; l: [number, number, number] }
> = {
  AA: { f: [730, 1090, 2440], bw: [90, 110, 140], l: [-1, -5, -28] },
  EE: { f: [270, 2290, 3010], bw: [60, 100, 140], l: [-4, -24, -28] },
  OO: { f: [300, 870, 2240], bw: [60, 90, 140], l: [-3, -19, -43] },
  EH: { f: [530, 1840, 2480], bw: [70, 100, 140], l: [-2, -17, -24] },
  ER: { f: [490, 1350, 1690], bw: [70, 100, 120], l: [-5, -15, -20] },
};

export type Segment =
  | { kind: "silence"; seconds: number }
  | { kind: "vowel"; vowel: Vowel; seconds: number; level?: number /* dBFS peak-ish, default -12 */; f0?: number }
  | { kind: "fricative"; seconds: number; level?: number }
  /** A bilabial-like stop: closure silence then a short noise burst. */
  | { kind: "plosive"; closure?: number; level?: number };

/** Synthesise a sequence of segments at `rate` Hz (mono float). */
export function synthSpeech(segments: Segment[], rate = 24_000, seed = 7): Float32Array {
  const rand = rng(seed);
  const chunks: Float32Array[] = [];
  for (const seg of segments) {
    if (seg.kind === "silence") {
      chunks.push(new Float32Array(Math.round(seg.seconds * rate)));
    } else if (seg.kind === "vowel") {
      const n = Math.round(seg.seconds * rate);
      const out = new Float32Array(n);
      const { f, bw, l } = VOWELS[seg.vowel];
      const f0 = seg.f0 ?? 120;
      const maxH = Math.floor(5000 / f0);
      const amps: number[] = [];
      for (let h = 1; h <= maxH; h++) {
        const fh = h * f0;
        // Parallel formants with Peterson & Barney-like peak levels; −50 dB floor.
        let p2 = 1e-5;
        for (let k = 0; k < 3; k++) {
          const d = (fh - f[k]) / (bw[k] / 2);
          p2 += 10 ** (l[k] / 10) / (1 + d * d);
        }
        amps.push(Math.sqrt(p2));
      }
      const norm = amps.reduce((a, b) => a + b * b, 0);
      const level = 10 ** ((seg.level ?? -12) / 20);
      const scale = (level * Math.SQRT2) / Math.sqrt(norm);
      let phase = 0;
      const att = Math.round(0.025 * rate);
      const rel = Math.round(0.04 * rate);
      for (let i = 0; i < n; i++) {
        const t = i / rate;
        const fi = f0 * (1 + 0.03 * Math.sin(2 * Math.PI * 5 * t) - 0.06 * (i / n)); // vibrato + declination
        phase += (2 * Math.PI * fi) / rate;
        let x = 0;
        for (let h = 0; h < amps.length; h++) x += amps[h] * Math.sin((h + 1) * phase);
        const env = Math.min(1, i / att, (n - 1 - i) / rel);
        out[i] = x * scale * Math.max(0, env);
      }
      chunks.push(out);
    } else if (seg.kind === "fricative") {
      const n = Math.round(seg.seconds * rate);
      const out = new Float32Array(n);
      const level = 10 ** ((seg.level ?? -22) / 20);
      let p1 = 0;
      let p2 = 0;
      for (let i = 0; i < n; i++) {
        const w = rand() * 2 - 1;
        const d1 = w - p1; // high-pass twice → sibilant-like
        const d2 = d1 - p2;
        p1 = w;
        p2 = d1;
        const env = Math.min(1, i / (0.02 * rate), (n - 1 - i) / (0.02 * rate));
        out[i] = d2 * 0.5 * level * Math.max(0, env);
      }
      chunks.push(out);
    } else {
      const closure = Math.round((seg.closure ?? 0.07) * rate);
      const burst = Math.round(0.012 * rate);
      const out = new Float32Array(closure + burst);
      const level = 10 ** ((seg.level ?? -14) / 20);
      for (let i = 0; i < burst; i++) out[closure + i] = (rand() * 2 - 1) * level * (1 - i / burst);
      chunks.push(out);
    }
  }
  const total = chunks.reduce((a, c) => a + c.length, 0);
  const pcm = new Float32Array(total);
  let o = 0;
  for (const c of chunks) {
    pcm.set(c, o);
    o += c.length;
  }
  return pcm;
}

/** A generic speech-like phrase pattern (syllables with plosives, vowels, fricatives and pauses). */
export function speechLike(seconds: number, seed = 1): Segment[] {
  const rand = rng(seed);
  const vowels: Vowel[] = ["AA", "EE", "OO", "EH", "ER"];
  const segs: Segment[] = [];
  let t = 0;
  while (t < seconds - 0.3) {
    const r = rand();
    if (r < 0.12) {
      const s = 0.25 + rand() * 0.5;
      segs.push({ kind: "silence", seconds: s });
      t += s;
    } else if (r < 0.25) {
      segs.push({ kind: "plosive", closure: 0.05 + rand() * 0.05 });
      t += 0.1;
    } else if (r < 0.35) {
      const s = 0.08 + rand() * 0.08;
      segs.push({ kind: "fricative", seconds: s, level: -26 });
      t += s;
    } else {
      const s = 0.12 + rand() * 0.2;
      segs.push({
        kind: "vowel",
        vowel: vowels[Math.floor(rand() * vowels.length)],
        seconds: s,
        level: -10 - rand() * 10,
        f0: 100 + rand() * 40,
      });
      t += s;
    }
  }
  const used = segs.reduce((a, s) => a + (s.kind === "plosive" ? 0.1 : s.seconds), 0);
  if (used < seconds) segs.push({ kind: "silence", seconds: seconds - used });
  return segs;
}

export type AudioFormat = "wav" | "mp3" | "m4a" | "ogg";

/** Encode float PCM to a file with ffmpeg. */
export function encodeAudio(
  pcm: Float32Array,
  rate: number,
  outPath: string,
  format: AudioFormat = "wav",
): Promise<void> {
  const codec: Record<AudioFormat, string[]> = {
    wav: ["-c:a", "pcm_s16le", "-f", "wav"],
    mp3: ["-c:a", "libmp3lame", "-b:a", "96k", "-f", "mp3"],
    m4a: ["-c:a", "aac", "-b:a", "96k", "-f", "ipod"],
    ogg: ["-c:a", "libvorbis", "-q:a", "4", "-f", "ogg"],
  };
  return new Promise((resolve, reject) => {
    const p = spawn(
      FFMPEG,
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-y",
        "-f",
        "f32le",
        "-ar",
        String(rate),
        "-ac",
        "1",
        "-i",
        "pipe:0",
        ...codec[format],
        outPath,
      ],
      {
        stdio: ["pipe", "ignore", "pipe"],
      },
    );
    let err = "";
    p.stderr.on("data", (b) => (err += b));
    p.on("error", reject);
    p.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg encode ${code}: ${err}`))));
    p.stdin.end(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  });
}

/** ffprobe's JSON (-show_format -show_streams): the fields the tests read, as ffprobe prints them. */
export interface ProbeStream {
  codec_type: string;
  codec_name: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  sample_rate?: string;
  duration?: string;
  start_time?: string;
  nb_frames?: string;
  nb_read_frames?: string;
  tags?: Record<string, string>;
}

export interface Probe {
  streams: ProbeStream[];
  format: { duration: string; format_name: string };
}

/** Run ffprobe and return the parsed JSON (a `Probe`). */
export function ffprobeJson(path: string, extra: string[] = []): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      FFPROBE,
      ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", ...extra, path],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    p.stdout.on("data", (b) => (out += b));
    p.stderr.on("data", (b) => (err += b));
    p.on("error", reject);
    p.on("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`ffprobe ${code}: ${err}`))));
  });
}

/** Runs ffmpeg on an MP4 and splits its raw output into frames of `frameBytes` bytes. */
function rawFrames(path: string, filters: string[], pixFmt: "rgb24" | "gray", frameBytes: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const args = [
      "-hide_banner",
      "-loglevel",
      "error",
      "-i",
      path,
      ...filters,
      "-f",
      "rawvideo",
      "-pix_fmt",
      pixFmt,
      "pipe:1",
    ];
    const p = spawn(FFMPEG, args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let err = "";
    p.stdout.on("data", (b: Buffer) => chunks.push(b));
    p.stderr.on("data", (b) => (err += b));
    p.on("error", reject);
    p.on("close", (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg extract ${code}: ${err}`));
      const all = Buffer.concat(chunks);
      const out: Buffer[] = [];
      for (let i = 0; i + frameBytes <= all.length; i += frameBytes) out.push(all.subarray(i, i + frameBytes));
      resolve(out);
    });
  });
}

/** Decode selected video frames of an MP4 to raw RGB (one Buffer per requested frame index, in request order). */
export async function extractFramesRgb(
  path: string,
  width: number,
  height: number,
  frameIndices: number[],
): Promise<Buffer[]> {
  const sorted = [...new Set(frameIndices)].sort((a, b) => a - b);
  const select = `select=${sorted.map((i) => `eq(n\\,${i})`).join("+")}`;
  const got = await rawFrames(path, ["-vf", select, "-vsync", "0"], "rgb24", width * height * 3);
  if (got.length !== sorted.length) throw new Error(`extracted ${got.length} of ${sorted.length} frames`);
  return frameIndices.map((i) => got[sorted.indexOf(i)]);
}

/** Decode all video frames of an MP4 as raw gray (Y) planes, for motion checks. */
export function extractAllGray(path: string, width: number, height: number): Promise<Buffer[]> {
  return rawFrames(path, [], "gray", width * height);
}
