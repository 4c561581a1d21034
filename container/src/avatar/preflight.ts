/**
 * POST /checks (Bearer RENDERER_TOKEN): the Avatar pre-flight check, answered synchronously. Runs exactly
 * what an Avatar job runs before it would create anything — the SSRF-safe download, the file rules and
 * the face rules — and reports the first refusal with its reason and sentence, plus what was measured on
 * the face. No job, no upload, no callback. Body `{ "imageUrl": "https://…" }`; answers:
 *
 *   200 { acceptable, code, reason, detail, face }   the image was judged (acceptable or not)
 *   400 malformed body · 401 bad token · 503 busy (too many checks waiting) or the face models are unavailable
 */
import { checkFaces, requireFaceModels } from "./check-image";
import { decodeSource } from "./decode";
import { downloadSource } from "./source";
import type { RendererConfig, Logger } from "../io/public";
import type { FaceMeasurements } from "./assess";
import { JobFailure } from "../rules/public";

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
export async function checkAvatarSource(
  imageUrl: string,
  config: Pick<RendererConfig, "avatar" | "allowlist">,
  signal?: AbortSignal,
): Promise<AvatarCheckAnswer> {
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

/**
 * The route's answer for a parsed JSON body (routing, Bearer and body size: http/app.ts). `signal` aborts
 * when the caller goes away.
 */
export async function answerAvatarCheck(
  body: unknown,
  config: RendererConfig,
  log: Logger,
  signal: AbortSignal,
): Promise<{ status: 200 | 400 | 503; body: AvatarCheckAnswer | { error: string } }> {
  const imageUrl = (body as { imageUrl?: unknown } | null)?.imageUrl;
  if (typeof imageUrl !== "string" || imageUrl.length === 0 || imageUrl.length > 4096) {
    return { status: 400, body: { error: "imageUrl must be a string of 1 to 4096 characters" } };
  }
  if (pending >= MAX_PENDING) return { status: 503, body: { error: `${MAX_PENDING} checks already waiting` } };
  pending++;
  const started = performance.now();
  try {
    const answer = await checkAvatarSource(imageUrl, config, signal);
    log.info("avatar_check", {
      acceptable: answer.acceptable,
      reason: answer.reason,
      ms: Math.round(performance.now() - started),
    });
    return { status: 200, body: answer };
  } catch (err) {
    if (!signal.aborted) log.warn("avatar_check_failed", { error: err });
    return { status: 503, body: { error: "the image could not be checked now; retry" } };
  } finally {
    pending--;
  }
}
