import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/** Every response carries X-Request-ID; error envelopes repeat it as error.requestId. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = crypto.randomUUID();
  c.set("requestId", id);
  c.header("X-Request-ID", id);
  await next();
  c.res.headers.set("X-Request-ID", id);
});
