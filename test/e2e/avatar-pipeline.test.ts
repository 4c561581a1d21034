import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { fixture, rgbaPng, withShortSide } from "../fixtures/portraits/derive";
import {
  admin,
  api,
  control,
  createAccount,
  errorOf,
  mediaUrl,
  publish,
  type TestAccount,
  waitForJob,
} from "./helpers";

// Avatar creation over real HTTP: POST /avatars → queue → renderer (real face models) → D1/R2 → reads.

async function createAvatarJob(account: TestAccount, imageUrl: string) {
  const res = await api(account, "/avatars", { imageUrl });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe("queued");
  return res.body.jobId as string;
}

async function runAvatarJob(account: TestAccount, imageUrl: string) {
  return (await waitForJob(account, `/avatar-jobs/${await createAvatarJob(account, imageUrl)}`)).job;
}

async function units(account: TestAccount) {
  const { account: a } = await admin(`/accounts/${account.accountId}`);
  return { total: a.avatarUnits as number, reserved: a.reservedAvatarUnits as number };
}

describe("Avatar creation pipeline", () => {
  it("turns a one-face portrait into an Avatar with a cover that decodes, capturing exactly one unit", async () => {
    const account = await createAccount(3);
    const job = await runAvatarJob(account, publish("single-camera.jpg", fixture("single-camera")));
    expect(job.status).toBe("succeeded");
    expect(job.avatarId).toMatch(/^[0-9a-f-]{36}$/);
    expect(job.completedAt).toBeTruthy();
    expect(job.error).toBeUndefined();
    expect(await units(account)).toEqual({ total: 2, reserved: 0 });

    const { status, body } = await api(account, `/avatars/${job.avatarId}`);
    expect(status).toBe(200);
    expect(body.avatar.name).toBe(job.name);
    expect(body.avatar.backgroundImageUrl).toBeUndefined();
    // The cover opens without App headers and is a real image.
    const cover = await fetch(body.avatar.coverUrl);
    expect(cover.status).toBe(200);
    const meta = await sharp(Buffer.from(await cover.arrayBuffer())).metadata();
    expect(meta.width).toBeGreaterThan(100);
    const list = await api(account, "/avatars");
    expect(list.body.avatars.map((a: { id: string }) => a.id)).toEqual([job.avatarId]);
    // Another account never sees it.
    const other = await createAccount(1);
    expect((await api(other, `/avatars/${job.avatarId}`)).status).toBe(404);
  });

  const rejected: [string, () => Promise<string>, string][] = [
    ["a group photo", async () => publish("group.jpg", fixture("group-four")), "image_quality_rejected"],
    ["an image without a face", async () => publish("noface.jpg", fixture("no-face-stairs")), "image_quality_rejected"],
    [
      "a PNG with transparency",
      async () => publish("alpha.png", await rgbaPng(fixture("single-camera"), 0, 5000)),
      "invalid_image",
    ],
    [
      "a 339 px shorter side",
      async () => publish("small.jpg", await withShortSide(fixture("single-camera"), 339)),
      "invalid_image",
    ],
    [
      "5 MiB + 1 byte",
      async () => {
        const jpeg = fixture("single-camera");
        // A real JPEG padded after its end marker: decoders ignore the tail, the size rule must not.
        return publish("big.jpg", Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024 + 1 - jpeg.length)]));
      },
      "invalid_image",
    ],
    [
      "a GIF renamed .jpg",
      async () => publish("fake.jpg", await sharp(fixture("single-camera")).gif().toBuffer(), "image/jpeg"),
      "invalid_image",
    ],
    ["a 404", async () => `${mediaUrl}/files/missing.jpg`, "source_download_failed"],
    [
      "a server that waits 4 s",
      async () => `${mediaUrl}/slow/4000/${publish("slow.jpg", fixture("single-camera")).split("/").pop()}`,
      "source_download_failed",
    ],
    // To the renderer's own loopback port (the local stack allowlists only the media server and the Worker's
    // own address, for console uploads: docs/console.md).
    [
      "a redirect to 127.0.0.1",
      async () =>
        `${mediaUrl}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${Number(new URL(mediaUrl).port) + 2}/health`)}`,
      "source_download_failed",
    ],
    [
      "a redirect to 169.254.169.254",
      async () => `${mediaUrl}/redirect?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`,
      "source_download_failed",
    ],
  ];

  it.each(rejected)("fails %s with the spec's code and releases the unit", async (_label, source, code) => {
    const account = await createAccount(1);
    const job = await runAvatarJob(account, await source());
    expect(job.status).toBe("failed");
    expect(job.error!.code).toBe(code);
    expect(job.error!.message.length).toBeGreaterThan(10);
    expect(typeof job.error!.retryable).toBe("boolean");
    expect(job.avatarId).toBeUndefined();
    expect(await units(account)).toEqual({ total: 1, reserved: 0 });
  });

  it("reserves the unit while the job runs and refuses a second job when none is free (402)", async () => {
    const account = await createAccount(1);
    const jobId = await createAvatarJob(account, publish("single-phone.jpg", fixture("single-phone")));
    const second = await api(account, "/avatars", { imageUrl: publish("single-phone.jpg", fixture("single-phone")) });
    expect(second.status).toBe(402);
    expect(errorOf(second).code).toBe("insufficient_avatar_units");
    const job = (await waitForJob(account, `/avatar-jobs/${jobId}`)).job;
    expect(job.status).toBe("succeeded");
    expect(await units(account)).toEqual({ total: 0, reserved: 0 });
  });

  it("still ends correctly when the renderer is killed during the job", async () => {
    const account = await createAccount(2);
    // A slow source keeps the job inside the renderer while we kill it.
    const url = `${mediaUrl}/slow/1500/${publish("kill.jpg", fixture("single-camera")).split("/").pop()}`;
    const jobId = await createAvatarJob(account, url);
    await new Promise((r) => setTimeout(r, 700));
    await control("restart-renderer");
    const job = (await waitForJob(account, `/avatar-jobs/${jobId}`, 170_000)).job;
    expect(job.status).toBe("succeeded");
    expect(await units(account)).toEqual({ total: 1, reserved: 0 });
    const list = await api(account, "/avatars");
    expect(list.body.avatars).toHaveLength(1); // a re-run never creates a second Avatar
  });
});
