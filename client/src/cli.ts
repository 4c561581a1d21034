#!/usr/bin/env -S npx tsx
// `npm run avatar-video -- <command>`: make an Avatar or render a video from the terminal, with a progress
// bar, through the typed client. Credentials from flags or AVATAR_VIDEO_BASE_URL / _APP_ID / _API_KEY.
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { defineCommand, runMain } from "citty";
import { createAvatarVideoClient } from "./client";
import { progressBar } from "./progress";
import { waitForAvatar, waitForVideo } from "./wait";

const connection = {
  "base-url": { type: "string", description: "Server root (env AVATAR_VIDEO_BASE_URL)", default: process.env.AVATAR_VIDEO_BASE_URL ?? "http://127.0.0.1:8787" },
  "app-id": { type: "string", description: "App ID (env AVATAR_VIDEO_APP_ID)", default: process.env.AVATAR_VIDEO_APP_ID },
  "api-key": { type: "string", description: "API key (env AVATAR_VIDEO_API_KEY)", default: process.env.AVATAR_VIDEO_API_KEY },
  "poll-ms": { type: "string", description: "Poll interval in ms (default: the spec's, 5 s Avatars / 15 s videos)" },
} as const;

type ConnectionArgs = { "base-url": string; "app-id"?: string; "api-key"?: string; "poll-ms"?: string };

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

function connect(args: ConnectionArgs) {
  if (!args["app-id"] || !args["api-key"]) fail("--app-id and --api-key (or AVATAR_VIDEO_APP_ID / AVATAR_VIDEO_API_KEY) are required");
  const client = createAvatarVideoClient({ baseUrl: args["base-url"], appId: args["app-id"], apiKey: args["api-key"] });
  const intervalMs = args["poll-ms"] ? Number(args["poll-ms"]) : undefined;
  return { client, intervalMs };
}

/** The API's error envelope as one line: "code: message". */
const describe = (error: unknown) => {
  const e = (error as { error?: { code?: string; message?: string } } | undefined)?.error;
  return e ? `${e.code}: ${e.message}` : JSON.stringify(error);
};

const createAvatar = defineCommand({
  meta: { name: "create-avatar", description: "Create an Avatar from a portrait URL and wait until it is ready" },
  args: {
    ...connection,
    image: { type: "string", description: "Public URL of a JPEG or PNG portrait", required: true },
    name: { type: "string", description: "Avatar name" },
  },
  async run({ args }) {
    const { client, intervalMs } = connect(args);
    const body = { imageUrl: args.image, ...(args.name ? { name: args.name } : {}) };
    const { data, error } = await client.POST("/v1/open/avatars", { body });
    if (!data) fail(describe(error));
    const bar = progressBar();
    const { job } = await waitForAvatar(client, data.jobId, { intervalMs, onStage: bar.stage }).finally(bar.done);
    if (job.status !== "succeeded") fail(`job ${job.id} ${job.status}: ${describe({ error: job.error })}`);
    console.log(`avatarId ${job.avatarId}`);
  },
});

const render = defineCommand({
  meta: { name: "render", description: "Render a video of an Avatar speaking an audio URL and download the MP4" },
  args: {
    ...connection,
    avatar: { type: "string", description: "Avatar ID", required: true },
    audio: { type: "string", description: "Public URL of the audio (mp3, wav, m4a, ogg…)", required: true },
    out: { type: "string", description: "Where to write the MP4", default: "video.mp4" },
    width: { type: "string", description: "Video width (even, 64–1920; default 1024)" },
    height: { type: "string", description: "Video height (even, 64–1920; default 1024)" },
  },
  async run({ args }) {
    const { client, intervalMs } = connect(args);
    const video = {
      ...(args.width ? { width: Number(args.width) } : {}),
      ...(args.height ? { height: Number(args.height) } : {}),
    };
    const body = { avatarId: args.avatar, audioUrl: args.audio, requestId: randomUUID(), ...(Object.keys(video).length ? { video } : {}) };
    const { data, error } = await client.POST("/v1/open/videos", { body });
    if (!data) fail(describe(error));
    const bar = progressBar();
    const detail = await waitForVideo(client, data.jobId, { intervalMs, onStage: bar.stage }).finally(bar.done);
    if (detail.job.status !== "succeeded" || !detail.videoUrl) fail(`job ${detail.job.id} ${detail.job.status}: ${describe({ error: detail.job.error })}`);
    const download = await fetch(detail.videoUrl);
    if (!download.ok || !download.body) fail(`download answered ${download.status}`);
    await pipeline(Readable.fromWeb(download.body as import("node:stream/web").ReadableStream), createWriteStream(args.out));
    console.log(`wrote ${args.out} (job ${detail.job.id})`);
  },
});

export const main = defineCommand({
  meta: { name: "avatar-video", description: "Avatar Video Open API from the terminal" },
  subCommands: { "create-avatar": createAvatar, render },
});

runMain(main);
