import { zValidator } from "@hono/zod-validator";
import type { Context, MiddlewareHandler, ValidationTargets } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../env";
import { ApiError, invalid } from "./errors";

/**
 * Request validation: zod schemas through @hono/zod-validator, every failure rendered as
 * 400 invalid_request with a message naming the field path and the rule ("video.width must be even",
 * "imageUrl is required"). Known-but-unsupported features (callbacks, text-to-speech, …) are 501.
 */

type Target = keyof ValidationTargets;
type Issue = z.core.$ZodIssue;

/** Field names of features this version does not offer → why (501 unsupported_input). */
export type UnsupportedFields = Record<string, string>;

export interface ValidateOptions {
  /** Top-level body fields that name a feature this version lacks: answered 501, not 400. */
  unsupported?: UnsupportedFields;
}

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
      .map((k) => (path ? `${path}.${k} is not a known field` : `${k} is not a known ${target === "query" ? "query parameter" : "field"}`))
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

function unsupportedField(issues: readonly Issue[], unsupported: UnsupportedFields | undefined) {
  if (!unsupported) return undefined;
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys" || issue.path.length > 0) continue;
    const key = issue.keys.find((k) => Object.hasOwn(unsupported, k));
    if (key) return key;
  }
  return undefined;
}

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Reads and parses the body before zod sees it, so malformed JSON and wrong content types get their
 * own messages. An empty body without a Content-Type is validated as `{}` (missing fields are named).
 */
async function readJsonBody(c: Context<AppEnv>) {
  const contentType = c.req.header("Content-Type");
  const text = await c.req.text();
  if (!contentType && text.trim() === "") return;
  const mediaType = (contentType ?? "").split(";")[0]!.trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw invalid(`Content-Type must be application/json (got ${contentType ? JSON.stringify(mediaType) : "none"})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid("Request body must be valid JSON");
  }
  // Hand the parsed value to the validator through Hono's body cache (no second parse).
  c.req.bodyCache.json = Promise.resolve(parsed);
}

/**
 * `validate("json", Schema)` — the validated value is read with `c.req.valid("json")`.
 * Failures throw ApiError, rendered in the error envelope by the app's onError.
 */
export function validate<T extends Target, S extends z.ZodType>(target: T, schema: S, options: ValidateOptions = {}) {
  const inner = zValidator(
    target,
    schema,
    (result) => {
      if (result.success) return;
      const issues = result.error.issues as Issue[];
      const feature = unsupportedField(issues, options.unsupported);
      if (feature) throw new ApiError(501, "unsupported_input", `${feature} is not supported by this version: ${options.unsupported![feature]}`);
      throw invalid(describeIssues(issues, target));
    },
    // Per-parse error map: our rule texts without touching zod's global config (other modules parse too).
    { validationFunction: (s, value) => s.safeParseAsync(value, { error: ruleFor }) as never },
  );
  if (target !== "json") return inner;
  const withBody: MiddlewareHandler<AppEnv> = async (c, next) => {
    await readJsonBody(c);
    return inner(c as never, next);
  };
  return withBody as unknown as typeof inner;
}
