import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import { registerComponents } from "./components";

/**
 * The OpenAPI 3.1 document of a set of routes, generated from their `createRoute` declarations:
 * `getOpenAPI31Document` lays out the operations (paths, security, parameters, bodies, responses), then
 * every schema in it is zod's own JSON Schema (`z.toJSONSchema`, draft 2020-12, which OpenAPI 3.1 uses as
 * is). zod's output is exact for zod 4 (multipleOf, patterns, `$ref` with a description beside it), where
 * the library's converter drops or rewrites some of it. Schemas with `.meta({ id })` become components.
 */

type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null;

/** The object at `keys` below `node`: one the library lays out for every route (an operation, a media type…). */
function at(node: Json, ...keys: string[]): Json {
  let cur = node;
  for (const key of keys) {
    const next = cur[key];
    if (!isJson(next)) throw new Error(`OpenAPI document: no object at ${keys.join(" ")}`);
    cur = next;
  }
  return cur;
}

/** The response schema of the routes that serve an OpenAPI document: a JSON object, documented as such. */
export const OpenApiDocument = z.custom<Json>((v) => typeof v === "object" && v !== null).meta({ type: "object" });
export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  tags: { name: string; description: string }[];
}

const COMPONENT_URI = (id: string) => `#/components/schemas/${id}`;
const isZod = (s: unknown): s is z.ZodType => !!s && typeof s === "object" && "_zod" in s;
const idOf = (schema: z.ZodType) => (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;

function strip(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** `#/$defs/X` → the component X: zod puts an inline schema's registered parts in its own `$defs`, which a
 * `$ref` inside an OpenAPI document cannot reach (it resolves against the document root). */
function defsToComponents(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(defsToComponents);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$defs") continue;
    out[k] =
      k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")
        ? COMPONENT_URI(v.slice("#/$defs/".length))
        : defsToComponents(v);
  }
  return out;
}

/** A schema as used inside the document: a $ref when it is a component, else inline (its registered parts as $refs). */
function schemaFor(schema: z.ZodType): Json {
  const id = idOf(schema);
  if (id) return { $ref: COMPONENT_URI(id) };
  return defsToComponents(
    strip(z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Json),
  ) as Json;
}

/** Every component reachable from the document (the global registry also holds other modules' schemas). */
function components(doc: Json): Record<string, Json> {
  const all = z.toJSONSchema(z.globalRegistry, {
    io: "input",
    unrepresentable: "any",
    uri: COMPONENT_URI,
    target: "draft-2020-12",
  }).schemas as Record<string, Json>;
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
  visit(doc);
  return out;
}

/** Path and query parameters, one per field; repeatable (array) query fields are form-exploded. */
function parameters(request: RouteConfig["request"]): Json[] {
  const out: Json[] = [];
  for (const [where, obj] of [
    ["path", request?.params],
    ["query", request?.query],
  ] as const) {
    if (!obj) continue;
    for (const [name, field] of Object.entries((obj as z.ZodObject).shape as Record<string, z.ZodType>)) {
      const { description, ...schema } = schemaFor(field);
      out.push({
        name,
        in: where,
        required: where === "path" || !field.safeParse(undefined).success,
        ...(description ? { description } : {}),
        ...(schema.type === "array" ? { style: "form", explode: true } : {}),
        schema,
      });
    }
  }
  return out;
}

/** The zod schema of one of a route's media types (none when it is a `$ref` or a plain JSON Schema). */
const zodSchemaOf = (media: unknown) => (isJson(media) && isZod(media.schema) ? media.schema : undefined);

/** Replaces the library's schemas of one operation with zod's own. */
function useZodSchemas(operation: Json, route: RouteConfig) {
  operation.parameters = parameters(route.request);
  for (const [type, media] of Object.entries(route.request?.body?.content ?? {})) {
    const schema = zodSchemaOf(media);
    if (schema) at(operation, "requestBody", "content", type).schema = schemaFor(schema);
  }
  for (const [status, response] of Object.entries(route.responses)) {
    for (const [type, media] of Object.entries(("content" in response ? response.content : undefined) ?? {})) {
      const schema = zodSchemaOf(media);
      if (schema) at(operation, "responses", status, "content", type).schema = schemaFor(schema);
    }
  }
}

const LICENSE = { name: "MIT", identifier: "MIT" };
const registered = new WeakSet<object>();

export function generateDocument(
  api: Pick<OpenAPIHono, "openAPIRegistry" | "getOpenAPI31Document">,
  serverUrl: string,
  info: DocumentInfo,
): Json {
  if (!registered.has(api.openAPIRegistry)) {
    registerComponents(api.openAPIRegistry);
    registered.add(api.openAPIRegistry);
  }
  const { openapi, ...generated } = api.getOpenAPI31Document({
    openapi: "3.1.0",
    // The repository's licence (LICENSE), which the document and the SDKs generated from it are under.
    info: { title: info.title, version: info.version, description: info.description, license: LICENSE },
    servers: [{ url: serverUrl }],
    tags: info.tags,
  });
  // The dialect of every schema (zod's draft 2020-12), which the library's config type does not list.
  const doc: Json = { openapi, jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema", ...generated };
  for (const def of api.openAPIRegistry.definitions) {
    if (def.type === "route") useZodSchemas(at(doc, "paths", def.route.path, def.route.method), def.route);
  }
  const { parameters: _p, schemas: _s, ...shared } = isJson(doc.components) ? doc.components : {};
  delete doc.webhooks;
  doc.components = { schemas: components(doc), ...shared };
  return doc;
}
