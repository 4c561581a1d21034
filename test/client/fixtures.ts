import { AvatarVideo } from "../../client/src/index.js";
import type { ClientOptions } from "../../client/src/index.js";

export const JOB_ID = "3f0f3c1e-8a4b-4c55-9d6c-2f1a7e5b9c01";
export const AVATAR_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
export const API_KEY = "av_test_key_0123456789abcdef";

/** An SDK client of the scripted server, with its retries and timeouts as the test says. */
export const sdk = (baseUrl: string, options: Partial<ClientOptions> = {}) =>
  new AvatarVideo({ baseUrl, appId: "app-1", apiKey: API_KEY, ...options });

const stamp = { createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };

export const avatar = (id = AVATAR_ID) => ({ id, name: "Ada", coverUrl: `http://media.local/${id}.jpg`, ...stamp });

export const avatarJob = (status: string, extra: Record<string, unknown> = {}) => ({
  job: { id: JOB_ID, status, name: "Ada", ...stamp, ...extra },
});

export const videoJob = (status: string, stage: string, extra: Record<string, unknown> = {}) => ({
  job: {
    id: JOB_ID,
    status,
    avatarId: AVATAR_ID,
    name: "hello",
    progress: { stage },
    ...stamp,
    expiresAt: "2026-01-08T00:00:00.000Z",
  },
  ...extra,
});

export const page = (key: string, items: unknown[], nextPageToken = "") => ({
  [key]: items,
  pagination: { nextPageToken, totalCount: items.length },
});
