/**
 * POST /checks (Bearer RENDERER_TOKEN): the Avatar pre-flight check, answered synchronously. Runs exactly
 * what an Avatar job runs before it would create anything — the SSRF-safe download, the file rules and
 * the face rules — and reports the first refusal with its reason and sentence, plus what was measured on
 * the face. No job, no upload, no callback. Body `{ "imageUrl": "https://…" }`; answers:
 *
 *   200 { acceptable, code, reason, detail, face }   the image was judged (acceptable or not)
 *   400 malformed body · 401 bad token · 503 busy (too many checks waiting) or the face models are unavailable
 */
import type http from "node:http";
import { checkFaces, requireFaceModels } from "../avatar/check-image";
import { decodeSource } from "../avatar/decode";
import { downloadSource } from "../avatar/source";
import type { RendererConfig } from "../config";
import type { FaceMeasurements } from "../face/assess";
import { JobFailure } from "../job-failure";
import type { Logger } from "../jobs/log";

const MAX_BODY_BYTES = 16 * 1024;
/** Checks waiting for the face models (they run one at a time) beyond which the renderer answers 503. */
const MAX_PENDING = 8;
let pending = 0;

export interface AvatarCheckAnswer {
  acceptable: boolean;
  /** The Avatar job failure code this image would end with (null when acceptable). */
  code: string | null;
  reason: string | null;
  detail: string;
  face: {
    box: { x: number; y: number; width: number; height: number };
    widthPx: number;
    sharpness: number;
    yawDeg: number;
    pitchDeg: number;
    rollDeg: number;
  } | null;
}

const ACCEPTABLE = "The image meets every Avatar image rule.";
const r1 = (v: number) => Math.round(v * 10) / 10 || 0;

function faceOf(m: FaceMeasurements | undefined): AvatarCheckAnswer["face"] {
  if (!m) return null;
  const b = m.box;
  return {
    box: { x: r1(b.x), y: r1(b.y), width: r1(b.width), height: r1(b.height) },
    widthPx: Math.round(m.widthPx),
    sharpness: Math.round(m.sharpness * 10_000) / 10_000,
    yawDeg: r1(m.yawDeg),
    pitchDeg: r1(m.pitchDeg),
    rollDeg: r1(m.rollDeg),
  };
}

function refused(f: JobFailure, face: AvatarCheckAnswer["face"] = null): AvatarCheckAnswer {
  return { acceptable: false, code: f.code, reason: f.reason ?? null, detail: f.clientDetail ?? f.message, face };
}

/** The check itself (also used by tests): the URL judged as an Avatar job would judge it. */
export async function checkAvatarSource(imageUrl: string, config: Pick<RendererConfig, "avatar" | "allowlist">, signal?: AbortSignal): Promise<AvatarCheckAnswer> {
  try {
    const source = await downloadSource(imageUrl, config, signal);
    const { image } = await decodeSource(source.body);
    await requireFaceModels();
    const a = await checkFaces(image);
    const face = faceOf(a.measurements);
    if (!a.ok) return refused(a.rejection!, face);
    return { acceptable: true, code: null, reason: null, detail: ACCEPTABLE, face };
  } catch (err) {
    if (err instanceof JobFailure && err.code !== "internal_error") return refused(err);
    throw err;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...(status === 503 ? { "retry-after": "2" } : {}) });
  res.end(text);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY_BYTES) throw new Error(`body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(c);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new Error("body is not valid JSON");
  }
}

/** The route handler; the caller (server.ts) has matched the path. */
export async function handleAvatarCheck(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  config: RendererConfig,
  log: Logger,
  authorized: (header: string | undefined) => boolean,
): Promise<void> {
  if (req.method !== "POST") {
    res.setHeader("allow", "POST");
    return send(res, 405, { error: "method not allowed" });
  }
  if (!authorized(req.headers.authorization)) {
    req.resume();
    return send(res, 401, { error: "unauthorized" });
  }
  let body: unknown;
  try {
    body = await readJson(req);
  } catch (err) {
    return send(res, 400, { error: (err as Error).message });
  }
  const imageUrl = (body as { imageUrl?: unknown } | null)?.imageUrl;
  if (typeof imageUrl !== "string" || imageUrl.length === 0 || imageUrl.length > 4096) {
    return send(res, 400, { error: "imageUrl must be a string of 1 to 4096 characters" });
  }
  if (pending >= MAX_PENDING) return send(res, 503, { error: `${MAX_PENDING} checks already waiting` });
  pending++;
  const aborted = new AbortController();
  res.on("close", () => aborted.abort(new Error("client went away")));
  const started = performance.now();
  try {
    const answer = await checkAvatarSource(imageUrl, config, aborted.signal);
    log.info("avatar_check", { acceptable: answer.acceptable, reason: answer.reason, ms: Math.round(performance.now() - started) });
    send(res, 200, answer);
  } catch (err) {
    if (aborted.signal.aborted) return;
    log.warn("avatar_check_failed", { error: err });
    send(res, 503, { error: "the image could not be checked now; retry" });
  } finally {
    pending--;
  }
}
