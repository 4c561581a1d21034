import { mkdtempSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeFaces } from "../../container/src/analysis/public";
import { fixture } from "../fixtures/portraits/derive";
import {
  type AudioFormat,
  encodeAudio,
  extractFramesRgb,
  ffprobeJson,
  type Probe,
  type Segment,
  synthSpeech,
} from "../renderer/helpers/media-audio";
import { admin, api, control, createAccount, mediaUrl, publish, type TestAccount, waitForJob } from "./helpers";

// Video rendering over real HTTP: POST /videos → queue → renderer → R2 → signed link, watched by a face model.

const FPS = 25; // docs/rendering.md
const OPENING = 0.5;
const CLOSING = 0.5;
const RATE = 24_000;
// Speech with known silences: the mouth must rest in them and open in the loud open vowel.
const SCRIPT: Segment[] = [
  { kind: "silence", seconds: 1.0 },
  { kind: "vowel", vowel: "AA", seconds: 0.7, level: -8 },
  { kind: "silence", seconds: 1.0 },
  { kind: "plosive", closure: 0.06 },
  { kind: "vowel", vowel: "OO", seconds: 0.4, level: -10 },
  { kind: "vowel", vowel: "EE", seconds: 0.4, level: -10 },
  { kind: "silence", seconds: 0.6 },
];
const AUDIO_SECONDS = 1.0 + 0.7 + 1.0 + 0.1 + 0.4 + 0.4 + 0.6;
const work = mkdtempSync(join(tmpdir(), "e2e-video-"));

let account: TestAccount;
let avatarId: string;
const audio: Partial<Record<AudioFormat, string>> = {};

async function speechFile(format: AudioFormat) {
  const path = join(work, `speech.${format}`);
  await encodeAudio(synthSpeech(SCRIPT, RATE), RATE, path, format);
  return readFile(path);
}

async function renderJob(body: Record<string, unknown>, who = account) {
  const res = await api(who, "/videos", { avatarId, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return waitForJob(who, `/video-jobs/${res.body.jobId}`);
}

async function download(url: string) {
  const res = await fetch(url); // no App headers: the link alone authorises the download
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("video/mp4");
  const path = join(work, `${crypto.randomUUID()}.mp4`);
  await writeFile(path, Buffer.from(await res.arrayBuffer()));
  return path;
}

/** Inner-lip gap (landmarks 13–14) relative to the eye-corner distance, seen by the face model. */
async function mouthOpening(frame: Buffer, size: number) {
  const faces = await analyzeFaces({ data: frame, width: size, height: size });
  expect(faces.length).toBeGreaterThan(0);
  const m = faces[0].mesh;
  return Math.hypot(m[13][0] - m[14][0], m[13][1] - m[14][1]) / Math.hypot(m[33][0] - m[263][0], m[33][1] - m[263][1]);
}

beforeAll(async () => {
  account = await createAccount(2);
  const res = await api(account, "/avatars", { imageUrl: publish("video-avatar.jpg", fixture("single-camera")) });
  const job = (await waitForJob(account, `/avatar-jobs/${res.body.jobId}`)).job;
  expect(job.status).toBe("succeeded");
  avatarId = job.avatarId!;
  for (const format of ["mp3", "wav", "m4a", "ogg"] as const)
    audio[format] = publish(`speech-${format}.${format}`, await speechFile(format));
});

describe("video rendering pipeline", () => {
  it.each(["mp3", "wav", "m4a", "ogg"] as const)(
    "renders %s speech into an H.264/AAC MP4 of the documented length",
    async (format) => {
      const detail = await renderJob({
        audioUrl: audio[format],
        video: { width: 320, height: 240, leadInSeconds: 0.4, leadOutSeconds: 0.3 },
      });
      expect(detail.job.status, JSON.stringify(detail.job)).toBe("succeeded");
      expect(detail.job.progress).toEqual({ stage: "completed" });
      expect(Date.parse(detail.videoUrlExpiresAt!) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
      const probe: Probe = await ffprobeJson(await download(detail.videoUrl!));
      const v = probe.streams.find((s) => s.codec_type === "video")!;
      const a = probe.streams.find((s) => s.codec_type === "audio")!;
      expect([v.codec_name, v.pix_fmt, v.width, v.height, v.r_frame_rate, v.avg_frame_rate]).toEqual([
        "h264",
        "yuv420p",
        320,
        240,
        "25/1",
        "25/1",
      ]);
      expect(a.codec_name).toBe("aac");
      const expected = Math.round((0.4 + OPENING + AUDIO_SECONDS + CLOSING + 0.3) * FPS) / FPS;
      expect(Math.abs(Number(v.duration) - expected)).toBeLessThanOrEqual(1 / FPS + 1e-6);
      expect(Math.abs(Number(a.duration) - expected)).toBeLessThanOrEqual(2 / FPS);
      expect(Math.abs(Number(a.start_time) - Number(v.start_time))).toBeLessThanOrEqual(1 / FPS);
    },
  );

  it("opens the mouth for the loud vowel and keeps it at rest in silence", async () => {
    const size = 512;
    const detail = await renderJob({ audioUrl: audio.wav, video: { width: size, height: size } });
    expect(detail.job.status).toBe("succeeded");
    const mp4 = await download(detail.videoUrl!);
    const at = (seconds: number) => Math.round((OPENING + seconds) * FPS); // speech starts after the opening
    const frames = { rest: at(0.5), vowel: at(1.35), pause: at(2.2) };
    const [rest, vowel, pause] = await extractFramesRgb(mp4, size, size, [frames.rest, frames.vowel, frames.pause]);
    const open = {
      rest: await mouthOpening(rest, size),
      vowel: await mouthOpening(vowel, size),
      pause: await mouthOpening(pause, size),
    };
    expect(open.vowel, JSON.stringify(open)).toBeGreaterThan(open.rest + 0.08);
    expect(Math.abs(open.pause - open.rest), JSON.stringify(open)).toBeLessThan(0.03);
  });

  it("refuses a tampered link and serves the original without App headers", async () => {
    const detail = await renderJob({ audioUrl: audio.mp3, video: { width: 128, height: 128 } });
    const url = new URL(detail.videoUrl!);
    const sig = url.searchParams.get("sig") ?? url.searchParams.get("X-Amz-Signature") ?? "";
    const tampered = detail.videoUrl!.replace(sig, sig.slice(0, -2) + (sig.endsWith("AA") ? "BB" : "AA"));
    expect((await fetch(tampered)).status).toBeGreaterThanOrEqual(400);
    const later = new URL(detail.videoUrl!);
    later.searchParams.set("exp", String(Number(later.searchParams.get("exp")) + 3600));
    expect((await fetch(later)).status).toBeGreaterThanOrEqual(400); // extending the expiry breaks the signature
    expect((await fetch(detail.videoUrl!)).status).toBe(200);
  });

  const failures: [string, () => Promise<Record<string, unknown>>, string][] = [
    [
      "application/octet-stream",
      async () => ({ audioUrl: `${audio.mp3}?type=application/octet-stream` }),
      "unsupported_media_type",
    ],
    [
      "raw PCM",
      async () => ({ audioUrl: publish("raw.pcm", Buffer.alloc(48_000), "audio/L16") }),
      "unsupported_media_type",
    ],
    ["an empty file", async () => ({ audioUrl: publish("empty.mp3", Buffer.alloc(0)) }), "empty_media"],
    [
      "a declared size over 500 MiB",
      async () => ({ audioUrl: `${mediaUrl}/declare/${600 * 1024 * 1024}` }),
      "media_too_large",
    ],
    ["a 404", async () => ({ audioUrl: `${mediaUrl}/status/404` }), "source_unavailable"],
    [
      "a redirect to a private address",
      async () => ({ audioUrl: `${mediaUrl}/redirect?to=${encodeURIComponent("http://10.0.0.1/a.mp3")}` }),
      "source_unavailable",
    ],
    [
      "bytes that are not audio",
      async () => ({ audioUrl: publish("noise.mp3", Buffer.from("this is not an mp3 at all".repeat(400))) }),
      "unsupported_media_type",
    ],
    [
      "a background of the wrong type",
      async () => ({
        audioUrl: audio.mp3,
        backgroundUrl: publish("bg.gif", await sharp(fixture("no-face-stairs")).gif().toBuffer()),
      }),
      "unsupported_media_type",
    ],
  ];

  it.each(failures)("fails %s with the spec's code", async (_label, body, code) => {
    const detail = await renderJob({ ...(await body()), video: { width: 128, height: 128 } });
    expect(detail.job.status).toBe("failed");
    expect(detail.job.error!.code).toBe(code);
    expect(typeof detail.job.error!.retryable).toBe("boolean");
    expect(detail.videoUrl).toBeUndefined();
  });

  it("fails with app_access_revoked when the creating App is revoked before rendering", async () => {
    const other = await createAccount(0);
    await admin(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds: [other.accountId] } });
    const res = await api(other, "/videos", { avatarId, audioUrl: audio.mp3, video: { width: 128, height: 128 } });
    expect(res.status).toBe(200);
    await admin(`/apps/${other.appId}`, { method: "DELETE" });
    const { app, apiKey } = await admin(`/accounts/${other.accountId}/apps`, { body: {} });
    const reader = { ...other, headers: { "X-App-ID": app.id, "X-API-Key": apiKey } };
    const detail = await waitForJob(reader, `/video-jobs/${res.body.jobId}`);
    expect(detail.job.status).toBe("failed");
    expect(detail.job.error!.code).toBe("app_access_revoked");
  });

  it("fails with avatar_forbidden when the Avatar is no longer allowed", async () => {
    const other = await createAccount(0);
    await admin(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds: [other.accountId] } });
    const res = await api(other, "/videos", { avatarId, audioUrl: audio.mp3, video: { width: 128, height: 128 } });
    expect(res.status).toBe(200);
    await admin(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds: [] } });
    const detail = await waitForJob(other, `/video-jobs/${res.body.jobId}`);
    expect(detail.job.status).toBe("failed");
    expect(detail.job.error!.code).toBe("avatar_forbidden");
  });

  it("finishes the job when the renderer is killed mid-render", async () => {
    const long = publish("long.wav", await speechFile("wav"));
    const res = await api(account, "/videos", {
      avatarId,
      audioUrl: long,
      video: { width: 1024, height: 1024, leadOutSeconds: 40 },
    });
    // Wait until the renderer is drawing frames, then kill it (SIGKILL) and start a fresh one.
    for (let stage = ""; !["rendering", "encoding"].includes(stage); ) {
      await new Promise((r) => setTimeout(r, 100));
      const { body } = await api(account, `/video-jobs/${res.body.jobId}`);
      expect(body.job.status).not.toBe("succeeded");
      stage = body.job.progress.stage;
    }
    await control("restart-renderer");
    const detail = await waitForJob(account, `/video-jobs/${res.body.jobId}`, 170_000);
    expect(detail.job.status).toBe("succeeded");
    expect((await fetch(detail.videoUrl!)).status).toBe(200);
  });
});
