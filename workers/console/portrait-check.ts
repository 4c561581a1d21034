import { AVATAR_REASONS, SOURCE_IMAGE } from "@avatar-video/contract";
import type { Env } from "../platform/env";
import { ApiError } from "../platform/http/errors";
import { imageInfo } from "./image-info";
import { MiB } from "./uploads";
import { checkAvatarImage } from "../api/public";

export type PortraitCheck =
  | { ok: true; type: "image/jpeg" | "image/png"; ext: "jpg" | "png" }
  | { ok: false; reason: string; message: string };

const refuse = (reason: keyof typeof AVATAR_REASONS, detail: string): PortraitCheck => ({
  ok: false,
  reason,
  message: `The photo was refused (${reason}): ${AVATAR_REASONS[reason].summary} ${detail}`.trim(),
});

/**
 * The photo check before a console Avatar job is made, in two steps. First the rules the file's header
 * shows (type by content, ≤ 5 MiB, shorter side ≥ 340 px, pixel count), before anything is stored; then,
 * on the stored upload, `checkUploadedPortrait`: the same checks as POST /v1/open/avatar-checks (decoding,
 * opacity, faces) on the renderer. Either refusal shows its reason and the measured value.
 */
export async function precheckPortrait(_env: Env, bytes: Uint8Array): Promise<PortraitCheck> {
  if (bytes.byteLength === 0) return refuse("file_empty", "");
  if (bytes.byteLength > SOURCE_IMAGE.maxBytes)
    return refuse("file_too_large", `This one has ${(bytes.byteLength / MiB).toFixed(1)} MiB.`);
  const info = imageInfo(bytes);
  if (!info) return refuse("unsupported_format", "");
  const shorter = Math.min(info.width, info.height);
  if (info.width * info.height > SOURCE_IMAGE.maxPixels)
    return refuse("image_too_many_pixels", `This one is ${info.width}×${info.height}.`);
  if (shorter < SOURCE_IMAGE.minShortSide)
    return refuse("image_too_small", `This one is ${info.width}×${info.height}.`);
  return { ok: true, type: info.type, ext: info.type === "image/png" ? "png" : "jpg" };
}

/**
 * The face and image rules of the pre-flight check on an uploaded portrait (its signed source URL). When the
 * renderer cannot answer right now (503) the job is made anyway: the pipeline runs the same checks and a
 * refusal there shows on the job with its reason.
 */
export async function checkUploadedPortrait(
  env: Env,
  imageUrl: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const verdict = await checkAvatarImage(env, imageUrl);
    if (verdict.acceptable) return { ok: true };
    return { ok: false, message: `The photo was refused (${verdict.reason}): ${verdict.detail}` };
  } catch (err) {
    if (err instanceof ApiError && err.status === 503) return { ok: true };
    throw err;
  }
}
