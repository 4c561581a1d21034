import { env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import { expect } from "vitest";
import { avatarGrants, avatarJobs, avatars, videoJobs } from "../../../workers/platform/db/schema";
import { normalizeVideoSettings } from "../../../workers/api/schemas/video-settings";

/** Test data written straight into D1 (jobs in any state, Avatars from the "console"). */
export const db = () => drizzle(env.DB);

export async function insertAvatar(
  accountId: string,
  o: { isPublic?: boolean; backgroundKey?: string | null; createdAt?: number; name?: string; id?: string } = {},
) {
  const id = o.id ?? crypto.randomUUID();
  const at = new Date(o.createdAt ?? Date.now());
  await db()
    .insert(avatars)
    .values({
      id,
      accountId,
      name: o.name ?? "Test Avatar",
      origin: "console",
      isPublic: o.isPublic ?? false,
      portraitKey: `avatars/${id}/portrait.png`,
      rigKey: `avatars/${id}/rig.json`,
      coverKey: `avatars/${id}/cover.jpg`,
      backgroundKey: o.backgroundKey ?? null,
      createdAt: at,
      updatedAt: at,
    });
  return id;
}

export async function grantAvatar(avatarId: string, accountId: string) {
  await db().insert(avatarGrants).values({ avatarId, accountId });
}

type VideoRow = typeof videoJobs.$inferInsert;
type AvatarJobRow = typeof avatarJobs.$inferInsert;

/** A video job row in any state; enqueuedAt is set so neither queue nor sweep picks it up during a test. */
export async function insertVideoJob(accountId: string, avatarId: string, o: Partial<VideoRow> = {}) {
  const id = o.id ?? crypto.randomUUID();
  const createdAt = o.createdAt ?? new Date();
  await db()
    .insert(videoJobs)
    .values({
      id,
      accountId,
      appId: crypto.randomUUID(),
      name: `Video ${id.slice(0, 8)}`,
      status: "queued",
      stage: "queued",
      avatarId,
      fingerprint: "f".repeat(64),
      audioUrl: "https://media.example.com/secret-audio.mp3?X-Amz-Signature=abc",
      backgroundUrl: null,
      settings: normalizeVideoSettings(undefined),
      enqueuedAt: createdAt,
      createdAt,
      updatedAt: createdAt,
      expiresAt: new Date(createdAt.getTime() + 7 * 86_400_000),
      ...o,
    });
  return id;
}

export async function insertAvatarJob(accountId: string, o: Partial<AvatarJobRow> = {}) {
  const id = o.id ?? crypto.randomUUID();
  const createdAt = o.createdAt ?? new Date();
  await db()
    .insert(avatarJobs)
    .values({
      id,
      accountId,
      appId: crypto.randomUUID(),
      name: `Avatar ${id.slice(0, 8)}`,
      status: "queued",
      imageUrl: "https://media.example.com/secret-image.jpg",
      unitState: "reserved",
      enqueuedAt: createdAt,
      createdAt,
      updatedAt: createdAt,
      ...o,
    });
  return id;
}

export interface Envelope {
  error: { code: string; message: string; requestId: string };
}

/** Asserts the error envelope, status and code; X-Request-ID must equal error.requestId. Returns the message. */
export async function expectError(
  res: Response,
  status: number,
  code: string,
  message?: string | RegExp,
): Promise<string> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text) as Envelope;
  expect(body.error.code).toBe(code);
  expect(body.error.requestId).toBeTruthy();
  expect(res.headers.get("X-Request-ID")).toBe(body.error.requestId);
  if (typeof message === "string") expect(body.error.message).toContain(message);
  else if (message) expect(body.error.message).toMatch(message);
  return body.error.message;
}

/** The JSON body of a response with `status`: a JSON object unless the caller names its shape. */
export async function json<T = Record<string, unknown>>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

export const PUBLIC_AUDIO = "https://media.example.com/voice.mp3";
export const PUBLIC_IMAGE = "https://media.example.com/face.jpg";
