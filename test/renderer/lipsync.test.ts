/**
 * Lip-sync analysis on synthesised speech-like audio (formant vowels, fricatives, plosive bursts,
 * silences), decoded through ffmpeg from wav / mp3 / m4a / ogg.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeLipSync, ANALYSIS_RATE, sampleTrack, type LipTrack } from "@avatar-video/motion-model";
import { decodeMono, MAX_AUDIO_SECONDS, probeAudio } from "../../container/src/media/public";
import { encodeAudio, FFMPEG, synthSpeech, type Segment } from "./helpers/media-audio";
import { spawnSync } from "node:child_process";
import { failureCode } from "./helpers/failure-code";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "lipsync-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RATE = 24_000;

/** Segment list → [start, end) seconds of each segment. */
function spans(segs: Segment[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let t = 0;
  for (const s of segs) {
    const d = s.kind === "plosive" ? (s.closure ?? 0.07) + 0.012 : s.seconds;
    out.push([t, t + d]);
    t += d;
  }
  return out;
}

/** Mean of a track over [a, b) seconds. */
function mean(track: LipTrack, key: "open" | "spread" | "round" | "press", a: number, b: number): number {
  let s = 0;
  let n = 0;
  for (let i = Math.floor(a * track.hz); i < Math.min(track.length, Math.ceil(b * track.hz)); i++) {
    s += track[key][i];
    n++;
  }
  return n ? s / n : 0;
}

async function analyse(segs: Segment[], format: "wav" | "mp3" | "m4a" | "ogg" = "wav") {
  const path = join(dir, `a-${Math.random().toString(36).slice(2)}.${format}`);
  await encodeAudio(synthSpeech(segs, RATE), RATE, path, format);
  const pcm = await decodeMono(path, ANALYSIS_RATE);
  return { track: analyzeLipSync(pcm), path, pcm };
}

describe("mouth shapes from audio", () => {
  const segs: Segment[] = [
    { kind: "silence", seconds: 0.6 },
    { kind: "vowel", vowel: "AA", seconds: 0.5 },
    { kind: "silence", seconds: 0.5 },
    { kind: "vowel", vowel: "EE", seconds: 0.5 },
    { kind: "silence", seconds: 0.5 },
    { kind: "vowel", vowel: "OO", seconds: 0.5 },
    { kind: "silence", seconds: 0.8 },
  ];
  const sp = spans(segs);
  let track: LipTrack;
  beforeAll(async () => {
    track = (await analyse(segs)).track;
  });

  it("is exactly closed and still in silence", () => {
    // Leading silence and each pause once the release has settled (~250 ms), up to the next onset
    // (minus the half analysis window).
    for (const [a, b] of [
      [0, 0.55],
      [sp[2][0] + 0.3, sp[2][1] - 0.02],
      [sp[6][0] + 0.3, sp[6][1]],
    ] as Array<[number, number]>) {
      for (let i = Math.floor(a * 100); i < Math.floor(b * 100); i++) {
        expect(track.open[i]).toBe(0);
        expect(track.spread[i]).toBe(0);
        expect(track.round[i]).toBe(0);
        expect(track.press[i]).toBe(0);
      }
    }
  });

  it("opens wide for AA, narrow for EE and OO", () => {
    const aa = mean(track, "open", sp[1][0] + 0.1, sp[1][1]);
    const ee = mean(track, "open", sp[3][0] + 0.1, sp[3][1]);
    const oo = mean(track, "open", sp[5][0] + 0.1, sp[5][1]);
    expect(aa).toBeGreaterThan(0.7);
    expect(ee).toBeGreaterThan(0.1);
    expect(oo).toBeGreaterThan(0.1);
    expect(aa).toBeGreaterThan(ee * 2);
    expect(aa).toBeGreaterThan(oo * 2);
  });

  it("spreads the lips for EE and rounds them for OO", () => {
    const eeS = mean(track, "spread", sp[3][0] + 0.15, sp[3][1]);
    const eeR = mean(track, "round", sp[3][0] + 0.15, sp[3][1]);
    const ooS = mean(track, "spread", sp[5][0] + 0.15, sp[5][1]);
    const ooR = mean(track, "round", sp[5][0] + 0.15, sp[5][1]);
    const aaS = mean(track, "spread", sp[1][0] + 0.15, sp[1][1]);
    const aaR = mean(track, "round", sp[1][0] + 0.15, sp[1][1]);
    expect(eeS).toBeGreaterThan(0.5);
    expect(eeR).toBeLessThan(0.15);
    expect(ooR).toBeGreaterThan(0.5);
    expect(ooS).toBeLessThan(0.15);
    expect(aaS).toBeLessThan(0.2);
    expect(aaR).toBeLessThan(0.2);
  });

  it("attacks fast (~50 ms) and releases slower (~100 ms)", () => {
    const on = Math.round(sp[1][0] * 100);
    // 60 ms after the onset the mouth is well on its way open…
    expect(track.open[on + 6]).toBeGreaterThan(0.5);
    const off = Math.round(sp[1][1] * 100);
    // …and 60 ms after the offset it is still partly open, closed after 300 ms.
    expect(track.open[off + 6]).toBeGreaterThan(0.2);
    expect(track.open[off + 30]).toBe(0);
  });

  it("leads the sound: sampled 50 ms early, the mouth starts opening before the vowel", () => {
    const onset = sp[1][0];
    const early = sampleTrack(track, onset - 0.01 + 0.05);
    expect(early.open).toBeGreaterThan(0.05);
    expect(sampleTrack(track, onset - 0.1 + 0.05).open).toBe(0);
  });
});

it("uses the speaker's own level: soft speech opens, and a quiet file opens like a loud one", async () => {
  const phrase = (level: number): Segment[] => [
    { kind: "vowel", vowel: "AA", seconds: 0.35, level },
    { kind: "silence", seconds: 0.15 },
    { kind: "vowel", vowel: "EH", seconds: 0.35, level },
    { kind: "silence", seconds: 0.3 },
  ];
  const loud = await analyse([{ kind: "silence", seconds: 0.3 }, ...phrase(-8), ...phrase(-8)]);
  const quiet = await analyse([{ kind: "silence", seconds: 0.3 }, ...phrase(-34), ...phrase(-34)]);
  const a = mean(loud.track, "open", 0.4, 0.65);
  const b = mean(quiet.track, "open", 0.4, 0.65);
  expect(b).toBeGreaterThan(0.5);
  expect(Math.abs(a - b)).toBeLessThan(0.15);
  // Soft syllables after loud ones (−22 dB) still open the mouth.
  const mixed = await analyse([
    { kind: "silence", seconds: 0.3 },
    ...phrase(-8),
    { kind: "vowel", vowel: "AA", seconds: 0.35, level: -30 },
    { kind: "silence", seconds: 0.4 },
  ]);
  expect(mean(mixed.track, "open", 1.45, 1.7)).toBeGreaterThan(0.25);
});

// A closure of unknown place closes the mouth; only the classifier seals it (a t or k closure must not look
// like a p: issue 33).
it("closes the mouth before a plosive burst after a short silence", async () => {
  const segs: Segment[] = [
    { kind: "silence", seconds: 0.3 },
    { kind: "vowel", vowel: "AA", seconds: 0.35 },
    { kind: "plosive", closure: 0.08 },
    { kind: "vowel", vowel: "AA", seconds: 0.35 },
    { kind: "silence", seconds: 0.4 },
  ];
  const { track } = await analyse(segs);
  const sp = spans(segs);
  const [c0, c1] = sp[2];
  // During the closure the opening falls to under half the vowel's (pressed or not).
  let minOpen = 1;
  for (let i = Math.round(c0 * 100) + 2; i < Math.round(c1 * 100) - 1; i++)
    minOpen = Math.min(minOpen, track.open[i] * (1 - track.press[i]));
  expect(minOpen).toBeLessThan(0.5 * mean(track, "open", sp[1][0] + 0.1, sp[1][1]));
  // And open again after the burst.
  expect(mean(track, "open", sp[3][0] + 0.1, sp[3][1])).toBeGreaterThan(0.6);
});

it("keeps the gate open through a steady vowel (hysteresis: no flicker)", async () => {
  const { track } = await analyse([
    { kind: "silence", seconds: 0.3 },
    { kind: "vowel", vowel: "EH", seconds: 1.2, level: -18 },
    { kind: "silence", seconds: 0.3 },
  ]);
  for (let i = 40; i < 145; i++) expect(track.active[i]).toBe(1);
});

it("decodes wav, mp3, m4a and ogg to the same mouth timing", async () => {
  const segs: Segment[] = [
    { kind: "silence", seconds: 0.4 },
    { kind: "vowel", vowel: "AA", seconds: 0.4 },
    { kind: "silence", seconds: 0.4 },
  ];
  const results: Record<string, number> = {};
  for (const f of ["wav", "mp3", "m4a", "ogg"] as const) {
    const { track, path } = await analyse(segs, f);
    const info = await probeAudio(path);
    expect(info.channels).toBe(1);
    expect(info.durationSeconds).toBeGreaterThan(1.1);
    let first = -1;
    for (let i = 0; i < track.length; i++)
      if (track.open[i] > 0.3) {
        first = i;
        break;
      }
    results[f] = first;
  }
  // Encoder delay is compensated by ffmpeg for all four: onsets agree within 30 ms.
  const v = Object.values(results);
  expect(Math.max(...v) - Math.min(...v)).toBeLessThanOrEqual(3);
  expect(results.wav).toBeGreaterThanOrEqual(40);
  expect(results.wav).toBeLessThanOrEqual(46);
});

describe("probeAudio failures", () => {
  it("rejects files that are not audio with unsupported_media_type", async () => {
    const txt = join(dir, "notes.mp3");
    writeFileSync(txt, "this is not audio at all, just some text pretending to be an mp3\n".repeat(50));
    expect(await failureCode(probeAudio(txt))).toBe("unsupported_media_type");
    expect(await failureCode(decodeMono(txt, ANALYSIS_RATE))).toBe("unsupported_media_type");
    // An image is decodable media but has no audio stream.
    const png = join(dir, "image.wav");
    spawnSync(FFMPEG, [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "color=c=red:s=32x32:d=0.04",
      "-frames:v",
      "1",
      "-f",
      "image2",
      "-c:v",
      "png",
      png,
    ]);
    expect(await failureCode(probeAudio(png))).toBe("unsupported_media_type");
  });

  it("rejects an empty file with empty_media", async () => {
    const empty = join(dir, "empty.wav");
    writeFileSync(empty, Buffer.alloc(0));
    expect(await failureCode(probeAudio(empty))).toBe("empty_media");
  });

  it(`rejects audio longer than ${MAX_AUDIO_SECONDS} s with renderer_rejected`, async () => {
    const long = join(dir, "long.wav");
    spawnSync(FFMPEG, [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      `anullsrc=r=8000:cl=mono`,
      "-t",
      String(MAX_AUDIO_SECONDS + 5),
      "-c:a",
      "pcm_u8",
      long,
    ]);
    expect(await failureCode(probeAudio(long))).toBe("renderer_rejected");
  });
});
