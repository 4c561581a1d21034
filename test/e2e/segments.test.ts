import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { VIDEO_DEFAULTS } from "@avatar-video/contract";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { renderVideo } from "../../container/src/video/public";
import { fixture } from "../fixtures/portraits/derive";
import { encodeAudio, speechLike, synthSpeech } from "../renderer/helpers/media-audio";
import { framePsnrs, seamCrops, streamInfo, streamMd5s } from "../renderer/helpers/video-compare";
import { BASE } from "./global-setup";
import { admin, api, createAccount, publish, type TestAccount, waitForJob } from "./helpers";

// A long render split across instances, over real HTTP (the e2e-scale project: three renderer processes, three
// instances, split renders from SPLIT_AFTER_SECONDS = 15 s). Its MP4 must be the one a single instance renders
// from the same input: the same frame count and duration, the same audio packets, every frame the same picture
// (no frame repeated or missing at a seam), and its segments must have run on the three renderer processes.
//
// `npm test` runs it on 45 s of speech (three segments of 15 s); SEGMENTS_E2E_SECONDS=360 runs the 6-minute
// check (three segments of 2 minutes) and SEGMENTS_E2E_OUT=<dir> keeps both MP4s and the seams' 2× crops
// (docs/operations.md, "Capacity").

const SECONDS = Number(process.env.SEGMENTS_E2E_SECONDS ?? 45);
const OUT = process.env.SEGMENTS_E2E_OUT;
const rendererUrls = inject("rendererUrls");
const SIZE = { width: 128, height: 128 };
/** Encoded apart, a part's frames differ from the single render's by x264's rounding only. */
const MIN_PSNR = 38;

let account: TestAccount;
let avatarId: string;
let audioPath: string;
let dir: string;

beforeAll(async () => {
  account = await createAccount(1);
  const res = await api(account, "/avatars", { imageUrl: publish("segments-avatar.jpg", fixture("single-camera")) });
  const job = (await waitForJob(account, `/avatar-jobs/${res.body.jobId}`)).job;
  expect(job.status).toBe("succeeded");
  avatarId = job.avatarId!;
  dir = OUT ?? mkdtempSync(join(tmpdir(), "e2e-segments-"));
  mkdirSync(dir, { recursive: true });
  audioPath = join(dir, "speech.wav");
  await encodeAudio(synthSpeech(speechLike(SECONDS, 3), 24_000), 24_000, audioPath, "wav");
}, 240_000);

/** An object of the stack's local R2 (wrangler's own reader over the stack's state directory). */
async function storedObject(key: string): Promise<Buffer> {
  const file = join(dir, key.replaceAll("/", "_"));
  const state = `.local/e2e-state-${BASE + 20}`;
  const args = ["r2", "object", "get", `avatar-video-media/${key}`, "--local", "--persist-to", state, "--file", file];
  await promisify(execFile)("node_modules/.bin/wrangler", args, {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  return readFile(file);
}

/** Runs (split render runs are `{jobId}/{idx}`) seen holding an instance, sampled while `until` is pending. */
async function sampleLeases(until: Promise<unknown>): Promise<Map<string, Set<number>>> {
  const seen = new Map<string, Set<number>>();
  let done = false;
  until.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    const pool = (await admin("/renderer-pool")) as { leases: { jobId: string; instance: number }[] };
    for (const l of pool.leases) seen.set(l.jobId, (seen.get(l.jobId) ?? new Set()).add(l.instance));
    await new Promise((r) => setTimeout(r, 500));
  }
  return seen;
}

describe("a long render split across three renderer instances", () => {
  it(
    "renders its segments on the three instances and joins them into the single render's MP4",
    async () => {
      expect(rendererUrls).toHaveLength(3);
      const audioUrl = publish("segments-speech.wav", await readFile(audioPath));
      const started = Date.now();
      const res = await api(account, "/videos", { avatarId, audioUrl, video: SIZE });
      expect(res.status).toBe(200);
      const jobId = res.body.jobId;
      const finished = waitForJob(account, `/video-jobs/${jobId}`, SECONDS * 20_000);
      const leases = await sampleLeases(finished);
      const { job, videoUrl } = await finished;
      const wallSeconds = (Date.now() - started) / 1000;
      expect(job.status, JSON.stringify(job.error)).toBe("succeeded");

      // Three segments, each on an instance of its own: the three renderer processes (instance i → renderer i).
      const segments = [0, 1, 2].map((k) => [...(leases.get(`${jobId}/${k}`) ?? [])]);
      expect(segments.every((instances) => instances.length === 1)).toBe(true);
      expect(new Set(segments.flat())).toEqual(new Set([0, 1, 2]));

      const split = join(dir, "split.mp4");
      writeFileSync(split, Buffer.from(await (await fetch(videoUrl!)).arrayBuffer()));
      const [portraitPng, rig] = await Promise.all(
        ["portrait.png", "rig.json"].map((f) => storedObject(`avatars/${avatarId}/${f}`)),
      );
      const single = await renderVideo({
        portraitPng,
        rig: JSON.parse(rig.toString("utf8")),
        audioPath,
        settings: { ...VIDEO_DEFAULTS, ...SIZE },
        workDir: mkdtempSync(join(dir, "single-")),
      });
      const frames = single.timeline.frames;
      const seams = [1, 2].map((k) => Math.round((frames * k) / 3));

      const [a, b] = await Promise.all([streamInfo(single.mp4Path), streamInfo(split)]);
      expect(b.streams.map((s) => [s.codec_type, s.nb_frames, s.start_time])).toEqual(
        a.streams.map((s) => [s.codec_type, s.nb_frames, s.start_time]),
      );
      expect(Number(b.streams.find((s) => s.codec_type === "video")?.nb_frames)).toBe(frames);
      expect(Number(b.format.duration)).toBeCloseTo(Number(a.format.duration), 3);
      // The one audio track, encoded once over the whole timeline: packet for packet the single render's.
      expect(await streamMd5s(split, "a")).toEqual(await streamMd5s(single.mp4Path, "a"));
      // Every frame is the single render's picture at the same index (a repeated or missing frame would shift
      // the ones after it). The first segment's frames are bit for bit the same but for its last second, which
      // x264 encodes knowing the segment ends there (its lookahead sees no frames beyond).
      const psnr = await framePsnrs(single.mp4Path, split);
      const [md5Single, md5Split] = await Promise.all([streamMd5s(single.mp4Path, "v"), streamMd5s(split, "v")]);
      const firstDifferent = md5Split.findIndex((m, i) => m !== md5Single[i]);
      const identical = firstDifferent < 0 ? frames : firstDifferent;
      const atSeams = seams.flatMap((s) => [psnr[s - 1], psnr[s]]);
      console.log(
        `split render of ${SECONDS} s (${frames} frames) on 3 instances: ${wallSeconds.toFixed(0)} s wall ` +
          `(single render in this process: ${(single.timings.total / 1000).toFixed(0)} s); min PSNR ` +
          `${Math.min(...psnr).toFixed(1)} dB, either side of the seams ${atSeams.map((p) => p.toFixed(1)).join(" / ")} dB; ` +
          `frames 0–${identical - 1} bit-identical (first seam at ${seams[0]})`,
      );
      if (OUT) for (const seam of seams) await seamCrops(split, single.mp4Path, seam, join(dir, `seam-${seam}.png`));
      expect(psnr).toHaveLength(frames);
      expect(Math.min(...psnr)).toBeGreaterThan(MIN_PSNR);
      expect(identical).toBeGreaterThanOrEqual(seams[0] - 25);
    },
    120_000 + SECONDS * 25_000,
  );
});
