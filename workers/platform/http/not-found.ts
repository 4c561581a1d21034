import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { apiError, errorResponse, notFound } from "./errors";

const patternCache = new WeakMap<object, { regex: RegExp; method: string }[]>();

/** Concrete routes of the app as regexes (middleware registered with "ALL" or "*" paths excluded). */
function routePatterns(app: Hono<AppEnv>) {
  let patterns = patternCache.get(app);
  if (!patterns) {
    patterns = app.routes
      .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => ({
        method: r.method,
        regex: new RegExp(`^${r.path.replace(/:[^/{]+(\{[^}]+\})?/g, "[^/]+")}$`),
      }));
    patternCache.set(app, patterns);
  }
  return patterns;
}

/** Unknown path → 404 not_found; known path with another method → 405 with an Allow header. */
export function methodNotAllowedOrNotFound(c: Context<AppEnv>, app: Hono<AppEnv>) {
  const path = new URL(c.req.url).pathname;
  const allowed = [
    ...new Set(
      routePatterns(app)
        .filter((p) => p.regex.test(path))
        .map((p) => p.method),
    ),
  ];
  if (allowed.length > 0) {
    return errorResponse(
      c,
      apiError(
        "method_not_allowed",
        `Method ${c.req.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}.`,
        {
          headers: {
            Allow: allowed.join(", "),
          },
        },
      ),
    );
  }
  return errorResponse(c, notFound(`No route matches ${c.req.method} ${path}.`));
}
