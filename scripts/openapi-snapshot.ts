// Rewrites the OpenAPI snapshots that test/worker/api/openapi-snapshot.test.ts compares the served documents with.
// Run after an intended contract change; the diff of the two JSON files is the change a caller sees.
import { writeFileSync } from "node:fs";
import { buildAdminDocument } from "../workers/api/admin/routes";
import { buildOpenApiDocument } from "../workers/api/public-api";

const BASE = "http://127.0.0.1:8787";
const out = new URL("../test/worker/fixtures/openapi/", import.meta.url);
writeFileSync(new URL("open.json", out), JSON.stringify(buildOpenApiDocument(BASE)));
writeFileSync(new URL("admin.json", out), JSON.stringify(buildAdminDocument(`${BASE}/v1/admin`)));
console.log(`wrote ${out.pathname}open.json and admin.json`);
