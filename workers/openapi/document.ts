import { z } from "zod";
import { MAX_BODY_BYTES } from "../http/body-limit";
import { operations, type Operation } from "./contract";

/**
 * OpenAPI 3.1 document generated from the contract's zod schemas (zod 4 `z.toJSONSchema`, JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is). Schemas carrying `.meta({ id })` become components.
 */

type Json = Record<string, unknown>;

const COMPONENT_URI = (id: string) => `#/components/schemas/${id}`;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "invalid_request: malformed JSON, wrong types, missing fields, invalid IDs, invalid settings or page tokens",
  401: "unauthorized: missing or mismatched credentials, revoked App or inactive account (message: Unauthorized.)",
  402: "insufficient_avatar_units: no Avatar Creations left",
  403: "forbidden: access not configured, creation disabled, or Avatar access denied",
  404: "not_found: the resource does not exist or belongs to another account",
  409: "conflict: the requestId already identifies different normalized input",
  429: "rate_limit_exceeded or concurrency_limit_exceeded; wait Retry-After seconds",
  501: "unsupported_input: a feature this version does not offer (callbacks, text-to-speech, uploads)",
  503: "service_unavailable: transient failure or a download link could not be produced; retry",
};

const idOf = (schema: z.ZodType) => (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;

function strip(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** A schema as used inside the document: a $ref when it is a component, else inline. */
function schemaFor(schema: z.ZodType): Json {
  const id = idOf(schema);
  if (id) return { $ref: COMPONENT_URI(id) };
  return strip(z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Json);
}

/** Every component reachable from the given roots (the global registry may hold other modules' schemas). */
function components(roots: Json[]): Record<string, Json> {
  const all = z.toJSONSchema(z.globalRegistry, { io: "input", unrepresentable: "any", uri: COMPONENT_URI, target: "draft-2020-12" })
    .schemas as Record<string, Json>;
  const out: Record<string, Json> = {};
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        const id = v.slice("#/components/schemas/".length);
        if (!out[id] && all[id]) {
          out[id] = strip(all[id]);
          visit(out[id]);
        }
      } else visit(v);
    }
  };
  visit(roots);
  return out;
}

function parameters(op: Operation): Json[] {
  const out: Json[] = [];
  for (const [where, obj] of [["path", op.params], ["query", op.query]] as const) {
    if (!obj) continue;
    for (const [name, field] of Object.entries(obj.shape as Record<string, z.ZodType>)) {
      const schema = schemaFor(field);
      const { description, ...rest } = schema;
      const isArray = rest.type === "array";
      out.push({
        name,
        in: where,
        required: where === "path" || !field.safeParse(undefined).success,
        ...(description ? { description } : {}),
        ...(isArray ? { style: "form", explode: true } : {}),
        schema: rest,
      });
    }
  }
  return out;
}

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema });

function responses(op: Operation): Json {
  const okHeaders: Json = { "X-Request-ID": { $ref: "#/components/headers/X-Request-ID" } };
  if (op.readFamily) {
    okHeaders["RateLimit-Policy"] = { $ref: "#/components/headers/RateLimit-Policy" };
    okHeaders.RateLimit = { $ref: "#/components/headers/RateLimit" };
  }
  const ok = op.response;
  const content = ok.schema
    ? { "application/json": { schema: schemaFor(ok.schema) } }
    : { [ok.contentType ?? "application/json"]: { schema: ok.contentType === "text/html" ? { type: "string" } : { type: "object" } } };
  const out: Json = { [String(ok.status)]: { description: ok.description, headers: okHeaders, content } };
  for (const status of [...new Set([...op.errors, ...(op.auth === "none" ? [] : [500])])].sort()) {
    out[String(status)] = { $ref: `#/components/responses/E${status}` };
  }
  return out;
}

function errorResponses(): Json {
  const out: Json = {};
  for (const status of [400, 401, 402, 403, 404, 409, 429, 500, 501, 503]) {
    const headers: Json = { "X-Request-ID": { $ref: "#/components/headers/X-Request-ID" } };
    if (status === 429) {
      headers["Retry-After"] = header("Seconds to wait before retrying", { type: "integer", minimum: 1 });
      headers["RateLimit-Policy"] = { $ref: "#/components/headers/RateLimit-Policy" };
      headers.RateLimit = { $ref: "#/components/headers/RateLimit" };
    }
    out[`E${status}`] = {
      description: ERROR_DESCRIPTIONS[status] ?? "internal_error: unexpected failure; retry with bounded backoff",
      headers,
      content: { "application/json": { schema: { $ref: COMPONENT_URI("Error") } } },
    };
  }
  return out;
}

export function buildOpenApiDocument(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of Object.values(operations) as Operation[]) {
    const operation: Json = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      security: op.auth === "app" ? [{ AppId: [], ApiKey: [] }] : op.auth === "apiKey" ? [{ ApiKey: [] }] : [],
      parameters: parameters(op),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              description: `JSON, at most ${MAX_BODY_BYTES} bytes. Unknown fields are rejected (400); fields of unavailable features give 501.`,
              content: { "application/json": { schema: schemaFor(op.body) } },
            },
          }
        : {}),
      responses: responses(op),
    };
    (paths[op.path] ??= {})[op.method] = operation;
  }
  const roots = [paths, errorResponses()];
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Avatar and Video Open API",
      version: "1.0.0",
      description:
        "HTTP and JSON API for backends: Avatar creation from an image, video rendering from an Avatar and an audio file, reads of Avatars and jobs, and session tokens. Private beta: access is enabled per account. Every response carries X-Request-ID; every error uses the Error envelope.",
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: "Avatars", description: "Avatar creation jobs and Avatars" },
      { name: "Videos", description: "Video jobs: URL inputs and polling only" },
      { name: "Session tokens", description: "Console endpoint (X-API-Key only)" },
      { name: "Reference", description: "This document and its HTML rendering" },
    ],
    paths,
    components: {
      schemas: components(roots),
      responses: errorResponses(),
      headers: {
        "X-Request-ID": header("Identifies this HTTP request; equals error.requestId on errors"),
        "RateLimit-Policy": header('Read policies of the family, e.g. "burst";q=40;w=2, "minute";q=1200;w=60'),
        RateLimit: header('Remaining reads per policy, e.g. "burst";r=39;t=1, "minute";r=1199;t=60'),
      },
      securitySchemes: {
        AppId: { type: "apiKey", in: "header", name: "X-App-ID", description: "The App ID" },
        ApiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "The API key bound to the App (backend use only)" },
      },
    },
  };
}
