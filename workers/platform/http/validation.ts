import type { Context, MiddlewareHandler, ValidationTargets } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { apiError, invalid } from "./errors";

/**
 * Request validation messages: every failure is 400 invalid_request with a message naming the field path and
 * the rule ("video.width must be even", "imageUrl is required"). Known-but-unsupported features (callbacks,
 * text-to-speech, …) are 501.
 */

type Target = keyof ValidationTargets;
type Issue = z.core.$ZodIssue;

/** Field names of features this version does not offer → why (501 unsupported_input). */
export type UnsupportedFields = Record<string, string>;

const WHERE: Record<string, string> = { json: "Request body", query: "Query", param: "Path" };

/** The rule for issues whose schema sets no message of its own (applied per parse, not globally). */
export const ruleFor: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case "invalid_type":
      if (iss.input === undefined) return "is required";
      if (iss.expected === "int") return "must be an integer";
      if (iss.expected === "number" && typeof iss.input === "number") return "must be a finite number";
      return `must be ${article(iss.expected)}`;
    case "too_small":
      if (iss.origin === "string") return `must be at least ${iss.minimum} character${iss.minimum === 1 ? "" : "s"}`;
      if (iss.origin === "array") return `must have at least ${iss.minimum} item${iss.minimum === 1 ? "" : "s"}`;
      return `must be ${iss.inclusive ? "at least" : "greater than"} ${iss.minimum}`;
    case "too_big":
      if (iss.origin === "string") return `must be at most ${iss.maximum} characters`;
      if (iss.origin === "array") return `must have at most ${iss.maximum} items`;
      return `must be ${iss.inclusive ? "at most" : "less than"} ${iss.maximum}`;
    case "invalid_format":
      if (iss.format === "uuid" || iss.format === "guid") return "must be a UUID";
      return `must be a valid ${iss.format}`;
    case "invalid_value":
      return `must be one of ${iss.values.map(String).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${iss.divisor}`;
    default:
      return undefined;
  }
};

function article(expected: string) {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** `video.width`, `statuses[1]`; query keys such as `pagination.pageSize` stay as they are. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

/** One readable sentence per issue, each naming the field and the rule. */
export function describeIssue(issue: Issue, target: Target): string {
  const path = formatPath(issue.path);
  const where = WHERE[target] ?? "Request";
  if (issue.code === "unrecognized_keys") {
    return issue.keys
      .map((k) =>
        path
          ? `${path}.${k} is not a known field`
          : `${k} is not a known ${target === "query" ? "query parameter" : "field"}`,
      )
      .join("; ");
  }
  if (!path) return `${where} ${issue.message}`;
  // Some schemas (video settings) already write the full path into their messages.
  if (issue.message.startsWith(`${path} `) || issue.message.startsWith(`${path}.`)) return issue.message;
  return `${path} ${issue.message}`;
}

/** Several problems are reported together (at most five, deduplicated) so one round trip fixes them. */
export function describeIssues(issues: readonly Issue[], target: Target): string {
  const sentences = [...new Set(issues.map((i) => describeIssue(i, target)))];
  const shown = sentences.slice(0, 5).join("; ");
  return sentences.length > 5 ? `${shown}; and ${sentences.length - 5} more problem(s)` : shown;
}

// Our rule texts for every zod parse in the Worker. A schema's own message still wins (zod's precedence),
// and the library's validators have no per-parse option, so the map is set once, here.
z.config({ customError: ruleFor });

/** JSON media types as the OpenAPI library's body check accepts them (parameters included). */
const JSON_CONTENT_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/**
 * The JSON body of a request, decided here for every route (open, console, admin, internal): a blank body
 * (empty or whitespace only) without a Content-Type is no body (`undefined`); anything else must be declared
 * as JSON and parse as JSON. Messages name the problem; nothing here answers 5xx.
 */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const contentType = (c.req.header("Content-Type") ?? "").trim();
  // The type is checked before the text is read: a body declared as something else is not decoded at all.
  if (contentType !== "" && !JSON_CONTENT_TYPE.test(contentType)) {
    const mediaType = JSON.stringify(contentType.split(";")[0]!.trim());
    throw invalid(`Content-Type must be application/json (got ${mediaType})`);
  }
  const text = await c.req.text();
  if (text.trim() === "") {
    if (contentType === "") return undefined;
    throw invalid("Request body must be valid JSON (it is empty)");
  }
  if (contentType === "") throw invalid("Content-Type must be application/json (got none)");
  try {
    return JSON.parse(text);
  } catch {
    throw invalid("Request body must be valid JSON");
  }
}

/**
 * Middleware of every route with a JSON body (after `limitBody`), before the library's validator: the body
 * as `readJsonBody` decides, then top-level fields of features this version lacks (501, not 400). No body is
 * validated as `{}` (missing fields are named). The result reaches the validator through Hono's body cache
 * (no second parse); a blank body is cached as empty so the library's media-type check sees none.
 */
export function jsonInput(options: { unsupported?: UnsupportedFields } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const parsed = await readJsonBody(c);
    const feature = unsupportedField(parsed, options.unsupported);
    if (feature)
      throw apiError(
        "unsupported_input",
        `${feature} is not supported by this version: ${options.unsupported![feature]}`,
      );
    // Hono caches promises under these keys although its type names the resolved values.
    const empty = Promise.resolve(new ArrayBuffer(0)) as unknown as ArrayBuffer;
    c.req.bodyCache = parsed === undefined ? { arrayBuffer: empty } : { json: Promise.resolve(parsed) };
    await next();
  };
}

function unsupportedField(body: unknown, unsupported: UnsupportedFields | undefined): string | undefined {
  if (!unsupported || !body || typeof body !== "object" || Array.isArray(body)) return undefined;
  return Object.keys(body).find((k) => Object.hasOwn(unsupported, k));
}
