import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { apiError, errorResponse } from "../platform/http/errors";
import type { ConsoleEnv } from "./context";
import { MiB, PART_SIZE } from "./uploads";

/** Form fields besides the file (CSRF token, names, settings): far below this. */
export const FORM_BYTES = 64 * 1024;
export const MAX_PORTRAIT_FORM_BYTES = 5 * MiB + FORM_BYTES;
export const MAX_BACKGROUND_FORM_BYTES = 20 * MiB + FORM_BYTES;
export const MAX_VIDEO_FORM_BYTES = 90 * MiB + FORM_BYTES;

const PART_PATH = /^\/console\/api\/uploads\/[^/]+\/parts\/[^/]+$/;

/** The largest body a console route reads, by method and path; everything else (sign-in included) gets FORM_BYTES. */
function capFor(method: string, path: string): { bytes: number; what: string } {
  if (method === "PUT" && PART_PATH.test(path)) return { bytes: PART_SIZE, what: "an upload part" };
  if (method === "POST" && path === "/console/avatars")
    return { bytes: MAX_PORTRAIT_FORM_BYTES, what: "the portrait form" };
  if (method === "POST" && /^\/console\/avatars\/[^/]+\/background$/.test(path))
    return { bytes: MAX_BACKGROUND_FORM_BYTES, what: "the background form" };
  if (method === "POST" && path === "/console/videos") return { bytes: MAX_VIDEO_FORM_BYTES, what: "the video form" };
  return { bytes: FORM_BYTES, what: "this form" };
}

const tooLarge = (cap: { bytes: number; what: string }) =>
  apiError("invalid_request", `Request body of ${cap.what} must be at most ${cap.bytes} bytes`, { status: 413 });

/**
 * Every console body is capped before anything parses it (the CSRF check reads whole forms, signed-out ones
 * included): by Content-Length when declared, else while it streams. An upload part must declare its length.
 */
export const consoleBodyCap = createMiddleware<ConsoleEnv>(async (c, next) => {
  const cap = capFor(c.req.method, c.req.path);
  if (cap.what === "an upload part" && !/^\d{1,12}$/.test(c.req.header("Content-Length") ?? "")) {
    throw apiError(
      "invalid_request",
      "Content-Length is required on an upload part (each part is exactly partSize bytes, the last one the rest)",
      { status: 411 },
    );
  }
  const limit = bodyLimit({
    maxSize: cap.bytes,
    // Answered here, not thrown: a throw from inside the counted stream would surface as an unhandled rejection.
    onError: (ctx: Context) => errorResponse(ctx, tooLarge(cap)),
  });
  return limit(c, next);
});
