import type { z } from "zod";

/**
 * Building blocks of a route declaration (`createRoute`): who may call it, its success response and the
 * error statuses it can answer. Error statuses point at the shared responses of components.ts.
 */

/** X-App-ID + X-API-Key (every /v1/open route). */
export const APP_AUTH = [{ AppId: [], ApiKey: [] }];
/** X-API-Key only (the console endpoints). */
export const API_KEY_AUTH = [{ ApiKey: [] }];
/** Public: no credentials. */
export const NO_AUTH = [];

const ref = (kind: string, id: string) => ({ $ref: `#/components/${kind}/${id}` });

/** A JSON success response (200, 201) with its X-Request-ID header; `readLimited` adds the read family's RateLimit headers. */
export function okJson<S extends z.ZodType>(description: string, schema: S, options: { readLimited?: boolean } = {}) {
  return {
    description,
    headers: {
      "X-Request-ID": ref("headers", "X-Request-ID"),
      ...(options.readLimited
        ? { "RateLimit-Policy": ref("headers", "RateLimit-Policy"), RateLimit: ref("headers", "RateLimit") }
        : {}),
    },
    content: { "application/json": { schema } },
  };
}

/** The shared error responses for these statuses, e.g. `...errors(400, 401, 403, 429, 500, 503)`. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ref("responses", `E${s}`)])) as Record<number, { $ref: string }>;

/** The error statuses of every authenticated read: bad query, credentials, access, read limit, failure, transient. */
export const READ_ERRORS = [400, 401, 403, 429, 500, 503] as const;
