import { JobEvent, MAX_SEGMENTS } from "@avatar-video/contract";
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../platform/env";
import { apiError, conflict, forbidden, invalid, notFound, unauthorized } from "../../platform/http/errors";
import { readJsonBody } from "../../platform/http/validation";
import { isUuid } from "../../platform/http/uuid";
import { avatarIdForJob } from "../jobs/avatar-id";
import { handleJobEvent } from "../jobs/events";
import { loadJob, type AnyJob } from "../jobs/store";
import { verifyJobToken, type JobKind } from "../jobs/tokens";
import {
  alphaVideoKey,
  avatarKeys,
  avatarPrefix,
  videoAudioTrackKey,
  videoKey,
  videoPartKey,
  videoPartKeys,
} from "../../platform/storage/keys";
import { handleSegmentEvent } from "../jobs/segment-events";
import { loadSegment } from "../jobs/segments";
import { runId } from "../queue/messages";
import { MAX_REQUEST_BYTES, abortUpload, completeUpload, createUpload, uploadPart } from "./multipart";

/**
 * The renderer's routes into the Worker (docs/architecture.md "Renderer contract"): job events and the objects of one
 * job. Every request carries the job run's Bearer token, HMAC(SIGNING_SECRET, kind:jobId:attempt).
 */
export const internalRoutes = new Hono<AppEnv>();

const MiB = 1024 * 1024;

function jobAndAttempt(jobId: string | undefined, attempt: string | undefined) {
  const id = (jobId ?? "").toLowerCase();
  if (!isUuid(id)) throw invalid("job must be a UUID");
  if (!/^[1-9]\d{0,5}$/.test(attempt ?? "")) throw invalid("attempt must be a positive integer");
  return { jobId: id, attempt: Number(attempt) };
}

async function authenticate(c: Context<AppEnv>, jobId: string, attempt: number): Promise<JobKind> {
  const kind = await verifyJobToken(c.env, c.req.header("authorization"), jobId, attempt);
  if (!kind) throw unauthorized();
  return kind;
}

/** A split render's run (video_segments.idx, docs/pipeline.md "Split renders"): 0 to MAX_SEGMENTS (the join). */
function segmentOf(value: string | undefined): number {
  const idx = Number(value);
  if (!/^\d{1,2}$/.test(value ?? "") || idx > MAX_SEGMENTS)
    throw invalid(`segment must be an integer from 0 to ${MAX_SEGMENTS}`);
  return idx;
}

async function eventBody(c: Context<AppEnv>): Promise<JobEvent> {
  const parsed = JobEvent.safeParse(await readJsonBody(c));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`Invalid event: ${issue.path.join(".") || "type"}: ${issue.message}`);
  }
  return parsed.data;
}

/** POST /internal/jobs/{jobId}/events?attempt=N — progress (heartbeat), succeeded, failed, split. */
internalRoutes.post("/jobs/:jobId/events", async (c) => {
  const { jobId, attempt } = jobAndAttempt(c.req.param("jobId"), c.req.query("attempt"));
  const kind = await authenticate(c, jobId, attempt);
  const event = await eventBody(c);
  return c.json(await handleJobEvent(c.env, kind, jobId, attempt, event, Date.now()));
});

/** POST /internal/jobs/{jobId}/segments/{idx}/events?attempt=N — the same, from a run of a split render. */
internalRoutes.post("/jobs/:jobId/segments/:idx/events", async (c) => {
  const { jobId, attempt } = jobAndAttempt(c.req.param("jobId"), c.req.query("attempt"));
  const segment = segmentOf(c.req.param("idx"));
  if ((await authenticate(c, runId({ jobId, segment }), attempt)) !== "video") throw unauthorized();
  const event = await eventBody(c);
  return c.json(await handleSegmentEvent(c.env, jobId, segment, attempt, event, Date.now()));
});

// ---- objects ---------------------------------------------------------------------------------------------

/**
 * What a run may touch: an Avatar job writes its new Avatar's artifacts; a video job reads its Avatar's,
 * writes its MP4 (and WebM with alpha when asked), and the Avatar's matte when it has none yet (the PUT is
 * conditional: an existing matte is never replaced). A split render's segment writes its part instead of the
 * MP4 (segment 0 also the audio track); its join reads the parts and writes the MP4.
 */
async function allowed(found: AnyJob, method: "GET" | "PUT", key: string, segment?: number): Promise<boolean> {
  if (found.kind === "avatar") {
    return method === "PUT" && Object.values(avatarKeys(await avatarIdForJob(found.job.id))).includes(key);
  }
  const job = found.job;
  const join = segment !== undefined && segment === job.segments;
  const parts = join ? videoPartKeys(job.id) : [];
  if (method === "GET") return key.startsWith(avatarPrefix(job.avatarId)) || parts.includes(key);
  if (key === avatarKeys(job.avatarId).matte) return true;
  if (segment !== undefined && !join)
    return key === videoPartKey(job.id, segment) || (segment === 0 && key === videoAudioTrackKey(job.id));
  return key === videoKey(job.id) || (!!job.settings.alpha && key === alphaVideoKey(job.id));
}

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  json: "application/json",
  mp4: "video/mp4",
  webm: "video/webm",
  m4a: "audio/mp4",
};
/** Upload ceilings per kind of object (the platform's request body limit applies on top). */
const MAX_PUT_BYTES: Record<string, number> = {
  png: 32 * MiB,
  jpg: 32 * MiB,
  jpeg: 32 * MiB,
  webp: 32 * MiB,
  json: 8 * MiB,
  mp4: 4096 * MiB,
  webm: 4096 * MiB,
  m4a: 4096 * MiB,
};

function objectKey(c: Context<AppEnv>): string {
  const raw = c.req.path.slice("/internal/objects/".length);
  let key: string;
  try {
    key = decodeURIComponent(raw);
  } catch {
    throw invalid("The object key is not valid URL encoding.");
  }
  const segments = key.split("/");
  if (
    segments.length < 2 ||
    segments.some((s) => !/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(s) || s === "." || s === "..")
  ) {
    throw invalid("The object key must be slash-separated names of letters, digits, '.', '_' and '-'.");
  }
  return key;
}

async function objectAccess(c: Context<AppEnv>, method: "GET" | "PUT") {
  const key = objectKey(c);
  const { jobId, attempt } = jobAndAttempt(c.req.query("job"), c.req.query("attempt"));
  const raw = c.req.query("segment");
  const segment = raw === undefined ? undefined : segmentOf(raw);
  const run = runId({ jobId, segment });
  const kind = await authenticate(c, run, attempt);
  if (segment !== undefined && kind !== "video") throw unauthorized();
  const found = await loadJob(c.env, kind, jobId);
  if (!found) throw unauthorized(); // a token for a job of this kind that does not exist
  if (!(await isCurrent(c.env, found, attempt, segment))) {
    throw conflict("This run is no longer current: a newer attempt runs or the job has ended.");
  }
  if (!(await allowed(found, method, key, segment))) throw forbidden(`This job may not ${method} ${key}.`);
  return { key, run: { kind, jobId: run, attempt } };
}

/** The job is processing and this is its current run: the job's own attempt, or its split render row's. */
async function isCurrent(env: AppEnv["Bindings"], found: AnyJob, attempt: number, segment?: number) {
  if (found.job.status !== "processing") return false;
  if (segment === undefined) return found.job.attempt === attempt;
  if (found.kind !== "video" || found.job.segments === null || segment > found.job.segments) return false;
  const row = await loadSegment(env, found.job.id, segment);
  return row?.status === "processing" && row.attempt === attempt;
}

/** GET /internal/objects/{key}?job=…&attempt=N — a video run reads its Avatar's portrait, rig, background. */
internalRoutes.get("/objects/*", async (c) => {
  const { key } = await objectAccess(c, "GET");
  const obj = await c.env.MEDIA.get(key);
  if (!obj) throw notFound(`Object ${key} does not exist.`);
  return new Response(obj.body, {
    headers: {
      "Content-Type": obj.httpMetadata?.contentType ?? "application/octet-stream",
      "Content-Length": String(obj.size),
      ETag: obj.httpEtag,
    },
  });
});

const extOf = (key: string) => key.slice(key.lastIndexOf(".") + 1).toLowerCase();
const contentTypeOf = (key: string) => CONTENT_TYPES[extOf(key)] ?? "application/octet-stream";
const maxBytesOf = (key: string) => MAX_PUT_BYTES[extOf(key)] ?? 32 * MiB;

/**
 * PUT /internal/objects/{key}?job=…&attempt=N — a run stores its outputs (Content-Length required, streamed
 * to R2); at most 100 MiB per request: larger objects go up as a multipart upload (multipart.ts).
 * With ?uploadId=…&partNumber=N: one part of a multipart upload.
 */
internalRoutes.put("/objects/*", async (c) => {
  const { key, run } = await objectAccess(c, "PUT");
  if (c.req.query("uploadId") !== undefined) return uploadPart(c, key);
  const ext = extOf(key);
  const length = Number(c.req.header("content-length") ?? NaN);
  if (!Number.isSafeInteger(length) || length < 0)
    throw apiError("invalid_request", "Content-Length is required to store an object.", { status: 411 });
  if (length === 0) throw invalid("The object body is empty.");
  const max = maxBytesOf(key);
  if (length > max)
    throw apiError("invalid_request", `The object is ${length} bytes; at most ${max} are accepted for .${ext}.`, {
      status: 413,
    });
  if (length > MAX_REQUEST_BYTES) {
    throw apiError(
      "invalid_request",
      `The object is ${length} bytes; one request carries at most ${MAX_REQUEST_BYTES}: use a multipart upload.`,
      { status: 413 },
    );
  }
  const body = c.req.raw.body;
  if (!body) throw invalid("The object body is empty.");
  // R2 needs the length of a streamed body up front.
  const sized = new FixedLengthStream(length);
  // A video run writes its Avatar's matte only where none exists (R2 conditional put): it can add the matte an
  // older Avatar lacks, never replace one.
  const onlyIf = isRenderMatte(run.kind, key) ? { etagDoesNotMatch: "*" } : undefined;
  const [, stored] = await Promise.all([
    body.pipeTo(sized.writable),
    c.env.MEDIA.put(key, sized.readable, { httpMetadata: { contentType: contentTypeOf(key) }, onlyIf }),
  ]);
  // The Avatar already has a matte (another render made it first): the run goes on with that one.
  if (!stored) return c.json({ ok: true, key, size: length, kept: "existing" });
  return c.json({ ok: true, key, size: length });
});

/** The Avatar matte a video run may add (never replace: no multipart upload, a conditional put). */
const isRenderMatte = (kind: string, key: string) => kind === "video" && key.endsWith("/matte.png");

/** POST /internal/objects/{key}?…&uploads starts a multipart upload; ?…&uploadId=U completes it. */
internalRoutes.post("/objects/*", async (c) => {
  const { key, run } = await objectAccess(c, "PUT");
  if (isRenderMatte(run.kind, key)) throw forbidden("A video run stores its Avatar's matte with one conditional PUT.");
  if (c.req.query("uploads") !== undefined) return createUpload(c, key, maxBytesOf(key), contentTypeOf(key), run);
  if (c.req.query("uploadId") !== undefined) return completeUpload(c, key);
  throw invalid("POST on an object needs ?uploads (start a multipart upload) or ?uploadId= (complete it).");
});

/** DELETE /internal/objects/{key}?…&uploadId=U abandons a multipart upload. */
internalRoutes.delete("/objects/*", async (c) => {
  const { key } = await objectAccess(c, "PUT");
  if (c.req.query("uploadId") === undefined)
    throw invalid("DELETE on an object needs ?uploadId= (abandon a multipart upload).");
  return abortUpload(c, key);
});
