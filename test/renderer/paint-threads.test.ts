/**
 * Painting on worker threads (bands of each frame, painter.ts) gives the same frames as painting on the
 * calling thread alone. On 2 cores the renderer paints on one thread by default, so this test is what runs
 * the worker path here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { renderVideo } from "../../container/src/video/public";
import { frameDigest } from "./helpers/frame-digest";
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

/** The render's decoded frames (frame-digest.ts) and how many painting threads it used. */
async function framesWith(threads: number) {
  const out = await renderVideo({
    portraitPng: avatar.portraitPng,
    rig: avatar.rig,
    audioPath,
    settings: { ...SMALL_SQUARE, width: 512, height: 512 },
    workDir: mkdtempSync(join(dir, "job-")),
    seed: 7,
    threads,
  });
  const digest = await frameDigest(out.mp4Path);
  expect(digest.frames).toBeGreaterThan(30);
  return { frames: digest.sha256, threads: out.timings.threads };
}

it("frames painted in bands on three threads are the frames painted on one", async () => {
  const one = await framesWith(1);
  const three = await framesWith(3);
  expect(one.threads).toBe(1);
  expect(three.threads).toBe(3);
  expect(three.frames).toBe(one.frames);
});
