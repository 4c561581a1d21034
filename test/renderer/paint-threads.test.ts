/**
 * Painting on worker threads (bands of each frame, painter.ts) gives the same frames as painting on the
 * calling thread alone. On 2 cores the renderer paints on one thread by default, so this test is what runs
 * the worker path here.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { run, ffmpegPath } from "../../container/src/video/ffmpeg";
import { renderVideo } from "../../container/src/video/render";
import { encodeAudio, speechLike, synthSpeech } from "./helpers/media-audio";
import { SMALL_SQUARE, type TestAvatar, testAvatar } from "./helpers/media-avatar";

let dir: string;
let avatar: TestAvatar;
let audioPath: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "paint-threads-"));
  avatar = await testAvatar("single-phone");
  audioPath = join(dir, "speech.wav");
  await encodeAudio(synthSpeech(speechLike(1.5, 7), 24_000), 24_000, audioPath, "wav");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The render's decoded frames (framemd5) and how many painting threads it used. */
async function framesWith(threads: number): Promise<{ frames: string; threads: number }> {
  const out = await renderVideo({
    portraitPng: avatar.portraitPng,
    rig: avatar.rig,
    audioPath,
    settings: { ...SMALL_SQUARE, width: 512, height: 512 },
    workDir: mkdtempSync(join(dir, "job-")),
    seed: 7,
    threads,
  });
  const md5 = await run(ffmpegPath(), ["-v", "error", "-i", out.mp4Path, "-map", "0:v", "-f", "framemd5", "-"]);
  expect(md5.code).toBe(0);
  const lines = md5.stdout
    .toString("utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("#"));
  expect(lines.length).toBeGreaterThan(30);
  return { frames: createHash("sha256").update(lines.join("\n")).digest("hex"), threads: out.timings.threads };
}

it("frames painted in bands on three threads are the frames painted on one", async () => {
  const one = await framesWith(1);
  const three = await framesWith(3);
  expect(one.threads).toBe(1);
  expect(three.threads).toBe(3);
  expect(three.frames).toBe(one.frames);
});
