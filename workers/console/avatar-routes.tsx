import { and, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import type { Context } from "hono";
import { avatars } from "../platform/db/schema";
import { publicBaseUrl } from "../platform/http/base-url";
import { ApiError } from "../platform/http/errors";
import { admissionError, limiterFor, MAX_UPLOAD_BYTES_PER_DAY } from "../accounts/public";
import { avatarBackgroundUrl, avatarCoverUrl, avatarMediaUrl } from "../platform/storage/links";
import { avatarKeys } from "../platform/storage/keys";
import { avatarCreationBlock } from "./access";
import { asAppContext, type ConsoleEnv, pageChrome } from "./context";
import { imageInfo, isSixteenByNine } from "./image-info";
import { errorFlash, field, noticeFrom } from "./notices";
import { AvatarPage } from "./pages/avatar";
import { AvatarsPage } from "./pages/avatars";
import type { Flash } from "./pages/layout";
import { checkUploadedPortrait, precheckPortrait } from "./portrait-check";
import { avatarJobPage } from "./job-pages";
import { listAvatars, ownAvatar } from "./queries";
import { retireBackground } from "./upload-retention";
import { discardUpload, MiB, storeWhole, uploadSourceUrl } from "./uploads";
import { createAvatarJob } from "../api/public";

const MAX_BACKGROUND_BYTES = 20 * MiB;

async function renderAvatars(
  c: Context<ConsoleEnv>,
  flash: Flash | null,
  status: 200 | 400 | 403 | 422 | 429 | 402 = 200,
  name?: string,
) {
  const { account } = c.get("session");
  const [rows, { jobs, olderHref }] = await Promise.all([
    listAvatars(c.env, account.id),
    avatarJobPage(c.env, account.id, c.req.query()),
  ]);
  const base = publicBaseUrl(asAppContext(c));
  const preview = { accountId: account.id, use: "preview" } as const;
  return c.html(
    <AvatarsPage
      {...pageChrome(c)}
      flash={flash}
      block={avatarCreationBlock(account)}
      avatars={rows.map((avatar) => ({ avatar, coverUrl: avatarCoverUrl(c.env, base, avatar, preview) }))}
      jobs={jobs}
      olderHref={olderHref}
      name={name}
    />,
    status,
  );
}

async function renderAvatar(
  c: Context<ConsoleEnv>,
  avatarId: string,
  flash: Flash | null,
  status: 200 | 400 | 429 = 200,
) {
  const { account } = c.get("session");
  const avatar = await ownAvatar(c.env, account.id, avatarId);
  const base = publicBaseUrl(asAppContext(c));
  // Avatars made before mattes have none until their first video that needs one.
  const matteKey = avatarKeys(avatar.id).matte;
  const hasMatte = (await c.env.MEDIA.head(matteKey)) !== null;
  const preview = { accountId: account.id, use: "preview" } as const;
  return c.html(
    <AvatarPage
      {...pageChrome(c)}
      flash={flash}
      avatar={avatar}
      coverUrl={avatarCoverUrl(c.env, base, avatar, preview)}
      backgroundUrl={avatarBackgroundUrl(c.env, base, avatar, preview)}
      cutout={{
        portraitUrl: avatarMediaUrl(c.env, base, avatar.portraitKey, preview),
        ...(hasMatte ? { matteUrl: avatarMediaUrl(c.env, base, matteKey, preview) } : {}),
      }}
    />,
    status,
  );
}

const fileField = (body: Record<string, unknown>, name: string) =>
  body[name] instanceof File && (body[name] as File).size > 0 ? (body[name] as File) : null;

export const avatarRoutes = new Hono<ConsoleEnv>()
  .get("/avatars", (c) => renderAvatars(c, noticeFrom(c.req.query("notice"))))
  .post("/avatars", async (c) => {
    const { account, user } = c.get("session");
    const body = await c.req.parseBody();
    const name = field(body, "name").trim();
    const block = avatarCreationBlock(account);
    if (block) return renderAvatars(c, errorFlash(block), 403, name);
    if (name.length > 128) return renderAvatars(c, errorFlash("Name must be at most 128 characters"), 400, name);
    const file = fileField(body, "portrait");
    if (!file) return renderAvatars(c, errorFlash("Portrait photo is required: choose a JPEG or PNG file"), 400, name);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const check = await precheckPortrait(c.env, bytes);
    if (!check.ok) return renderAvatars(c, errorFlash(check.message), 422, name);
    // The renderer's check is metered like POST /avatar-checks before anything is stored or checked: the
    // per-minute window, the account's checks in flight, and a free Avatar Creation (else 402, no check).
    const limiter = limiterFor(c.env, account.id);
    const checkId = crypto.randomUUID();
    const admission = await limiter.admitAvatarCheck(checkId, account.limits.avatar, Date.now(), true);
    if (!admission.ok) {
      const err = admissionError(admission);
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return renderAvatars(c, errorFlash(err.message), err.status as 402, name);
    }
    const upload = await storeWhole(c.env, account.id, "portrait", bytes.buffer as ArrayBuffer, check.type, check.ext)
      .catch(async (err: unknown) => {
        await limiter.endAvatarCheck(checkId);
        throw err;
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError) return err;
        throw err;
      });
    if (upload instanceof ApiError) {
      // Over the account's daily upload volume: nothing stored, nothing checked.
      for (const [k, v] of Object.entries(upload.headers)) c.header(k, v);
      return renderAvatars(c, errorFlash(upload.message), upload.status as 429, name);
    }
    try {
      const imageUrl = await uploadSourceUrl(c.env, upload);
      const faces = await checkUploadedPortrait(c.env, imageUrl).finally(() => limiter.endAvatarCheck(checkId));
      if (!faces.ok) {
        await discardUpload(c.env, upload);
        return renderAvatars(c, errorFlash(faces.message), 422, name);
      }
      // The same creation path as POST /v1/open/avatars: limits, concurrency, one unit reserved, the queue.
      await createAvatarJob(c.env, { account, creator: { userId: user.id }, name: name || undefined, imageUrl });
    } catch (err) {
      await discardUpload(c.env, upload);
      if (err instanceof ApiError && [402, 403, 429].includes(err.status)) {
        for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
        return renderAvatars(c, errorFlash(err.message), err.status as 402, name);
      }
      throw err;
    }
    return c.redirect("/console/avatars?notice=avatar-created", 303);
  })
  .get("/avatars/:avatarId", (c) => renderAvatar(c, c.req.param("avatarId"), noticeFrom(c.req.query("notice"))))
  .post("/avatars/:avatarId/background", async (c) => {
    const { account } = c.get("session");
    const avatar = await ownAvatar(c.env, account.id, c.req.param("avatarId"));
    const file = fileField(await c.req.parseBody(), "background");
    const refuse = (text: string) => renderAvatar(c, avatar.id, errorFlash(text), 400);
    if (!file) return refuse("Background image is required: choose a 16:9 JPEG or PNG file");
    if (file.size > MAX_BACKGROUND_BYTES) return refuse("Background image must be at most 20 MiB");
    const bytes = new Uint8Array(await file.arrayBuffer());
    const info = imageInfo(bytes);
    if (!info) return refuse("Background image must be a JPEG or PNG file");
    if (!isSixteenByNine(info.width, info.height)) {
      return refuse(
        `Background image must be 16:9 (for example 1920×1080); this one is ${info.width}×${info.height}. Crop it to 16:9 and try again.`,
      );
    }
    // A new key per save: the image URL changes with the image, so no cache shows the old one.
    const key = `avatars/${avatar.id}/background-${crypto.randomUUID().slice(0, 8)}.${info.type === "image/png" ? "png" : "jpg"}`;
    const counted = await limiterFor(c.env, account.id).completeUploadBytes(
      key,
      bytes.byteLength,
      MAX_UPLOAD_BYTES_PER_DAY,
    );
    if (!counted.ok) {
      c.header("Retry-After", String(counted.retryAfterSeconds ?? 60));
      return renderAvatar(c, avatar.id, errorFlash(counted.message), 429);
    }
    await c.env.MEDIA.put(key, bytes, { httpMetadata: { contentType: info.type } });
    await drizzle(c.env.DB)
      .update(avatars)
      .set({ backgroundKey: key, updatedAt: new Date() })
      .where(and(eq(avatars.id, avatar.id), eq(avatars.accountId, account.id)));
    if (avatar.backgroundKey) await retireBackground(c.env, account.id, avatar.backgroundKey);
    return c.redirect(`/console/avatars/${avatar.id}?notice=background-saved`, 303);
  })
  .post("/avatars/:avatarId/background/remove", async (c) => {
    const { account } = c.get("session");
    const avatar = await ownAvatar(c.env, account.id, c.req.param("avatarId"));
    await drizzle(c.env.DB)
      .update(avatars)
      .set({ backgroundKey: null, updatedAt: new Date() })
      .where(and(eq(avatars.id, avatar.id), eq(avatars.accountId, account.id)));
    if (avatar.backgroundKey) await retireBackground(c.env, account.id, avatar.backgroundKey);
    return c.redirect(`/console/avatars/${avatar.id}?notice=background-removed`, 303);
  });
