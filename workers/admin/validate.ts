import { zValidator } from "@hono/zod-validator";
import { createMiddleware } from "hono/factory";
import type { ValidationTargets } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { invalid } from "../http/errors";

/** "limits.avatar.perMinute must be at most 20 …" — the field path, then the rule. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
  if (issue.code === "unrecognized_keys") return `${path ? `${path}: ` : ""}unknown field(s) ${issue.keys.join(", ")}`;
  const message = issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message;
  if (!path || message.startsWith(path)) return message;
  return /^(must|is) /.test(message) ? `${path} ${message}` : `${path}: ${message}`;
}

/**
 * Admin body/param validation with @hono/zod-validator; failures become 400 invalid_request in the envelope.
 * The first issue is reported: a message naming one field and one rule.
 */
export const validate = <T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) =>
  zValidator(target, schema, (result) => {
    if (!result.success) throw invalid(describeIssue(result.error.issues[0]));
  });

/**
 * JSON bodies: wrong Content-Type or unparsable JSON → 400 before validation (the validator would otherwise
 * see `{}` or throw a non-envelope error). The parsed body is cached for the validator. `optional`: a request
 * without a body (no Content-Type, empty) validates as `{}`.
 */
export const jsonBody = (opts: { optional?: boolean } = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const type = c.req.header("Content-Type") ?? "";
    if (opts.optional && !type && !(await c.req.raw.clone().text())) return next();
    if (!/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) throw invalid("Content-Type must be application/json");
    try {
      await c.req.json();
    } catch {
      throw invalid("Request body must be valid JSON");
    }
    await next();
  });
