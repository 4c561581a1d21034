import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { ERROR_CODES, HTTP_ERRORS, type ErrorCode } from "../../platform/http/errors";

/** The error envelope, its `code` enum read from the one table of HTTP errors (workers/platform/http/errors.ts). */
export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      requestId: z.string().meta({ description: "Equals the X-Request-ID response header" }),
    }),
  })
  .meta({ id: "Error", description: "Every error response uses this envelope." });

/** Statuses with a reusable error response (405 is answered for unknown methods, outside any operation). */
const ERROR_STATUSES = [...new Set(Object.values(HTTP_ERRORS).map((e) => e.status))].filter((s) => s !== 405).sort();

const header = (
  description: string,
  schema: { type: "string" | "integer"; minimum?: number } = { type: "string" },
) => ({ description, schema });
const ref = (kind: string, id: string) => ({ $ref: `#/components/${kind}/${id}` });

/** `E429` etc.: every code answered with the status, with its description from the table. */
function errorResponse(status: number) {
  const codes = (Object.keys(HTTP_ERRORS) as ErrorCode[]).filter((c) => HTTP_ERRORS[c].status === status);
  const headers: Record<string, { $ref: string } | ReturnType<typeof header>> = {
    "X-Request-ID": ref("headers", "X-Request-ID"),
  };
  if (status === 429) {
    headers["Retry-After"] = header("Seconds to wait before retrying", { type: "integer", minimum: 1 });
    headers["RateLimit-Policy"] = ref("headers", "RateLimit-Policy");
    headers.RateLimit = ref("headers", "RateLimit");
  }
  return {
    description: codes.map((c) => `${c}: ${HTTP_ERRORS[c].when}`).join("; "),
    headers,
    content: { "application/json": { schema: ref("schemas", "Error") } },
  };
}

/** Registers the shared responses, headers and security schemes into a document's registry. */
export function registerComponents(registry: OpenAPIHono["openAPIRegistry"]) {
  for (const status of ERROR_STATUSES) registry.registerComponent("responses", `E${status}`, errorResponse(status));
  registry.registerComponent(
    "headers",
    "X-Request-ID",
    header("Identifies this HTTP request; equals error.requestId on errors"),
  );
  registry.registerComponent(
    "headers",
    "RateLimit-Policy",
    header('Read policies of the family, e.g. "burst";q=40;w=2, "minute";q=1200;w=60'),
  );
  registry.registerComponent(
    "headers",
    "RateLimit",
    header('Remaining reads per policy, e.g. "burst";r=39;t=1, "minute";r=1199;t=60'),
  );
  registry.registerComponent("securitySchemes", "AppId", {
    type: "apiKey",
    in: "header",
    name: "X-App-ID",
    description: "The App ID",
  });
  registry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "The API key bound to the App (backend use only)",
  });
}
