/**
 * Examples of the public API, one entry per operationId: what a caller sends and gets back, plus the Node and
 * Python SDK lines that do it. withExamples() puts them into the generated document (request and 200 examples,
 * and `x-codeSamples` in curl, Node and Python, which the reference page shows). test/worker/api/openapi-examples.test.ts
 * parses every example with the route's own zod schema, so an example cannot drift from the contract.
 */

type Json = Record<string, unknown>;

export interface OperationExample {
  /** Path parameters and query string used in the curl sample. */
  path?: Record<string, string>;
  query?: string;
  request?: Json;
  response: unknown;
  /** The Node SDK's statements (after `const av = new AvatarVideo()`, @avatar-video/client). */
  node: string;
  /** The Python SDK's statements (after `av = AvatarVideo()`, clients/python). */
  python: string;
}

const AVATAR_ID = "5b0f6c1e-8f4e-4c36-9d4a-2f1e7a0b9c11";
const AVATAR_JOB_ID = "0d7c5a2e-3b9f-4e61-8a4d-6c2b1f9e8a70";
const VIDEO_JOB_ID = "9a3e7d10-54c2-4f8b-b1e6-7d0c2a5f4e33";
const AT = "2026-11-20T09:30:00.000Z";
const DONE = "2026-11-20T09:30:41.000Z";

const avatar = {
  id: AVATAR_ID,
  name: "Ada",
  coverUrl: `https://api.example.com/v1/media/avatars/${AVATAR_ID}/cover.jpg?exp=1795000900&sig=3q2-7wAAAAA`,
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
    node: 'const { jobId } = await av.avatars.create({ imageUrl: "https://media.example.com/portraits/ada.jpg", name: "Ada" });\nconst job = await av.waitForAvatar(jobId);',
    python:
      'created = av.avatars.create(image_url="https://media.example.com/portraits/ada.jpg", name="Ada")\njob = av.wait_for_avatar(created.job_id)',
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
    node: 'const check = await av.avatars.check({ imageUrl: "https://media.example.com/portraits/ada.jpg" });',
    python: 'check = av.avatars.check("https://media.example.com/portraits/ada.jpg")',
  },
  listAvatars: {
    query: "pagination.pageSize=20",
    response: { avatars: [avatar], pagination: page },
    node: "for await (const avatar of av.avatars.list({ pageSize: 20 })) console.log(avatar.name);",
    python: "for avatar in av.avatars.list(page_size=20):\n    print(avatar.name)",
  },
  getAvatar: {
    path: { avatarId: AVATAR_ID },
    response: { avatar },
    node: `const avatar = await av.avatars.get("${AVATAR_ID}");`,
    python: `avatar = av.avatars.get("${AVATAR_ID}")`,
  },
  listAvatarJobs: {
    query: "statuses=succeeded&pagination.pageSize=20",
    response: { jobs: [avatarJob], pagination: page },
    node: 'for await (const job of av.avatarJobs.list({ statuses: ["succeeded"] })) console.log(job.avatarId);',
    python: 'for job in av.avatar_jobs.list(statuses=["succeeded"]):\n    print(job.avatar_id)',
  },
  getAvatarJob: {
    path: { jobId: AVATAR_JOB_ID },
    response: { job: avatarJob },
    node: `const job = await av.avatarJobs.get("${AVATAR_JOB_ID}");`,
    python: `job = av.avatar_jobs.get("${AVATAR_JOB_ID}")`,
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
    node: `const { jobId } = await av.videos.create({ avatarId: "${AVATAR_ID}", audioUrl: "https://media.example.com/audio/welcome.mp3" });\nconst detail = await av.waitForVideo(jobId); // detail.videoUrl: the MP4`,
    python: `video = av.videos.create(avatar_id="${AVATAR_ID}", audio_url="https://media.example.com/audio/welcome.mp3")\ndetail = av.wait_for_video(video.job_id)  # detail.video_url: the MP4`,
  },
  getVideoJob: {
    path: { jobId: VIDEO_JOB_ID },
    response: {
      job: videoJob,
      videoUrl: `https://api.example.com/v1/media/videos/${VIDEO_JOB_ID}.mp4?exp=1795000900&sig=Yp9cT0l2c2lnbmF0dXJl`,
      videoUrlExpiresAt: "2026-11-20T09:45:41.000Z",
    },
    node: `const { job, videoUrl } = await av.videos.get("${VIDEO_JOB_ID}");`,
    python: `detail = av.videos.get("${VIDEO_JOB_ID}")  # detail.job, detail.video_url`,
  },
  listVideoJobs: {
    query: "statuses=succeeded&pagination.pageSize=20",
    response: { jobs: [videoJob], pagination: page },
    node: 'for await (const job of av.videos.list({ statuses: ["succeeded"] })) console.log(job.id, job.status);',
    python: 'for job in av.videos.list(statuses=["succeeded"]):\n    print(job.id, job.status)',
  },
  createSessionToken: {
    request: { expireAt: 1795000000 },
    response: { sessionToken: "eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJleHAiOjE3OTUwMDAwMDB9.c2lnbmF0dXJl" },
    node: "const { sessionToken } = await av.sessionTokens.create({ ttlSeconds: 3600 }); // for the page, never the key",
    python: "token = av.session_tokens.create(ttl=3600)  # token.session_token goes to the page",
  },
  getOpenApiDocument: {
    response: { openapi: "3.1.0", info: { title: "Avatar and Video Open API", version: "1.0.0" }, paths: {} },
    node: 'const doc = await (await fetch("https://api.example.com/v1/open/openapi.json")).json();',
    python:
      'import json\nfrom urllib.request import urlopen\n\ndoc = json.load(urlopen("https://api.example.com/v1/open/openapi.json"))',
  },
  getApiReference: {
    response: '<!doctype html><html lang="en">…</html>',
    node: "// A page for people: open /v1/open/docs in a browser.",
    python: "# A page for people: open /v1/open/docs in a browser.",
  },
};
