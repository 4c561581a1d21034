/**
 * Renderer configuration from the environment. Every deadline and cadence is an env var so tests can
 * shrink them; the defaults are the production values (see docs/renderer.md).
 */
import os from "node:os";
import path from "node:path";
import { type Allowlist, parseAllowlist } from "@avatar-video/contract";

const MiB = 1024 * 1024;

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
}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || !Number.isInteger(n) || n < min) {
    throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  }
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): RendererConfig {
  const token = env.RENDERER_TOKEN ?? "";
  if (token.length < 16) throw new Error("RENDERER_TOKEN is required (at least 16 characters)");
  const heartbeatMs = int(env, "HEARTBEAT_MS", 5_000, 10);
  if (heartbeatMs > 10_000)
    throw new Error("HEARTBEAT_MS must be at most 10000 (the Worker expects a beat every 10 s)");
  return {
    port: int(env, "PORT", 8790),
    host: env.HOST || "0.0.0.0",
    token,
    allowlist: parseAllowlist(env.SOURCE_ALLOWLIST),
    workDir: env.WORK_DIR || path.join(os.tmpdir(), "avatar-renderer"),
    concurrency: {
      video: int(env, "MAX_CONCURRENT_VIDEO_JOBS", 1, 1),
      avatar: int(env, "MAX_CONCURRENT_AVATAR_JOBS", 2, 1),
      queued: int(env, "MAX_QUEUED_JOBS", 8, 0),
    },
    heartbeatMs,
    link: {
      requestTimeoutMs: int(env, "CALLBACK_TIMEOUT_MS", 15_000, 1),
      objectIdleTimeoutMs: int(env, "OBJECT_IDLE_TIMEOUT_MS", 60_000, 1),
      retries: int(env, "CALLBACK_RETRIES", 6, 0),
      backoffMs: int(env, "CALLBACK_BACKOFF_MS", 500, 1),
      backoffMaxMs: int(env, "CALLBACK_BACKOFF_MAX_MS", 8_000, 1),
    },
    avatar: {
      firstByteMs: int(env, "AVATAR_FIRST_BYTE_MS", 3_000, 1),
      transferDeadlineMs: int(env, "AVATAR_TRANSFER_DEADLINE_MS", 10_000, 1),
      maxImageBytes: 5 * MiB,
    },
    media: {
      transferDeadlineMs: int(env, "TRANSFER_DEADLINE_MS", 5 * 60_000, 1),
      firstByteMs: int(env, "MEDIA_FIRST_BYTE_MS", 60_000, 1),
      preparationWindowMs: int(env, "PREPARATION_WINDOW_MS", 30 * 60_000, 1),
      maxAudioBytes: int(env, "MAX_AUDIO_BYTES", 500 * MiB, 1),
      maxBackgroundBytes: int(env, "MAX_BACKGROUND_BYTES", 50 * MiB, 1),
      maxObjectBytes: 64 * MiB,
    },
    shutdownGraceMs: int(env, "SHUTDOWN_GRACE_MS", 10_000, 0),
  };
}
