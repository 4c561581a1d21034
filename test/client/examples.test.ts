import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { API_KEY } from "./fixtures.js";
import { type Seen, useScriptedServer } from "./scripted-server.js";

// clients/examples: every file runs against a scripted server answering the OpenAPI document's example response.
const exec = promisify(execFile);
const server = useScriptedServer();
const DIR = "clients/examples";

interface Operation {
  method: string;
  path: string;
  secured: string[];
  example: unknown;
}

const doc = JSON.parse(readFileSync("test/worker/fixtures/openapi/open.json", "utf8"));
const operations = new Map<string, Operation>();
for (const [path, item] of Object.entries<Record<string, Record<string, never>>>(doc.paths)) {
  for (const [method, op] of Object.entries<Record<string, never>>(item)) {
    const ok = op.responses as Record<string, { content?: Record<string, { example?: unknown }> }>;
    const example = ok["200"]?.content?.["application/json"]?.example;
    const secured = ((op.security ?? []) as Record<string, unknown>[]).flatMap((s) => Object.keys(s));
    if (secured.length) operations.set(op.operationId, { method: method.toUpperCase(), path, secured, example });
  }
}

const env = { AVATAR_VIDEO_APP_ID: "app-examples", AVATAR_VIDEO_API_KEY: API_KEY, PYTHONPATH: "clients/python/src" };
const LANGUAGES: Record<string, (op: string) => [string, string[]]> = {
  curl: (op) => ["sh", [`${DIR}/curl/${op}.sh`]],
  node: (op) => ["node_modules/.bin/tsx", ["--tsconfig", `${DIR}/tsconfig.json`, `${DIR}/node/${op}.mjs`]],
  python: (op) => ["python3", [`${DIR}/python/${op}.py`]],
};

/** Query and body, without the values each run makes anew (retry key, expiry). */
const comparable = (seen: Seen | undefined) => {
  const { requestId: _r, expireAt: _e, ...body } = seen?.body ?? {};
  return { query: [...(seen?.query ?? [])].sort(), body };
};

describe("clients/examples", () => {
  it("has curl, Node and Python for every authenticated operation of the document", () => {
    for (const [language, ext] of [
      ["curl", ".sh"],
      ["node", ".mjs"],
      ["python", ".py"],
    ]) {
      const names = readdirSync(`${DIR}/${language}`).map((f) => f.replace(ext!, ""));
      expect(names.sort(), language).toEqual([...operations.keys()].sort());
    }
  });

  it("type check the Node ones against the SDK", async () => {
    const checked = await exec("node_modules/.bin/tsc", ["--noEmit", "-p", `${DIR}/tsconfig.json`]).catch((e) => e);
    expect(checked.stdout).toBe("");
  });

  for (const [operationId, op] of operations) {
    it(`${operationId}: each language sends ${op.method} ${op.path} and prints the answer`, async () => {
      const route = new RegExp(`^${op.path.replace(/\{\w+\}/g, "[^/]+")}$`);
      const sent: unknown[] = [];
      for (const [language, command] of Object.entries(LANGUAGES)) {
        server.reset();
        // A list's second page ends it (the example's nextPageToken asks for one).
        const last = { body: { ...(op.example as object), pagination: { nextPageToken: "", totalCount: 1 } } };
        server.answer({ body: op.example }, last);
        const [file, args] = command(operationId);
        const { stdout } = await exec(file, args, {
          env: { ...process.env, ...env, AVATAR_VIDEO_BASE_URL: server.url },
        });
        expect(stdout.trim(), language).not.toBe("");
        const seen = server.seen[0];
        expect([seen?.method, route.test(seen?.path ?? "")], language).toEqual([op.method, true]);
        expect(seen?.headers["x-api-key"], language).toBe(API_KEY);
        if (op.secured.includes("AppId")) expect(seen?.headers["x-app-id"], language).toBe("app-examples");
        sent.push(comparable(seen));
      }
      expect(sent[1], "node").toEqual(sent[0]);
      expect(sent[2], "python").toEqual(sent[0]);
    });
  }
});
