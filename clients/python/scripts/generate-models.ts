// Writes clients/python/src/avatar_video/models.py: a frozen dataclass per object schema of the Open API
// (Literal aliases for string enums), with from_dict() for answers and to_dict() for requests. Read from the
// OpenAPI snapshot (test/worker/fixtures/openapi/open.json), which test/worker/api/openapi-snapshot.test.ts keeps
// equal to the Worker's document: run `npm run openapi:snapshot` first after a contract change.
// `--check` fails when the committed file is out of date (test/client/python-sdk.test.ts runs it).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface Schema {
  type?: string;
  $ref?: string;
  enum?: string[];
  const?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
}

const SNAPSHOT = new URL("../../../test/worker/fixtures/openapi/open.json", import.meta.url);
const OUT = new URL("../src/avatar_video/models.py", import.meta.url);
const WIDTH = 116;
const KEYWORDS = new Set(["from", "import", "class", "def", "global", "in", "is", "lambda", "type", "async"]);

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);
const refName = (ref: string) => ref.split("/").at(-1)!;

/** Text wrapped to the line width after `prefix` (a comment's `#: ` or a docstring's indent). */
function wrap(text: string, prefix: string): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && prefix.length + line.length + 1 + word.length > WIDTH) {
        lines.push(prefix + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push((prefix + line).trimEnd());
  }
  return lines;
}

/** One Python class being written, and the classes of its inline objects (written before it). */
class Generator {
  readonly blocks: string[] = [];
  readonly exported: string[] = [];

  constructor(private readonly schemas: Record<string, Schema>) {}

  /** A schema without `null`: its type, and whether null was one of its options. */
  private nonNull(schema: Schema): { schema: Schema; nullable: boolean } {
    const options = schema.anyOf?.filter((s) => s.type !== "null");
    if (schema.anyOf && options?.length === 1)
      return { schema: { description: schema.description, ...options[0]! }, nullable: true };
    if (schema.anyOf) throw new Error(`anyOf with ${schema.anyOf.length} options is not supported`);
    return { schema, nullable: false };
  }

  /** The Python type of a value; inline objects become classes named after where they sit. */
  private pyType(schema: Schema, context: string): string {
    if (schema.$ref) return refName(schema.$ref);
    if (schema.const !== undefined) return `Literal[${JSON.stringify(schema.const)}]`;
    if (schema.enum) return `Literal[${schema.enum.map((v) => JSON.stringify(v)).join(", ")}]`;
    if (schema.type === "object") return this.objectClass(context, schema);
    if (schema.type === "array") return `list[${this.pyType(schema.items ?? {}, context)}]`;
    if (schema.type === "string") return schema.format === "date-time" ? "datetime" : "str";
    if (schema.type === "integer") return "int";
    if (schema.type === "number") return "float";
    if (schema.type === "boolean") return "bool";
    throw new Error(`${context}: no Python type for ${JSON.stringify(schema)}`);
  }

  /** The function reading a JSON value as the Python type, e.g. `read_datetime`; undefined for plain values. */
  private reader(schema: Schema, context: string): string | undefined {
    if (schema.$ref)
      return this.schemas[refName(schema.$ref)]?.type === "object" ? `${refName(schema.$ref)}.from_dict` : undefined;
    if (schema.type === "object") return `${context}.from_dict`;
    if (schema.type === "string" && schema.format === "date-time") return "read_datetime";
    if (schema.type !== "array") return undefined;
    const item = this.reader(schema.items ?? {}, context);
    return item ? `read_each(${item})` : undefined;
  }

  /** Writes the dataclass of an object schema; returns its name. */
  objectClass(name: string, schema: Schema): string {
    const required = new Set(schema.required ?? []);
    const fields: string[] = [];
    const reads: string[] = [];
    for (const [wire, property] of Object.entries(schema.properties ?? {})) {
      const field = snake(wire);
      if (camel(field) !== wire || KEYWORDS.has(field)) throw new Error(`${name}.${wire}: no Python field name`);
      const { schema: inner, nullable } = this.nonNull(property);
      const context = name + pascal(wire);
      // Left out of the JSON when absent (default None); `nullable` ones are always there, perhaps null.
      const optional = !required.has(wire);
      const suffix = optional ? " | None = None" : nullable ? " | None" : "";
      const description = property.description ?? inner.description;
      if (description) fields.push(...wrap(description, "    #: "));
      let type = this.pyType(inner, context);
      const line = `    ${field}: ${type}${suffix}`;
      // A long inline enum gets a name of its own, after where it sits (e.g. AvatarCheckCode).
      if (line.length > WIDTH && inner.enum) type = this.alias(context, inner.enum, []);
      fields.push(`    ${field}: ${type}${suffix}`);
      const read = this.reader(inner, context);
      const value = optional ? `data.get("${wire}")` : `data["${wire}"]`;
      if (!read) reads.push(`            ${field}=${value},`);
      else if (optional || nullable) reads.push(`            ${field}=read_optional(${value}, ${read}),`);
      else reads.push(`            ${field}=${read}(${value}),`);
    }
    const doc = schema.description ? wrap(schema.description, "    ") : [];
    if (doc.length) doc[0] = `    """${doc[0]!.trimStart()}`;
    this.blocks.push(
      [
        "@dataclass(frozen=True, kw_only=True)",
        `class ${name}(Model):`,
        ...(doc.length === 1 ? [`${doc[0]}"""`, ""] : doc.length ? [...doc, '    """', ""] : []),
        ...fields,
        "",
        "    @classmethod",
        `    def from_dict(cls, data: Mapping[str, Any]) -> ${name}:`,
        "        return cls(",
        ...reads,
        "        )",
      ].join("\n"),
    );
    this.exported.push(name);
    return name;
  }

  /** A named schema: a Literal alias for a string enum, else a dataclass. */
  named(name: string, schema: Schema): void {
    if (schema.type === "string" && schema.enum)
      this.alias(name, schema.enum, schema.description ? wrap(schema.description, "#: ") : []);
    else this.objectClass(name, schema);
  }

  /** Writes `name = Literal[...]`, one value a line; returns the name. */
  alias(name: string, values: string[], comment: string[]): string {
    const lines = values.map((v) => `    ${JSON.stringify(v)},`);
    this.blocks.push([...comment, `${name} = Literal[`, ...lines, "]"].join("\n"));
    this.exported.push(name);
    return name;
  }
}

const HEADER = `# Generated by \`npm run client:generate\` (clients/python/scripts/generate-models.ts) from the OpenAPI
# document. Do not edit.
"""The Open API's resources as frozen dataclasses: \`from_dict\` reads an answer (unknown fields are ignored,
so a newer server does not break an older client); \`to_dict\` writes a request (optional fields left as None
are left out). Field names are the API's in snake_case; timestamps are timezone-aware datetimes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from ._model import Model, read_datetime, read_each, read_optional
`;

export function generatePythonModels(): string {
  const doc = JSON.parse(readFileSync(SNAPSHOT, "utf8")) as { components: { schemas: Record<string, Schema> } };
  const generator = new Generator(doc.components.schemas);
  for (const [name, schema] of Object.entries(doc.components.schemas)) generator.named(name, schema);
  const all = `__all__ = [\n${[...generator.exported, "Model"]
    .sort()
    .map((n) => `    "${n}",`)
    .join("\n")}\n]`;
  return `${HEADER}\n\n${generator.blocks.join("\n\n\n")}\n\n\n${all}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fresh = generatePythonModels();
  if (process.argv.includes("--check")) {
    if (readFileSync(OUT, "utf8") !== fresh) {
      console.error("clients/python/src/avatar_video/models.py is out of date: run `npm run client:generate`.");
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, fresh);
    console.log(`wrote ${fileURLToPath(OUT)}`);
  }
}
