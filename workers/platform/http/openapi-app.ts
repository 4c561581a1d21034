import { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../env";
import { MAX_BODY_BYTES } from "./body-limit";
import { invalid } from "./errors";
import { describeIssues } from "./validation";

/**
 * The Worker's OpenAPIHono apps. Routes are declared with `createRoute` (request schemas, responses, errors)
 * and `app.openapi(route, handler)`; the library validates params, query, headers and bodies after the
 * route's own middleware (auth, access, limits, body size), so an unauthenticated request never learns about
 * field rules. Every validation failure becomes 400 invalid_request naming the field and the rule.
 */
export function openApiApp<E extends Env = AppEnv>() {
  return new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) throw invalid(describeIssues(result.error.issues, result.target));
    },
  });
}

/**
 * A required JSON request body for `createRoute`'s `request.body`. Routes that take one also run
 * `jsonInput` (validation.ts) in their middleware: content type, JSON syntax and unavailable features first.
 */
export function jsonBody<S extends z.ZodType>(schema: S, options: { unsupported?: object } = {}) {
  return {
    required: true,
    description: `JSON, at most ${MAX_BODY_BYTES} bytes. Unknown fields are rejected (400)${options.unsupported ? "; fields of unavailable features give 501" : ""}.`,
    content: { "application/json": { schema } },
  } as const;
}
