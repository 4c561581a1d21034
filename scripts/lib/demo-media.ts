import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { wavHeader } from "./wav";

/**
 * Demo media of `npm start` only: a portrait (a repository test fixture) and a spoken sentence, served on
 * 127.0.0.1 and admitted like any local media server (SOURCE_ALLOWLIST), so the README's commands reach an
 * MP4 offline. Nothing here is part of the Worker or of a deployment.
 */
export const DEMO_MEDIA_PORT = 8780;
export const DEMO_FILES = { "portrait.jpg": "image/jpeg", "voice.wav": "audio/wav" } as const;

const root = new URL("../..", import.meta.url).pathname;
const SENTENCE = "Hello! I am Ada. This video was made from one photo and this voice.";

/** 16-bit mono PCM WAV. */
function wav(samples: Float32Array, rate: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((x, i) => data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, x)) * 32767), i * 2));
  return Buffer.concat([wavHeader(rate, data.length), data]);
}

/** Without espeak-ng: voiced syllables (a 120 Hz buzz through vowel-like formants) with pauses, 4 s. */
function syllables(rate = 24_000): Float32Array {
  const vowels = [
    [730, 1090],
    [270, 2290],
    [530, 1840],
    [300, 870],
  ];
  const out = new Float32Array(rate * 4);
  for (let s = 0; s < 12; s++) {
    const [f1, f2] = vowels[s % vowels.length];
    const start = Math.round((0.1 + s * 0.32) * rate);
    const n = Math.round(0.22 * rate);
    for (let i = 0; i < n && start + i < out.length; i++) {
      const t = i / rate;
      let x = 0;
      for (let h = 1; h * 120 < 4000; h++) {
        const f = h * 120;
        x += (1 / (1 + ((f - f1) / 80) ** 2) + 0.5 / (1 + ((f - f2) / 100) ** 2)) * Math.sin(2 * Math.PI * f * t);
      }
      out[start + i] = 0.15 * x * Math.sin((Math.PI * i) / n);
    }
  }
  return out;
}

/** The voice file: espeak-ng speech when the tool is installed, else the synthetic syllables. Made once. */
export function demoVoice(dir = join(root, ".local/demo")): string {
  const file = join(dir, "voice.wav");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("espeak-ng", ["-v", "en-us", "-s", "150", "-w", file, SENTENCE], { stdio: "ignore" });
  } catch {
    writeFileSync(file, wav(syllables(), 24_000));
  }
  return file;
}

/** SOURCE_ALLOWLIST of npm start: the caller's entries plus the demo media server (exact host:port). */
export const allowlistWithDemo = (allowlist: string | undefined, origin: string): string =>
  [allowlist, new URL(origin).host].filter(Boolean).join(",");

export function startDemoMedia(port = DEMO_MEDIA_PORT): Promise<{ origin: string; server: Server }> {
  const files: Record<string, string> = {
    "portrait.jpg": join(root, "test/fixtures/portraits/single-camera.jpg"),
    "voice.wav": demoVoice(),
  };
  const server = createServer((req, res) => {
    const name = (req.url ?? "/").slice(1).split("?")[0] as keyof typeof DEMO_FILES;
    if (!(name in DEMO_FILES) || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404).end();
      return;
    }
    const body = readFileSync(files[name]);
    res.writeHead(200, { "Content-Type": DEMO_FILES[name], "Content-Length": body.length });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve({ origin: `http://127.0.0.1:${port}`, server }));
  });
}
