import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Env, MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../env";
import { MAX_BODY_BYTES } from "./body-limit";
import { invalid } from "./errors";
import { describeIssues, validate, type UnsupportedFields } from "./validation";

/**
 * The Worker's one OpenAPIHono. Routes are declared with `createRoute` (request schemas, responses, errors)
 * and `app.openapi(route, handler)`, and the OpenAPI document is generated from those declarations. Params,
 * query and JSON bodies are validated by the house validator (validation.ts), not the library's: the
 * library would answer with zod's default wording, a 415 for some JSON content types and no 501 for
 * known-but-unsupported fields. Route middleware (auth, access, limits, body size) runs before validation,
 * so an unauthenticated request never learns about field rules.
 */

/** Known-but-unsupported fields of a JSON body declared with `jsonBody` (answered 501, not 400). */
const unsupportedOf = new WeakMap<object, UnsupportedFields>();

/** A required JSON request body for `createRoute`'s `request.body`. */
export function jsonBody<S extends z.ZodType>(schema: S, options: { unsupported?: UnsupportedFields } = {}) {
  const body = {
    required: true,
    description: `JSON, at most ${MAX_BODY_BYTES} bytes. Unknown fields are rejected (400)${options.unsupported ? "; fields of unavailable features give 501" : ""}.`,
    content: { "application/json": { schema } },
  } as const;
  if (options.unsupported) unsupportedOf.set(body, options.unsupported);
  return body;
}

/** Validation failures of the library's own validators (headers, cookies): the house 400 as well. */
const defaultHook = (result: { success: boolean; error?: unknown; target: string }) => {
  if (!result.success) throw invalid(describeIssues((result.error as z.ZodError).issues as never, result.target as never));
};

type Request = NonNullable<RouteConfig["request"]>;

function houseValidators(request: Request | undefined): MiddlewareHandler[] {
  if (!request) return [];
  const out: MiddlewareHandler[] = [];
  if (request.params) out.push(validate("param", request.params as z.ZodType) as MiddlewareHandler);
  if (request.query) out.push(validate("query", request.query as z.ZodType) as MiddlewareHandler);
  const schema = (request.body?.content?.["application/json"] as { schema?: z.ZodType } | undefined)?.schema;
  if (schema) out.push(validate("json", schema, { unsupported: unsupportedOf.get(request.body!) }) as MiddlewareHandler);
  return out;
}

export function openApiApp<E extends Env = AppEnv>() {
  const app = new OpenAPIHono<E>({ defaultHook: defaultHook as never });
  const declare = app.openapi;
  app.openapi = ((route: RouteConfig, handler: never, hook?: never) => {
    const { middleware, hide, request, ...rest } = route;
    // Documented as declared…
    if (!hide) app.openAPIRegistry.registerPath({ ...rest, request } as RouteConfig);
    // …and served with the house validators after the route's own middleware.
    const own = middleware ? (Array.isArray(middleware) ? middleware : [middleware]) : [];
    const library = request && (request.headers || request.cookies) ? { headers: request.headers, cookies: request.cookies } : undefined;
    return declare({ ...rest, request: library, middleware: [...own, ...houseValidators(request)], hide: true } as never, handler, hook);
  }) as typeof declare;
  return app;
}
