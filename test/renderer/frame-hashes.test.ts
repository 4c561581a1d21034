/**
 * The renderer's output on fixture renders, frame by frame, against committed hashes: no change to what a
 * viewer sees passes unseen. A change made on purpose (a new mouth, a speed lever that moves pixels) updates
 * the hashes in the same commit: `UPDATE_FRAME_HASHES=1 npx vitest run --project renderer
 * test/renderer/frame-hashes.test.ts`, and the commit says why and what was looked at.
 *
 * Each hash covers the decoded frames (ffmpeg's framemd5 of every frame, as the renderer's ffmpeg decodes its
 * own MP4) of a short render with a fixed seed: the same tree, ffmpeg build and input give the same frames.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RenderSettings, renderVideo } from "../../container/src/video/public";
import { frameDigest } from "./helpers/frame-digest";
import { encodeAudio, type Segment, synthSpeech } from "./helpers/media-audio";
import { SMALL_SQUARE, type TestAvatar, testAvatar } from "./helpers/media-avatar";

const HASHES = new URL("./fixtures/frame-hashes.json", import.meta.url);
const UPDATE = process.env.UPDATE_FRAME_HASHES === "1";

const SPEECH: Segment[] = [
  { kind: "silence", seconds: 0.2 },
  { kind: "vowel", vowel: "AA", seconds: 0.25 },
  { kind: "plosive" },
  { kind: "vowel", vowel: "OO", seconds: 0.2 },
  { kind: "fricative", seconds: 0.1 },
  { kind: "vowel", vowel: "EE", seconds: 0.25 },
  { kind: "silence", seconds: 0.2 },
];

const BASE: RenderSettings = SMALL_SQUARE;

/** The fixture renders: the default crop, and a contained portrait on a colour with a lead-in. */
const CASES: Record<string, Partial<RenderSettings>> = {
  "crop-256": {},
  "contain-320x240-colour-lead": {
    width: 320,
    height: 240,
    fit: "contain",
    backgroundColor: "#2a6f97",
    leadInSeconds: 0.2,
  },
};

let dir: string;
let avatar: TestAvatar;
let audioPath: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "frame-hashes-"));
  avatar = await testAvatar("single-phone");
  audioPath = join(dir, "speech.wav");
  await encodeAudio(synthSpeech(SPEECH, 24_000), 24_000, audioPath, "wav");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("fixture renders, frame by frame", () => {
  const expected: Record<string, { frames: number; sha256: string }> = UPDATE
    ? {}
    : JSON.parse(readFileSync(HASHES, "utf8"));
  const seen: Record<string, { frames: number; sha256: string }> = {};

  for (const [name, settings] of Object.entries(CASES)) {
    it(`${name} matches its committed frame hashes`, async () => {
      const out = await renderVideo({
        portraitPng: avatar.portraitPng,
        rig: avatar.rig,
        audioPath,
        settings: { ...BASE, ...settings },
        workDir: mkdtempSync(join(dir, "job-")),
        seed: 1234,
        threads: 1,
      });
      seen[name] = await frameDigest(out.mp4Path);
      if (UPDATE) return;
      expect(seen[name]).toEqual(expected[name]);
    });
  }

  afterAll(() => {
    if (UPDATE) writeFileSync(HASHES, `${JSON.stringify(seen, null, 2)}\n`);
  });
});
