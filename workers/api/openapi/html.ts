/**
 * A readable, self-contained API reference (inline CSS, no scripts, no network) rendered from the
 * OpenAPI document, so the page says exactly what the document says. Its style sheet is reference.css.
 */
import { REFERENCE_CSS } from "./generated/reference-css";

/** A node that may be a `$ref` to another part of the document (a schema, a response). */
interface MaybeRef {
  $ref?: string;
  description?: string;
}

/** The parts of a JSON Schema (draft 2020-12) that the page shows. */
interface Schema extends MaybeRef {
  type?: string | string[];
  format?: string;
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  pattern?: string;
}

type Content = Record<string, { schema?: Schema; example?: unknown }>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  explode?: boolean;
  description?: string;
  schema: Schema;
}

interface ResponseObject extends MaybeRef {
  content?: Content;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { description?: string; content?: Content };
  responses: Record<string, ResponseObject>;
  "x-codeSamples"?: { lang: string; label: string; source: string }[];
}

/** The OpenAPI 3.1 document as generateDocument (document.ts) lays it out: the parts the page shows. */
interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, { name?: string }> };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

const esc = (s: unknown) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

interface Row {
  name: string;
  type: string;
  required: boolean;
  rules: string;
  description: string;
}

/** The node a `$ref` chain (at most 10 long) leads to; {} when it leads nowhere. */
function resolve<T extends MaybeRef>(doc: OpenApiDoc, node: T | undefined): T {
  let s = node ?? ({} as T);
  for (let i = 0; i < 10 && typeof s.$ref === "string"; i++) {
    const path = s.$ref.replace(/^#\//, "").split("/");
    s = (path.reduce<unknown>((n, key) => (isObject(n) ? n[key] : undefined), doc) ?? {}) as T;
  }
  return s;
}

function typeOf(doc: OpenApiDoc, schema: Schema): string {
  const s = resolve(doc, schema);
  if (s.const !== undefined) return `"${s.const}"`;
  if (s.type === "array") return `array of ${typeOf(doc, s.items ?? {})}`;
  const ref = typeof schema.$ref === "string" ? schema.$ref.split("/").pop() : undefined;
  if (ref && s.type === "object") return ref;
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? (s.anyOf ? "one of several" : "any"));
  return s.format ? `${t} (${s.format})` : t;
}

function rulesOf(doc: OpenApiDoc, schema: Schema): string {
  const s = resolve(doc, schema);
  const r: string[] = [];
  if (s.enum) r.push(`one of ${s.enum.join(", ")}`);
  const itemEnum = s.items && resolve(doc, s.items).enum;
  if (itemEnum) r.push(`each one of ${itemEnum.join(", ")}`);
  if (s.minLength !== undefined || s.maxLength !== undefined)
    r.push(`length ${s.minLength ?? 0} to ${s.maxLength ?? "∞"}`);
  if (s.minimum !== undefined) r.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) r.push(`≤ ${s.maximum}`);
  if (s.multipleOf !== undefined) r.push(s.multipleOf === 2 ? "even" : `multiple of ${s.multipleOf}`);
  if (s.pattern && !s.format) r.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) r.push(`default ${JSON.stringify(s.default)}`);
  return r.join("; ");
}

/** Object fields flattened with dotted names (video.width, jobs[].status), nested components expanded. */
function rows(doc: OpenApiDoc, schema: Schema, prefix = "", depth = 0, out: Row[] = []): Row[] {
  const s = resolve(doc, schema);
  const required = new Set<string>(s.required ?? []);
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    const full = prefix ? `${prefix}.${name}` : name;
    const c = resolve(doc, child);
    out.push({
      name: full,
      type: typeOf(doc, child),
      required: required.has(name),
      rules: rulesOf(doc, child),
      description: c.description ?? child.description ?? "",
    });
    if (depth < 4 && c.type === "object") rows(doc, c, full, depth + 1, out);
    if (depth < 4 && c.type === "array" && c.items && resolve(doc, c.items).type === "object")
      rows(doc, c.items, `${full}[]`, depth + 1, out);
  }
  return out;
}

function table(list: Row[]): string {
  if (list.length === 0) return "<p class=muted>No fields.</p>";
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Rules</th><th>Notes</th></tr></thead><tbody>${list
    .map(
      (r) =>
        `<tr><td><code>${esc(r.name)}</code></td><td>${esc(r.type)}</td><td>${r.required ? "yes" : "no"}</td><td>${esc(r.rules)}</td><td>${esc(r.description)}</td></tr>`,
    )
    .join("")}</tbody></table>`;
}

function operationHtml(doc: OpenApiDoc, path: string, method: string, op: Operation): string {
  const auth = op.security?.length
    ? Object.keys(op.security[0])
        .map((k) => doc.components.securitySchemes[k].name)
        .join(" + ")
    : "none (public)";
  const params: Row[] = (op.parameters ?? []).map((p) => ({
    name: `${p.name} (${p.in})`,
    type: typeOf(doc, p.schema) + (p.explode ? ", repeatable" : ""),
    required: !!p.required,
    rules: rulesOf(doc, p.schema),
    description: p.description ?? "",
  }));
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const [okStatus, ok] = Object.entries(op.responses).find(([s]) => s.startsWith("2"))!;
  const okSchema = ok.content?.["application/json"]?.schema;
  const pre = (label: string, value: unknown) =>
    value === undefined
      ? ""
      : `<p class=muted>${esc(label)}</p><pre><code>${esc(typeof value === "string" ? value : JSON.stringify(value, null, 2))}</code></pre>`;
  const samples = (op["x-codeSamples"] ?? []).map((c) => pre(c.label, c.source)).join("");
  const errors = Object.keys(op.responses)
    .filter((s) => !s.startsWith("2"))
    .map((s) => `<li><b>${esc(s)}</b> ${esc(resolve(doc, op.responses[s]).description)}</li>`)
    .join("");
  return `<section id="${esc(op.operationId)}">
<h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary)}</p>${op.description ? `<p class=desc>${esc(op.description)}</p>` : ""}
<p><b>Authentication:</b> ${esc(auth)}</p>
${params.length ? `<h4>Parameters</h4>${table(params)}` : ""}
${samples ? `<h4>Code samples</h4>${samples}` : ""}
${body ? `<h4>Request body</h4><p class=muted>${esc(op.requestBody?.description ?? "")}</p>${table(rows(doc, body))}${pre("Example request", op.requestBody?.content?.["application/json"]?.example)}` : ""}
<h4>Response ${esc(okStatus)}</h4><p class=muted>${esc(ok.description)}</p>${okSchema ? table(rows(doc, okSchema)) : ""}${pre("Example response", ok.content?.["application/json"]?.example)}
${errors ? `<h4>Errors</h4><ul>${errors}</ul>` : ""}
</section>`;
}

export function renderReferenceHtml(generated: Record<string, unknown>): string {
  const doc = generated as unknown as OpenApiDoc;
  const ops: [string, string, Operation][] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) ops.push([path, method, op]);
  const byTag = new Map<string, [string, string, Operation][]>();
  for (const o of ops) byTag.set(o[2].tags?.[0] ?? "Other", [...(byTag.get(o[2].tags?.[0] ?? "Other") ?? []), o]);
  const nav = [...byTag]
    .map(
      ([tag, list]) =>
        `<p><b>${esc(tag)}</b><br>${list.map(([p, m, o]) => `<a href="#${esc(o.operationId)}">${esc(m.toUpperCase())} ${esc(p)}</a>`).join("<br>")}</p>`,
    )
    .join("");
  const schemas = Object.keys(doc.components.schemas)
    .sort()
    .map(
      (id) =>
        `<section id="schema-${esc(id)}"><h3>${esc(id)}</h3>${doc.components.schemas[id].description ? `<p>${esc(doc.components.schemas[id].description)}</p>` : ""}${table(rows(doc, doc.components.schemas[id]))}</section>`,
    )
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(doc.info.title)} ${esc(doc.info.version)}</title><style>${REFERENCE_CSS}</style></head><body><main>
<h1>${esc(doc.info.title)} <small class=muted>${esc(doc.info.version)} · OpenAPI ${esc(doc.openapi)}</small></h1>
<p>${esc(doc.info.description)}</p><p class=muted>Server: <code>${esc(doc.servers?.[0]?.url)}</code> · Machine-readable: <a href="openapi.json">openapi.json</a></p>
<nav>${nav}</nav>
${[...byTag].map(([tag, list]) => `<h2>${esc(tag)}</h2>${list.map(([p, m, o]) => operationHtml(doc, p, m, o)).join("")}`).join("")}
<h2>Schemas</h2>${schemas}
</main></body></html>`;
}
