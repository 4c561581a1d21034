import type { Context } from "hono";
import type { AppEnv } from "../env";
import { apiError, errorResponse, notFound } from "../http/errors";
import { parseRange } from "./range";

/**
 * Streams an R2 object with Content-Length and single-range support (206 / 416), as players expect.
 * Headers other than the ones given come from the stored object.
 */
export async function serveObject(
  c: Context<AppEnv>,
  key: string,
  opts: { contentType?: string; cacheControl: string; notFoundMessage: string; disposition?: string },
): Promise<Response> {
  const head = await c.env.MEDIA.head(key);
  if (!head) return errorResponse(c, notFound(opts.notFoundMessage));
  const range = parseRange(c.req.header("range"), head.size);
  if (range === "unsatisfiable") {
    return errorResponse(
      c,
      apiError("invalid_request", `Range ${c.req.header("range")} is outside the object's ${head.size} bytes.`, {
        headers: {
          "Content-Range": `bytes */${head.size}`,
        },
        status: 416,
      }),
    );
  }
  const obj = await c.env.MEDIA.get(key, range ? { range } : undefined);
  if (!obj) return errorResponse(c, notFound(opts.notFoundMessage));
  const headers = new Headers({
    "Content-Type": opts.contentType ?? head.httpMetadata?.contentType ?? "application/octet-stream",
    "Content-Length": String(range ? range.length : head.size),
    "Accept-Ranges": "bytes",
    ETag: head.httpEtag,
    "Last-Modified": head.uploaded.toUTCString(),
    "Cache-Control": opts.cacheControl,
    "X-Content-Type-Options": "nosniff",
  });
  if (opts.disposition) headers.set("Content-Disposition", opts.disposition);
  if (range) headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`);
  return new Response(obj.body, { status: range ? 206 : 200, headers });
}
