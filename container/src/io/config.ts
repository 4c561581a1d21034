/**
 * Renderer configuration from the environment. Every deadline and cadence is an env var so tests can
 * shrink them; the defaults are the production values (see docs/renderer.md).
 */
import os from "node:os";
import path from "node:path";
import { type Allowlist, intVar, parseAllowlist, parseVars } from "@avatar-video/contract";
import { z } from "zod";

const MiB = 1024 * 1024;
const REQUIRED_TOKEN = "is required (at least 16 characters)";

export interface RendererConfig {
  /** Listening port: 8790 locally, 8080 in the Docker image (the Container's defaultPort). */
  port: number;
  /** Listening address; 0.0.0.0 so the Container runtime can reach it. */
  host: string;
  /** Bearer token the Worker dispatches with (`RENDERER_TOKEN`, required). */
  token: string;
  /** `SOURCE_ALLOWLIST`: exact host:port entries that bypass the address policy (dev/tests only). */
  allowlist: Allowlist;
  /** Parent of the per-job scratch directories (removed when each job ends). */
  workDir: string;
  concurrency: {
    /** Video renders at once. One render keeps ffmpeg + frame synthesis busy on 2 cores. */
    video: number;
    /** Avatar analyses at once (each is mostly single-threaded WASM face analysis). */
    avatar: number;
    /** Accepted jobs waiting for a slot (all kinds); beyond this POST /jobs answers 503. */
    queued: number;
  };
  /** Progress events are repeated as a heartbeat at this cadence while a job runs (≤ 10 s). */
  heartbeatMs: number;
  /** Worker callbacks and object transfers. */
  link: {
    /** One callback request (event) times out after this. */
    requestTimeoutMs: number;
    /** Object GET/PUT: the connection may be silent at most this long. */
    objectIdleTimeoutMs: number;
    /** Retries on network errors, 429 and 5xx (exponential backoff from `backoffMs`). */
    retries: number;
    backoffMs: number;
    backoffMaxMs: number;
  };
  avatar: {
    /** The source must answer (headers) within this: the spec's "responds within 3 seconds". */
    firstByteMs: number;
    /** Whole download of the source image. */
    transferDeadlineMs: number;
    /** The spec's 5 MiB; one byte more is detected while streaming and ends in invalid_image. */
    maxImageBytes: number;
  };
  media: {
    /** Spec: each transfer has a deadline of five minutes. */
    transferDeadlineMs: number;
    /** A source that does not answer with headers in this time counts as unreachable. */
    firstByteMs: number;
    /** Spec: a source must stay reachable for a preparation window of up to 30 minutes. */
    preparationWindowMs: number;
    maxAudioBytes: number;
    maxBackgroundBytes: number;
    /** Avatar artifacts (portrait, rig, stored background) read back from the Worker. */
    maxObjectBytes: number;
  };
  /** On SIGTERM: how long running jobs get to unwind after being aborted before the process exits. */
  shutdownGraceMs: number;
  /** Load the face models at start-up, so the first Avatar job does not pay for it (`WARM_MODELS=0`: no). */
  warmModels: boolean;
}

/**
 * The variables, one schema (unset or blank: the default). A bad value stops the process at start with a
 * message naming the variable (server.ts).
 */
const RendererVars = z.object({
  PORT: intVar(0).default(8790),
  HOST: z.string().default("0.0.0.0"),
  RENDERER_TOKEN: z.string({ error: REQUIRED_TOKEN }).min(16, REQUIRED_TOKEN),
  SOURCE_ALLOWLIST: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      try {
        return parseAllowlist(raw);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
  WORK_DIR: z.string().default(() => path.join(os.tmpdir(), "avatar-renderer")),
  MAX_CONCURRENT_VIDEO_JOBS: intVar(1).default(1),
  MAX_CONCURRENT_AVATAR_JOBS: intVar(1).default(2),
  MAX_QUEUED_JOBS: intVar(0).default(8),
  // At most 10 s: the Worker expects a beat every 10 s.
  HEARTBEAT_MS: intVar(10, 10_000).default(5_000),
  CALLBACK_TIMEOUT_MS: intVar(1).default(15_000),
  OBJECT_IDLE_TIMEOUT_MS: intVar(1).default(60_000),
  CALLBACK_RETRIES: intVar(0).default(6),
  CALLBACK_BACKOFF_MS: intVar(1).default(500),
  CALLBACK_BACKOFF_MAX_MS: intVar(1).default(8_000),
  AVATAR_FIRST_BYTE_MS: intVar(1).default(3_000),
  AVATAR_TRANSFER_DEADLINE_MS: intVar(1).default(10_000),
  TRANSFER_DEADLINE_MS: intVar(1).default(5 * 60_000),
  MEDIA_FIRST_BYTE_MS: intVar(1).default(60_000),
  PREPARATION_WINDOW_MS: intVar(1).default(30 * 60_000),
  MAX_AUDIO_BYTES: intVar(1).default(500 * MiB),
  MAX_BACKGROUND_BYTES: intVar(1).default(50 * MiB),
  SHUTDOWN_GRACE_MS: intVar(0).default(10_000),
  WARM_MODELS: z.enum(["0", "1"], { error: 'must be "0" or "1"' }).default("1"),
});

export function loadConfig(env: NodeJS.ProcessEnv = process.env): RendererConfig {
  const v = parseVars(RendererVars, env);
  return {
    port: v.PORT,
    host: v.HOST,
    token: v.RENDERER_TOKEN,
    allowlist: v.SOURCE_ALLOWLIST,
    workDir: v.WORK_DIR,
    concurrency: {
      video: v.MAX_CONCURRENT_VIDEO_JOBS,
      avatar: v.MAX_CONCURRENT_AVATAR_JOBS,
      queued: v.MAX_QUEUED_JOBS,
    },
    heartbeatMs: v.HEARTBEAT_MS,
    link: {
      requestTimeoutMs: v.CALLBACK_TIMEOUT_MS,
      objectIdleTimeoutMs: v.OBJECT_IDLE_TIMEOUT_MS,
      retries: v.CALLBACK_RETRIES,
      backoffMs: v.CALLBACK_BACKOFF_MS,
      backoffMaxMs: v.CALLBACK_BACKOFF_MAX_MS,
    },
    avatar: {
      firstByteMs: v.AVATAR_FIRST_BYTE_MS,
      transferDeadlineMs: v.AVATAR_TRANSFER_DEADLINE_MS,
      maxImageBytes: 5 * MiB,
    },
    media: {
      transferDeadlineMs: v.TRANSFER_DEADLINE_MS,
      firstByteMs: v.MEDIA_FIRST_BYTE_MS,
      preparationWindowMs: v.PREPARATION_WINDOW_MS,
      maxAudioBytes: v.MAX_AUDIO_BYTES,
      maxBackgroundBytes: v.MAX_BACKGROUND_BYTES,
      maxObjectBytes: 64 * MiB,
    },
    shutdownGraceMs: v.SHUTDOWN_GRACE_MS,
    warmModels: v.WARM_MODELS === "1",
  };
}
