/**
 * Examples of the public API, one entry per operationId: what a caller sends and gets back, plus the SDK line
 * that does it. withExamples() puts them into the generated document (request and 200 examples, and
 * `x-codeSamples` with curl and the SDK, which the reference page shows). test/worker/openapi-examples.test.ts
 * parses every example with the route's own zod schema, so an example cannot drift from the contract.
 */

type Json = Record<string, unknown>;

export interface OperationExample {
  /** Path parameters and query string used in the curl sample. */
  path?: Record<string, string>;
  query?: string;
  request?: Json;
  response: unknown;
  /** The SDK statement (after `const av = new AvatarVideo({ baseUrl, appId, apiKey })`). */
  sdk: string;
}

const AVATAR_ID = "5b0f6c1e-8f4e-4c36-9d4a-2f1e7a0b9c11";
const AVATAR_JOB_ID = "0d7c5a2e-3b9f-4e61-8a4d-6c2b1f9e8a70";
const VIDEO_JOB_ID = "9a3e7d10-54c2-4f8b-b1e6-7d0c2a5f4e33";
const AT = "2026-11-20T09:30:00.000Z";
const DONE = "2026-11-20T09:30:41.000Z";

const avatar = {
  id: AVATAR_ID,
  name: "Ada",
  coverUrl: `https://api.example.com/v1/media/avatars/${AVATAR_ID}/cover.jpg?sig=…`,
  createdAt: DONE,
  updatedAt: DONE,
};
const avatarJob = {
  id: AVATAR_JOB_ID,
  status: "succeeded",
  name: "Ada",
  avatarId: AVATAR_ID,
  createdAt: AT,
  updatedAt: DONE,
  completedAt: DONE,
};
const videoJob = {
  id: VIDEO_JOB_ID,
  status: "succeeded",
  avatarId: AVATAR_ID,
  name: "Welcome message",
  progress: { stage: "completed" },
  createdAt: AT,
  updatedAt: DONE,
  completedAt: DONE,
  expiresAt: "2026-11-27T09:30:00.000Z",
};
const page = { nextPageToken: "eyJjIjoiMjAyNi0xMS0yMFQwOTozMDo0MS4wMDBaIn0", totalCount: 42 };

export const OPEN_API_EXAMPLES: Record<string, OperationExample> = {
  createAvatar: {
    request: { imageUrl: "https://media.example.com/portraits/ada.jpg", name: "Ada" },
    response: { jobId: AVATAR_JOB_ID, status: "queued" },
    sdk: 'const { jobId } = await av.avatars.create({ imageUrl: "https://media.example.com/portraits/ada.jpg", name: "Ada" });\nconst job = await av.waitForAvatar(jobId);',
  },
  checkAvatarImage: {
    request: { imageUrl: "https://media.example.com/portraits/ada.jpg" },
    response: {
      acceptable: true,
      code: null,
      reason: null,
      detail: "The image meets every Avatar image rule.",
      face: {
        box: { x: 212, y: 140, width: 236, height: 280 },
        widthPx: 236,
        sharpness: 0.12,
        yawDeg: 4,
        pitchDeg: -3,
        rollDeg: 1,
      },
    },
    sdk: 'const check = await av.avatars.check({ imageUrl: "https://media.example.com/portraits/ada.jpg" });',
  },
  listAvatars: {
    query: "pagination.pageSize=20",
    response: { avatars: [avatar], pagination: page },
    sdk: "for await (const avatar of av.avatars.list({ pageSize: 20 })) console.log(avatar.name);",
  },
  getAvatar: {
    path: { avatarId: AVATAR_ID },
    response: { avatar },
    sdk: `const avatar = await av.avatars.get("${AVATAR_ID}");`,
  },
  listAvatarJobs: {
    query: "statuses=succeeded&pagination.pageSize=20",
    response: { jobs: [avatarJob], pagination: page },
    sdk: 'for await (const job of av.avatarJobs.list({ statuses: ["succeeded"] })) console.log(job.avatarId);',
  },
  getAvatarJob: {
    path: { jobId: AVATAR_JOB_ID },
    response: { job: avatarJob },
    sdk: `const job = await av.avatarJobs.get("${AVATAR_JOB_ID}");`,
  },
  createVideo: {
    request: {
      avatarId: AVATAR_ID,
      audioUrl: "https://media.example.com/audio/welcome.mp3",
      name: "Welcome message",
      requestId: "4c1f0e9a-2d7b-4a53-9e86-0b5d3c7f1a22",
      video: {
        width: 1080,
        height: 1920,
        fit: "crop",
        performance: {
          expression: "happy",
          intensity: 0.6,
          timeline: [{ atSeconds: 12.5, expression: "serious", intensity: 0.5 }],
          headMotion: 1.5,
        },
      },
    },
    response: { jobId: VIDEO_JOB_ID, status: "queued", createdAt: AT },
    sdk: `const { jobId } = await av.videos.create({ avatarId: "${AVATAR_ID}", audioUrl: "https://media.example.com/audio/welcome.mp3" });\nconst detail = await av.waitForVideo(jobId); // detail.videoUrl: the MP4`,
  },
  getVideoJob: {
    path: { jobId: VIDEO_JOB_ID },
    response: {
      job: videoJob,
      videoUrl: `https://api.example.com/v1/media/videos/${VIDEO_JOB_ID}.mp4?exp=1795000900&sig=…`,
      videoUrlExpiresAt: "2026-11-20T09:45:41.000Z",
    },
    sdk: `const { job, videoUrl } = await av.videos.get("${VIDEO_JOB_ID}");`,
  },
  listVideoJobs: {
    query: "statuses=succeeded&pagination.pageSize=20",
    response: { jobs: [videoJob], pagination: page },
    sdk: 'for await (const job of av.videos.list({ statuses: ["succeeded"] })) console.log(job.id, job.status);',
  },
  createSessionToken: {
    request: { expireAt: 1795000000 },
    response: { sessionToken: "eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJleHAiOjE3OTUwMDAwMDB9.c2lnbmF0dXJl" },
    sdk: 'const { data } = await av.api.POST("/v1/console/session-tokens", { body: { expireAt: Math.floor(Date.now() / 1000) + 3600 } });',
  },
  getOpenApiDocument: {
    response: { openapi: "3.1.0", info: { title: "Avatar and Video Open API", version: "1.0.0" }, paths: {} },
    sdk: 'const doc = await (await fetch("https://api.example.com/v1/open/openapi.json")).json();',
  },
  getApiReference: {
    response: '<!doctype html><html lang="en">…</html>',
    sdk: "// A page for people: open /v1/open/docs in a browser.",
  },
};
