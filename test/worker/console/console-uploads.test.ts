import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { avatarJobs, consoleUploads } from "../../../workers/platform/db/schema";
import { imageInfo, isSixteenByNine } from "../../../workers/console/image-info";
import { createAccount, getAccount, openFetch, patchAccount } from "../helpers/accounts";
import { signedIn } from "../helpers/console";
import { db, type Envelope, insertAvatar } from "../helpers/open-fixtures";

/** A PNG header (signature + IHDR): all the console's quick checks read. */
function pngHeader(width: number, height: number, colourType = 2) {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  b[24] = 8;
  b[25] = colourType;
  return b;
}
const file = (bytes: Uint8Array, name: string, type: string) => new File([bytes], name, { type });
const MiB = 1024 * 1024;

describe("image header checks", () => {
  it("reads PNG and JPEG sizes and judges 16:9", () => {
    expect(imageInfo(pngHeader(1920, 1080))).toMatchObject({
      type: "image/png",
      width: 1920,
      height: 1080,
      mayHaveAlpha: false,
    });
    expect(imageInfo(pngHeader(10, 10, 6))!.mayHaveAlpha).toBe(true);
    const jpeg = new Uint8Array([
      0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0x02, 0xd0, 0x05, 0x00, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(imageInfo(jpeg)).toMatchObject({ type: "image/jpeg", width: 1280, height: 720 });
    expect(imageInfo(new TextEncoder().encode("GIF89a......"))).toBeNull();
    expect(isSixteenByNine(1920, 1080)).toBe(true);
    expect(isSixteenByNine(1280, 721)).toBe(true);
    expect(isSixteenByNine(1000, 1000)).toBe(false);
  });
});

describe("console Avatar creation", () => {
  it("refuses a photo that breaks the image rules, with the reason, and makes no job", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const small = await client.fetch("/console/avatars", {
      form: { portrait: file(pngHeader(300, 800), "p.png", "image/png"), name: "x" },
    });
    expect(small.status).toBe(422);
    expect(await small.text()).toContain("image_too_small");
    const gif = await client.fetch("/console/avatars", {
      form: { portrait: file(new TextEncoder().encode("GIF89a-not-a-portrait"), "p.gif", "image/gif") },
    });
    expect(gif.status).toBe(422);
    expect(await gif.text()).toContain("unsupported_format");
    expect(await db().select().from(avatarJobs).where(eq(avatarJobs.accountId, a.accountId))).toHaveLength(0);
  });

  it("an accepted photo becomes a queued job on the shared path: one unit reserved, source handed over as a signed URL", async () => {
    const a = await createAccount({ avatarUnits: 1 });
    const { client } = await signedIn(a.accountId);
    const res = await client.fetch("/console/avatars", {
      form: { portrait: file(pngHeader(800, 800), "p.png", "image/png"), name: "Mine" },
    });
    expect(res.status).toBe(303);
    const [job] = await db().select().from(avatarJobs).where(eq(avatarJobs.accountId, a.accountId));
    expect(job).toMatchObject({ name: "Mine", unitState: "reserved" });
    expect(job!.appId).toBeNull();
    expect(job!.userId).toEqual(expect.any(String));
    expect((await getAccount(a.accountId)).reservedAvatarUnits).toBe(1);
    // The renderer's source URL serves the upload without any session; a tampered signature is refused.
    const url = new URL(job!.imageUrl);
    expect(url.pathname).toMatch(/^\/console\/files\/[0-9a-f-]{36}$/);
    const served = await client.fetch(url.pathname + url.search);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(
      (await client.fetch(`${url.pathname}?exp=${url.searchParams.get("exp")}&sig=${"A".repeat(43)}`)).status,
    ).toBe(403);
    // No unit left: the same 402 as the Open API, shown on the page.
    const again = await client.fetch("/console/avatars", {
      form: { portrait: file(pngHeader(800, 800), "p.png", "image/png") },
    });
    expect(again.status).toBe(402);
    expect(await again.text()).toMatch(/Avatar Creations/);
  });

  it("creation paused: the button is disabled with the reason, and a forged post is refused", async () => {
    const a = await createAccount();
    await patchAccount(a.accountId, { avatarCreationEnabled: false });
    const { client } = await signedIn(a.accountId);
    const { html } = await client.page("/console/avatars");
    expect(html).toContain("Avatar creation is unavailable: API Avatar creation is disabled");
    expect(html).toMatch(
      /<button type="submit" disabled="">Create Avatar<\/button>|<button type="submit" disabled>Create Avatar<\/button>/,
    );
    const res = await client.fetch("/console/avatars", {
      form: { portrait: file(pngHeader(800, 800), "p.png", "image/png") },
    });
    expect(res.status).toBe(403);
  });
});

describe("console backgrounds", () => {
  it("refuses a non-16:9 image with a clear message; a 16:9 one becomes backgroundImageUrl; remove clears it", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const avatarId = await insertAvatar(a.accountId);
    await client.page(`/console/avatars/${avatarId}`);
    const square = await client.fetch(`/console/avatars/${avatarId}/background`, {
      form: { background: file(pngHeader(1000, 1000), "b.png", "image/png") },
    });
    expect(square.status).toBe(400);
    expect(await square.text()).toContain(
      "Background image must be 16:9 (for example 1920×1080); this one is 1000×1000",
    );
    const ok = await client.fetch(`/console/avatars/${avatarId}/background`, {
      form: { background: file(pngHeader(1920, 1080), "b.png", "image/png") },
    });
    expect(ok.status).toBe(303);
    const read = async () =>
      (
        (await (await openFetch(`/avatars/${avatarId}`, { headers: a.headers })).json()) as {
          avatar: { backgroundImageUrl?: string };
        }
      ).avatar;
    const withBg = await read();
    expect(withBg.backgroundImageUrl).toMatch(
      /\/v1\/media\/avatars\/[0-9a-f-]{36}\/background-[0-9a-f]{8}\.png\?acct=[0-9a-f-]{36}&exp=\d+&sig=/,
    );
    expect((await client.fetch(`/console/avatars/${avatarId}/background/remove`, { form: {} })).status).toBe(303);
    expect((await read()).backgroundImageUrl).toBeUndefined();
  });
});

describe("console audio uploads in parts", () => {
  it("create → parts → complete; part sizes and the declared size are enforced", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const size = 8 * MiB + 1000;
    const created = await client.fetch("/console/api/uploads", { json: { contentType: "audio/wav", size } });
    expect(created.status).toBe(201);
    const up = (await created.json()) as { uploadId: string; partSize: number; parts: number };
    expect(up).toMatchObject({ partSize: 8 * MiB, parts: 2 });
    const short = await client.fetch(`/console/api/uploads/${up.uploadId}/parts/1`, {
      method: "PUT",
      body: new Uint8Array(100),
    });
    expect(short.status).toBe(400);
    expect(((await short.json()) as Envelope).error.message).toContain(`part 1 must be exactly ${8 * MiB} bytes`);
    const p1 = await (
      await client.fetch(`/console/api/uploads/${up.uploadId}/parts/1`, {
        method: "PUT",
        body: new Uint8Array(8 * MiB).fill(1),
      })
    ).json();
    const p2 = await (
      await client.fetch(`/console/api/uploads/${up.uploadId}/parts/2`, {
        method: "PUT",
        body: new Uint8Array(1000).fill(2),
      })
    ).json();
    expect(
      (await client.fetch(`/console/api/uploads/${up.uploadId}/parts/3`, { method: "PUT", body: new Uint8Array(10) }))
        .status,
    ).toBe(400);
    const done = await client.fetch(`/console/api/uploads/${up.uploadId}/complete`, { json: { parts: [p1, p2] } });
    expect(done.status).toBe(200);
    const row = await db().select().from(consoleUploads).where(eq(consoleUploads.id, up.uploadId)).get();
    expect(row!.completedAt).toBeInstanceOf(Date);
    expect((await env.MEDIA.head(row!.key))!.size).toBe(size);
  });

  it("refuses other types, empty files and more than 500 MiB, naming the rule", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    const bad = await client.fetch("/console/api/uploads", {
      json: { contentType: "application/octet-stream", size: 10 },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Envelope).error.message).toMatch(/^contentType must be one of audio\/mpeg/);
    const big = await client.fetch("/console/api/uploads", {
      json: { contentType: "audio/mpeg", size: 500 * MiB + 1 },
    });
    expect(big.status).toBe(400);
    expect(((await big.json()) as Envelope).error.message).toContain("size must be at most");
    expect((await client.fetch("/console/api/uploads", { json: { contentType: "audio/mpeg", size: 0 } })).status).toBe(
      400,
    );
  });

  it("another account cannot use or feed an upload", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const mine = await signedIn(a.accountId);
    const theirs = await signedIn(b.accountId);
    const up = (await (
      await mine.client.fetch("/console/api/uploads", { json: { contentType: "audio/wav", size: 10 } })
    ).json()) as { uploadId: string };
    expect(
      (
        await theirs.client.fetch(`/console/api/uploads/${up.uploadId}/parts/1`, {
          method: "PUT",
          body: new Uint8Array(10),
        })
      ).status,
    ).toBe(404);
    const avatarId = await insertAvatar(b.accountId);
    await theirs.client.page("/console/videos");
    const res = await theirs.client.fetch("/console/videos", {
      form: {
        avatarId,
        audioUploadId: up.uploadId,
        width: "1024",
        height: "1024",
        leadInSeconds: "0",
        leadOutSeconds: "0",
      },
    });
    expect(res.status).toBe(404);
  });
});
