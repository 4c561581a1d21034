import type { OperationExample } from "./examples";

type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null;

/** Single-quoted for a POSIX shell. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The security schemes an operation names (none for the public reference routes). */
const schemesOf = (op: Json) =>
  Array.isArray(op.security) ? op.security.flatMap((s) => (isJson(s) ? Object.keys(s) : [])) : [];

/** The curl command of one operation, with the variables `npm run admin -- create-app` prints. */
function curl(serverUrl: string, method: string, path: string, op: Json, ex: OperationExample): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => ex.path?.[name] ?? `<${name}>`);
  const url = `${serverUrl}${filled}${ex.query ? `?${ex.query}` : ""}`;
  const schemes = schemesOf(op);
  const lines = [`curl -s${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${url}"`];
  if (schemes.includes("AppId")) lines.push('-H "X-App-ID: $AVATAR_VIDEO_APP_ID"');
  if (schemes.includes("ApiKey")) lines.push('-H "X-API-Key: $AVATAR_VIDEO_API_KEY"');
  if (ex.request) lines.push("-H 'Content-Type: application/json'", `-d ${shellQuote(JSON.stringify(ex.request))}`);
  return lines.join(" \\\n  ");
}

/** The SDKs read the same variables as the curl samples (AVATAR_VIDEO_BASE_URL, _APP_ID, _API_KEY). */
const node = (op: Json, ex: OperationExample) =>
  schemesOf(op).length === 0
    ? ex.node
    : `import { AvatarVideo } from "@avatar-video/client";\n\nconst av = new AvatarVideo(); // reads AVATAR_VIDEO_BASE_URL, _APP_ID, _API_KEY\n${ex.node}`;
const python = (op: Json, ex: OperationExample) =>
  schemesOf(op).length === 0
    ? ex.python
    : `from avatar_video import AvatarVideo\n\nav = AvatarVideo()  # reads AVATAR_VIDEO_BASE_URL, _APP_ID, _API_KEY\n${ex.python}`;

/**
 * Adds the examples to a generated document: `example` on the JSON request body and on the 2xx response,
 * and `x-codeSamples` (curl, the Node and the Python SDK; the Redoc/Scalar convention) on the operation.
 * An operation without an example is an error: every public operation teaches by example.
 */
export function withExamples(doc: Json, examples: Record<string, OperationExample>): Json {
  const serverUrl = String((Array.isArray(doc.servers) && isJson(doc.servers[0]) && doc.servers[0].url) || "");
  for (const [path, item] of Object.entries(isJson(doc.paths) ? doc.paths : {})) {
    for (const [method, op] of Object.entries(isJson(item) ? item : {})) {
      if (!isJson(op)) continue;
      const ex = examples[String(op.operationId)];
      if (!ex) throw new Error(`OpenAPI examples: none for ${op.operationId} (${method.toUpperCase()} ${path})`);
      const body = isJson(op.requestBody) && isJson(op.requestBody.content) ? op.requestBody.content : {};
      for (const media of Object.values(body)) if (isJson(media) && ex.request) media.example = ex.request;
      const responses = isJson(op.responses) ? op.responses : {};
      const ok = Object.entries(responses).find(([status]) => status.startsWith("2"))?.[1];
      const content = isJson(ok) && isJson(ok.content) ? ok.content : {};
      for (const media of Object.values(content)) if (isJson(media)) media.example = ex.response;
      op["x-codeSamples"] = [
        { lang: "Shell", label: "curl", source: curl(serverUrl, method, path, op, ex) },
        { lang: "JavaScript", label: "Node SDK", source: node(op, ex) },
        { lang: "Python", label: "Python SDK", source: python(op, ex) },
      ];
    }
  }
  return doc;
}
