/**
 * Synthetic speech whose words are known, for measuring and training the mouth: espeak-ng and flite, both
 * Debian packages (`apt-get install espeak-ng flite`), decoded to mono 16 kHz float by the system ffmpeg.
 * Two synthesisers, so a model trained on one can be measured on the other.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const RATE = 16_000;

export interface Voice {
  engine: "espeak" | "flite";
  /** espeak-ng voice (`en-us`, `en-gb+f3`, `de+m2` …) or flite voice (`slt`, `rms`, `awb`, `kal16`). */
  name: string;
  /** espeak-ng words per minute. */
  wpm?: number;
}

export const voiceLabel = (v: Voice) =>
  `${v.engine === "espeak" ? "espeak" : "flite"} ${v.name}${v.wpm ? ` ${v.wpm}` : ""}`;

/** Decode any audio file to mono 16 kHz float. */
export function decode16k(path: string): Float32Array {
  const out = execFileSync(
    "ffmpeg",
    ["-v", "error", "-i", path, "-ac", "1", "-ar", String(RATE), "-f", "f32le", "pipe:1"],
    { maxBuffer: 1 << 30 },
  );
  return new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
}

/** `text` spoken by `voice` (SSML allowed for espeak-ng), mono 16 kHz. */
export function speak(voice: Voice, text: string): Float32Array {
  const dir = mkdtempSync(join(tmpdir(), "tts-"));
  const wav = join(dir, "speech.wav");
  try {
    if (voice.engine === "espeak")
      execFileSync("espeak-ng", ["-m", "-v", voice.name, "-s", String(voice.wpm ?? 160), "-w", wav, text]);
    else execFileSync("flite", ["-voice", voice.name, "-t", text, "-o", wav]);
    return decode16k(wav);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The part of `pcm` between the first and last 10 ms whose loudness is within 45 dB of the loudest. */
export function trimSilence(pcm: Float32Array): Float32Array {
  const hop = RATE / 100;
  const n = Math.floor(pcm.length / hop);
  const db = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = i * hop; j < (i + 1) * hop; j++) s += pcm[j] * pcm[j];
    db[i] = 10 * Math.log10(s / hop + 1e-12);
  }
  const top = Math.max(...db);
  let a = 0;
  let b = n - 1;
  while (a < n && db[a] < top - 45) a++;
  while (b > a && db[b] < top - 45) b--;
  return pcm.slice(a * hop, (b + 1) * hop);
}
