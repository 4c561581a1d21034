/**
 * Failed jobs say why: the renderer's reason and detail are stored (migration 0002) and served as
 * error.reason / error.detail next to the spec's code, message and retryable; anything unsafe or
 * inconsistent is replaced by the code's general reason and a summary, never passed through.
 */
import { describe, expect, it } from "vitest";
import { AVATAR_REASONS } from "@avatar-video/contract";
import { createAccount, openFetch } from "../helpers/accounts";
import { json } from "../helpers/open-fixtures";
import { createAvatarJob, createVideoJob, insertAvatar, postEvent, startRun } from "../helpers/pipeline";

const SMALL = "The face is 58 px wide; at least 64 px is needed. Use a closer or larger photo.";

async function failAvatar(error: Record<string, unknown>) {
  const acct = await createAccount({ avatarUnits: 5 });
  const jobId = await createAvatarJob(acct);
  await startRun("avatar", jobId, 5);
  const res = await postEvent("avatar", jobId, 5, { type: "failed", error });
  expect(res.status).toBe(200);
  const { job } = await json<{ job: { status: string; error: Record<string, unknown> } }>(
    await openFetch(`/avatar-jobs/${jobId}`, { headers: acct.headers }),
  );
  expect(job.status).toBe("failed");
  return job.error;
}

describe("Avatar job errors", () => {
  it("keep the spec's code, message and retryable and add the renderer's reason and detail", async () => {
    const error = await failAvatar({
      code: "image_quality_rejected",
      message: "ignored",
      retryable: false,
      reason: "face_too_small",
      detail: SMALL,
    });
    expect(error).toEqual({
      code: "image_quality_rejected",
      message: "The source image did not pass Avatar image requirements.",
      retryable: false,
      reason: "face_too_small",
      detail: SMALL,
    });
  });

  it("a reason of another code, or an unknown one, becomes the code's general reason with its summary", async () => {
    const wrong = await failAvatar({
      code: "invalid_image",
      retryable: false,
      reason: "face_blurred",
      detail: "The face is blurred.",
    });
    expect(wrong).toMatchObject({
      code: "invalid_image",
      reason: "image_unreadable",
      detail: AVATAR_REASONS.image_unreadable.summary,
    });
    const unknown = await failAvatar({ code: "image_quality_rejected", reason: "bad_vibes", detail: "x" });
    expect(unknown).toMatchObject({ reason: "no_face", detail: AVATAR_REASONS.no_face.summary });
  });

  it("a detail with a URL, a line break or over 300 characters is not shown", async () => {
    for (const detail of ["See https://internal.example/log", "line\nbreak", "x".repeat(301)]) {
      const error = await failAvatar({ code: "image_quality_rejected", reason: "face_blurred", detail });
      expect(error).toMatchObject({ reason: "face_blurred", detail: AVATAR_REASONS.face_blurred.summary });
    }
  });

  it("an unknown code is internal_error with reason internal", async () => {
    expect(await failAvatar({ code: "gpu_on_fire", reason: "face_too_small", detail: SMALL })).toMatchObject({
      code: "internal_error",
      reason: "internal",
      detail: AVATAR_REASONS.internal.summary,
    });
  });
});

describe("video job errors", () => {
  it("carry a detail: the renderer's when safe, else the message; no reason", async () => {
    const acct = await createAccount({ videoAccess: true });
    const avatarId = await insertAvatar(acct.accountId);
    const read = async (jobId: string) =>
      (
        await json<{ job: { error: Record<string, unknown> } }>(
          await openFetch(`/video-jobs/${jobId}`, { headers: acct.headers }),
        )
      ).job.error;

    const a = await createVideoJob(acct, avatarId);
    await startRun("video", a, 5);
    await postEvent("video", a, 5, {
      type: "failed",
      error: {
        code: "media_too_large",
        message: "The audio is larger than the 500 MiB limit.",
        retryable: false,
        detail: "The audio is 600 MiB; at most 500 MiB is accepted.",
      },
    });
    expect(await read(a)).toEqual({
      code: "media_too_large",
      message: "The audio is larger than the 500 MiB limit.",
      retryable: false,
      detail: "The audio is 600 MiB; at most 500 MiB is accepted.",
    });

    const b = await createVideoJob(acct, avatarId);
    await startRun("video", b, 5);
    await postEvent("video", b, 5, {
      type: "failed",
      error: { code: "source_unavailable", message: "The audio source answered HTTP 404.", retryable: false },
    });
    expect(await read(b)).toMatchObject({ code: "source_unavailable", detail: "The audio source answered HTTP 404." });
    expect(await read(b)).not.toHaveProperty("reason");
  });
});
