/**
 * An OpenAPI 3.1 document (GET /v1/open/openapi.json, /v1/admin/openapi.json) as the tests read it: the parts
 * they check. The nodes a test reads through are declared present; a document without one fails the test there.
 */

/** A JSON Schema (draft 2020-12) node: the rules the tests check, any other keyword as unknown. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  required?: string[];
  properties: Record<string, SchemaNode>;
  items?: SchemaNode;
  [keyword: string]: unknown;
}

export interface MediaType {
  schema: SchemaNode;
}

export interface ResponseNode {
  $ref?: string;
  description?: string;
  headers: Record<string, unknown>;
  content: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: SchemaNode;
  [field: string]: unknown;
}

export interface Operation {
  operationId: string;
  security: Record<string, string[]>[];
  parameters: Parameter[];
  requestBody?: { description?: string; content: Record<string, MediaType> };
  responses: Record<string, ResponseNode>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, SchemaNode>;
    responses: Record<string, ResponseNode>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

/** The value `keys` lead to from `root`, read as `root?.[k1]?.[k2]…`: undefined where the path leads nowhere. */
export function lookup(root: unknown, keys: string[]): unknown {
  return keys.reduce<unknown>((node, key) => (node == null ? undefined : (node as Record<string, unknown>)[key]), root);
}
