/**
 * The renderer's HTTP routes on Hono (served by @hono/node-server in server.ts): `GET /health`,
 * `POST /jobs` (the dispatch, answered 202 at once) and `POST /checks` (the Avatar pre-flight check).
 * Bodies are JSON `{error}` on every refusal; the Bearer token is RENDERER_TOKEN (bearer.ts).
 */
import { parseDispatch } from "@avatar-video/contract";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { type RendererConfig, type Logger, redactUrl } from "../io/public";
import type { JobManager } from "../runs/public";
import { ffmpegChoice } from "../media/public";
import { bearerMatches } from "./bearer";

const MAX_DISPATCH_BYTES = 256 * 1024;
const MAX_CHECK_BYTES = 16 * 1024;

export function rendererApp(config: RendererConfig, manager: JobManager, ready: Promise<void>, log: Logger): Hono {
  const app = new Hono();

  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    if (c.req.path !== "/health") {
      log.info("request", {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      });
    }
  });

  app.on(["GET", "HEAD"], "/health", (c) => {
    const draining = manager.isDraining;
    const { version, source, ffmpeg } = ffmpegChoice();
    return c.json(
      {
        ok: !draining,
        activeJobs: manager.activeJobs,
        waitingJobs: manager.waitingJobs,
        ffmpeg: { version, source, path: ffmpeg },
      },
      draining ? 503 : 200,
    );
  });

  app.post("/jobs", bearer(config.token), limit(MAX_DISPATCH_BYTES), async (c) => {
    const body = await jsonBody(c.req.raw);
    if (body === INVALID) return c.json({ error: "body is not valid JSON" }, 400);
    const parsed = parseDispatch(body);
    if (!parsed.ok) return c.json({ error: parsed.error }, 400);
    await ready;
    const d = parsed.value;
    const result = manager.submit(d);
    log.info("dispatch", {
      jobId: d.jobId,
      attempt: d.attempt,
      kind: d.kind,
      status: result.status,
      callback: redactUrl(d.callbackUrl),
      ...(result.status === 202 ? { duplicate: result.duplicate, state: result.state } : { error: result.error }),
    });
    if (result.status === 202) {
      return c.json(
        { accepted: true, jobId: d.jobId, attempt: d.attempt, duplicate: result.duplicate, state: result.state },
        202,
      );
    }
    if (result.status === 503) c.header("retry-after", "5");
    return c.json({ error: result.error }, result.status);
  });

  app.post("/checks", bearer(config.token), limit(MAX_CHECK_BYTES), async (c) => {
    const body = await jsonBody(c.req.raw);
    if (body === INVALID) return c.json({ error: "body is not valid JSON" }, 400);
    // avatar/ (and the face analysis under it) is imported on the first check, not at start-up.
    const { answerAvatarCheck } = await import("../avatar/public");
    const answer = await answerAvatarCheck(body, config, log, c.req.raw.signal);
    if (answer.status === 503) c.header("retry-after", "2");
    return c.json(answer.body, answer.status);
  });

  for (const [path, allow] of [
    ["/health", "GET"],
    ["/jobs", "POST"],
    ["/checks", "POST"],
  ] as const) {
    app.all(path, (c) => (c.header("allow", allow), c.json({ error: "method not allowed" }, 405)));
  }
  app.notFound((c) => c.json({ error: "not found" }, 404));
  app.onError((err, c) => {
    log.error("request_failed", { error: err });
    return c.json({ error: "internal error" }, 500);
  });
  return app;
}

function bearer(token: string): MiddlewareHandler {
  return async (c, next) => {
    if (!bearerMatches(c.req.header("authorization"), token)) {
      c.header("www-authenticate", "Bearer");
      return c.json({ error: "unauthorized" }, 401);
    }
    await next();
  };
}

/** Over the limit: 413. The rest of the body is read and dropped first, so the caller can read the answer. */
const limit = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: async (c) => {
      await drain(c.req.raw.body);
      return c.json({ error: `body larger than ${maxSize} bytes` }, 413);
    },
  });

async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body || body.locked) return;
  try {
    for await (const _ of body) void _;
  } catch {
    /* the caller went away */
  }
}

const INVALID = Symbol("invalid JSON");

async function jsonBody(req: Request): Promise<unknown> {
  try {
    return JSON.parse(await req.text());
  } catch {
    return INVALID;
  }
}
