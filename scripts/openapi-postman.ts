/**
 * `npm run openapi:postman`: a Postman collection (v2.1) of the public API, converted from the Worker's own
 * OpenAPI document by openapi-to-postmanv2: one request per operation, in folders by tag, with the examples
 * as bodies. The converter sends one API key header only, so every request instead carries the headers its
 * operation's security names, from the collection variables `appId` and `apiKey` (and `baseUrl`).
 *
 *   npm run openapi:postman [-- --out file.json] [-- --base-url https://api.example.com]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Converter from "openapi-to-postmanv2";
import { buildOpenApiDocument } from "../workers/api/public-api";

type Json = Record<string, unknown>;

export interface PostmanRequest {
  method: string;
  url: { raw?: string; host: string[]; path: string[] };
  header?: { key: string; value: string }[];
  auth?: unknown;
}
export interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: PostmanRequest;
}
export interface PostmanCollection {
  info: { name: string; schema: string };
  item: PostmanItem[];
  variable: { key: string; value: string; type?: string }[];
}

/** The header each security scheme of the document sends, and the collection variable it takes. */
const SCHEME_HEADERS: Record<string, { key: string; variable: string }> = {
  AppId: { key: "X-App-ID", variable: "appId" },
  ApiKey: { key: "X-API-Key", variable: "apiKey" },
};

const convert = (doc: Json) =>
  new Promise<PostmanCollection>((done, fail) =>
    Converter.convert(
      { type: "json", data: doc },
      {
        folderStrategy: "Tags",
        requestParametersResolution: "Example",
        exampleParametersResolution: "Example",
        enableOptionalParameters: false, // listed, off until the caller turns them on
      },
      (err, result) => {
        const data = result?.result ? result.output?.[0]?.data : undefined;
        if (err || !data) return fail(err ?? new Error(`openapi-to-postmanv2: ${result?.reason}`));
        done(data as unknown as PostmanCollection);
      },
    ),
  );

/** Every request of the collection, folders flattened. */
export const requestsOf = (items: PostmanItem[]): PostmanRequest[] =>
  items.flatMap((i) => (i.item ? requestsOf(i.item) : i.request ? [i.request] : []));

/** "get /v1/open/video-jobs/{jobId}": a request's operation, in the document's terms. */
export const operationOf = (r: PostmanRequest) =>
  `${r.method.toLowerCase()} /${r.url.path.map((p) => p.replace(/^:(\w+)$/, "{$1}")).join("/")}`;

/** The collection of a document: the converter's, with the security headers of each operation. */
export async function postmanCollection(doc: Json): Promise<PostmanCollection> {
  const collection = await convert(doc);
  const paths = doc.paths as Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
  for (const request of requestsOf(collection.item)) {
    const [method, path] = operationOf(request).split(" ") as [string, string];
    const schemes = Object.keys(paths[path]?.[method]?.security?.[0] ?? {});
    delete request.auth;
    const headers = (request.header ?? []).filter((h) => !Object.values(SCHEME_HEADERS).some((s) => s.key === h.key));
    for (const scheme of schemes) {
      const header = SCHEME_HEADERS[scheme];
      if (!header) throw new Error(`openapi:postman: no header known for the security scheme ${scheme}`);
      headers.push({ key: header.key, value: `{{${header.variable}}}` });
    }
    request.header = headers;
  }
  const variables = collection.variable.filter((v) => v.key === "baseUrl");
  for (const { variable } of Object.values(SCHEME_HEADERS))
    variables.push({ key: variable, value: "", type: "string" });
  collection.variable = variables;
  return collection;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      out: { type: "string", default: "dist/avatar-video.postman_collection.json" },
      "base-url": { type: "string", default: "http://127.0.0.1:8787" },
    },
  });
  const collection = await postmanCollection(buildOpenApiDocument(values["base-url"]));
  const out = resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(collection, null, 2)}\n`);
  console.log(`wrote ${out} (${requestsOf(collection.item).length} requests; set appId and apiKey in its variables)`);
}
