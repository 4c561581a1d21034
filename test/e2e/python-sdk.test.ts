import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../fixtures/portraits/derive";
import { encodeAudio, ffprobeJson, synthSpeech } from "../renderer/helpers/media-audio";
import { baseUrl, createAccount, publish, type TestAccount } from "./helpers";

// The Python SDK (clients/python, run from source with PYTHONPATH) end to end against the e2e stack: one
// script makes an Avatar (and a refused one), renders a video, downloads it, meets an error and pages lists.
// It prints what it saw as JSON; the assertions are here.

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), "e2e-python-"));
let account: TestAccount;
let audioUrl = "";

const SCRIPT = `
import json, os, sys, urllib.request, uuid
from avatar_video import AvatarVideo, AvatarVideoError, VideoSettings

av = AvatarVideo()  # AVATAR_VIDEO_BASE_URL, _APP_ID and _API_KEY
good = av.avatars.create(image_url=os.environ["PORTRAIT_URL"], name="Ada Python")
refused = av.avatars.create(image_url=os.environ["NO_FACE_URL"])
avatar_job = av.wait_for_avatar(good.job_id, interval=0.5, timeout=150)
refused_job = av.wait_for_avatar(refused.job_id, interval=0.5, timeout=150)

created = av.videos.create(
    avatar_id=avatar_job.avatar_id, audio_url=os.environ["AUDIO_URL"], video=VideoSettings(width=320, height=240)
)
stages = []
detail = av.wait_for_video(created.job_id, interval=0.5, timeout=150, on_stage=stages.append)
with urllib.request.urlopen(detail.video_url) as answer, open(os.environ["MP4_PATH"], "wb") as out:
    out.write(answer.read())

try:
    av.videos.get(str(uuid.uuid4()))
    error = None
except AvatarVideoError as e:
    error = {"status": e.status, "code": e.code, "requestId": e.request_id, "retryable": e.retryable}

json.dump({
    "avatarJob": {"status": avatar_job.status, "avatarId": avatar_job.avatar_id},
    "refusedJob": {"status": refused_job.status, "code": refused_job.error.code, "reason": refused_job.error.reason},
    "video": {"jobId": created.job_id, "requestId": created.request_id, "status": detail.job.status,
              "stages": stages, "videoUrl": detail.video_url},
    "error": error,
    "avatarJobs": [j.id for j in av.avatar_jobs.list(page_size=1)],
    "avatars": [a.id for a in av.avatars.list(page_size=1)],
    "videos": [[v.id, v.avatar_id, v.status] for v in av.videos.list(statuses=["succeeded"], page_size=1)],
}, sys.stdout)
`;

beforeAll(async () => {
  account = await createAccount(2);
  const wav = join(work, "speech.wav");
  const speech = synthSpeech(
    [
      { kind: "vowel", vowel: "AA", seconds: 0.6, level: -10 },
      { kind: "silence", seconds: 0.4 },
    ],
    24_000,
  );
  await encodeAudio(speech, 24_000, wav, "wav");
  audioUrl = publish("python-speech.wav", readFileSync(wav));
});

describe("Python SDK against the local stack", () => {
  it("makes an Avatar, renders and downloads an MP4, raises errors with a request id, pages lists", async () => {
    const mp4 = join(work, "out.mp4");
    const { stdout } = await run("python3", ["-c", SCRIPT], {
      env: {
        PATH: process.env.PATH ?? "",
        PYTHONPATH: "clients/python/src",
        PYTHONDONTWRITEBYTECODE: "1",
        AVATAR_VIDEO_BASE_URL: baseUrl,
        AVATAR_VIDEO_APP_ID: account.appId,
        AVATAR_VIDEO_API_KEY: account.headers["X-API-Key"]!,
        PORTRAIT_URL: publish("python-portrait.jpg", fixture("single-camera")),
        NO_FACE_URL: publish("python-no-face.jpg", fixture("no-face-stairs")),
        AUDIO_URL: audioUrl,
        MP4_PATH: mp4,
      },
      timeout: 170_000,
    });
    const seen = JSON.parse(stdout);

    expect(seen.avatarJob.status).toBe("succeeded");
    const { avatarId } = seen.avatarJob;
    // A refused portrait ends the job as failed; wait_for_avatar returns it rather than raising.
    expect(seen.refusedJob).toEqual({ status: "failed", code: "image_quality_rejected", reason: "no_face" });

    expect(seen.video).toMatchObject({ status: "succeeded", requestId: expect.stringMatching(/^[\w-]{36}$/) });
    expect(seen.video.stages.at(-1)).toBe("completed");
    expect(seen.video.videoUrl).toMatch(/^https?:\/\/.+\.mp4\?/);
    const video = (await ffprobeJson(mp4)).streams.find((s) => s.codec_type === "video");
    expect([video?.codec_name, video?.width, video?.height]).toEqual(["h264", 320, 240]);

    expect(seen.error).toEqual({
      status: 404,
      code: "not_found",
      requestId: expect.stringMatching(/^[\w-]{8,}$/),
      retryable: false,
    });

    // page_size=1: the two Avatar jobs come from two pages, so the iterator followed next_page_token.
    expect(seen.avatarJobs).toHaveLength(2);
    expect(new Set(seen.avatarJobs).size).toBe(2);
    expect(seen.avatars).toEqual([avatarId]);
    expect(seen.videos).toEqual([[seen.video.jobId, avatarId, "succeeded"]]);
  });
});
