import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { jobToken } from "../../../workers/pipeline/jobs/tokens";
import { videoKey } from "../../../workers/platform/storage/keys";
import { ADMIN_TOKEN, createAccount, type TestAccount } from "../helpers/accounts";
import { signedIn, type ConsoleClient } from "../helpers/console";
import { insertAvatar, insertVideoJob } from "../helpers/open-fixtures";
import { startRun } from "../helpers/pipeline";

/**
 * Whatever body and headers a caller sends to a JSON route — blank, BOMs, truncated or deep JSON, invalid
 * UTF-8, duplicate or `__proto__` keys, huge numbers, any Content-Type, chunked or not — the answer is never
 * a 5xx and every error is the envelope repeating X-Request-ID (issue 31). The same for odd query strings and
 * path segments of the GET routes.
 */

const RUNS = 60;
const TIMEOUT = 120_000;

interface JsonRoute {
  method: "POST" | "PATCH" | "PUT";
  path: string;
  headers: () => Record<string, string>;
}

const BLANKS = ["", " ", "\n", "\t\r\n", " \t \r\n "];
const CONTENT_TYPES = [
  undefined,
  "",
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset",
  ";",
];
const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const FIELDS = ["avatarId", "audioUrl", "imageUrl", "delta", "name", "email", "type", "parts", "size", "video"];

/** Bodies as bytes, so that no Content-Type is implied by the body's type. */
const enc = (s: string) => new TextEncoder().encode(s);
const bodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.constantFrom(...BLANKS).map(enc),
  fc.json().map((j) => enc(`\uFEFF${j}`)),
  fc.json().chain((j) => fc.nat(j.length).map((n) => enc(j.slice(0, n)))),
  fc.uint8Array({ maxLength: 24 }).map((b) => new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0xff, ...b])),
  fc.constantFrom(...FIELDS).map((f) => enc(`{"${f}":1,"${f}":"x","${f}":null}`)),
  fc
    .constantFrom('{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', '{"__proto__":null}')
    .map(enc),
  fc.constantFrom(...FIELDS).map((f) => enc(`{"${f}":1e400,"x":123456789012345678901234567890}`)),
  fc.constantFrom(...FIELDS).map((f) => enc(`{"${f}":${deep(3000)}}`)),
  fc.constantFrom(deep(100_000), `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`).map(enc),
  fc.json().map(enc),
  fc.string({ unit: "binary", maxLength: 40 }).map(enc),
);

const sentArb = fc.record({
  body: bodyArb,
  type: fc.constantFrom(...CONTENT_TYPES),
  chunked: fc.boolean(),
});
type Sent = { body: Uint8Array; type: string | undefined; chunked: boolean };

function send(route: JsonRoute, sent: Sent) {
  const headers = { ...route.headers() };
  if (sent.type !== undefined) headers["Content-Type"] = sent.type;
  const body = sent.chunked
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          const half = sent.body.length >> 1;
          controller.enqueue(sent.body.slice(0, half));
          controller.enqueue(sent.body.slice(half));
          controller.close();
        },
      })
    : sent.body;
  return SELF.fetch(`http://127.0.0.1:8787${route.path}`, { method: route.method, headers, body });
}

async function expectEnvelope(res: Response, what: string) {
  const text = await res.text();
  expect(res.status, `${what} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  const rid = res.headers.get("X-Request-ID");
  expect(rid, what).toBeTruthy();
  if (res.status >= 400) {
    const body = JSON.parse(text) as { error: { code: string; message: string; requestId: string } };
    expect(body.error.requestId, what).toBe(rid);
    expect(body.error.message.length, what).toBeGreaterThan(0);
  }
  return { status: res.status, text };
}

const show = (sent: Sent) =>
  `${sent.type === undefined ? "(no Content-Type)" : JSON.stringify(sent.type)}${sent.chunked ? " chunked" : ""} ${JSON.stringify(new TextDecoder().decode(sent.body.slice(0, 60)))}`;

describe("JSON bodies: nothing a caller sends answers 5xx", () => {
  const routes: JsonRoute[] = [];
  const fuzzOnly: JsonRoute[] = [];
  let account: TestAccount;
  let consoleClient: ConsoleClient;

  beforeAll(async () => {
    account = await createAccount({ avatarUnits: 1000 });
    const avatarId = await insertAvatar(account.accountId, { isPublic: false });
    const jobId = await insertVideoJob(account.accountId, avatarId);
    await startRun("video", jobId, 7);
    const bearer = await jobToken(env, "video", jobId, 7);
    ({ client: consoleClient } = await signedIn(account.accountId));
    const open = () => account.headers;
    const admin = () => ({ Authorization: `Bearer ${ADMIN_TOKEN}` });
    const internal = () => ({ Authorization: `Bearer ${bearer}` });
    const consoleHeaders = () => ({
      Cookie: [...consoleClient.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      Origin: consoleClient.origin,
      "X-CSRF-Token": consoleClient.csrf,
    });
    const id = account.accountId;
    const object = `/internal/objects/${videoKey(jobId)}?job=${jobId}&attempt=7`;
    routes.push(
      { method: "POST", path: "/v1/open/avatars", headers: open },
      { method: "POST", path: "/v1/open/videos", headers: open },
      { method: "POST", path: "/v1/open/avatar-checks", headers: open },
      { method: "POST", path: "/v1/console/session-tokens", headers: () => ({ "X-API-Key": account.apiKey }) },
      { method: "POST", path: "/v1/admin/accounts", headers: admin },
      { method: "PATCH", path: `/v1/admin/accounts/${id}`, headers: admin },
      { method: "POST", path: `/v1/admin/accounts/${id}/apps`, headers: admin },
      { method: "POST", path: `/v1/admin/accounts/${id}/console-invites`, headers: admin },
      { method: "POST", path: `/v1/admin/accounts/${id}/avatar-units`, headers: admin },
      { method: "PUT", path: `/v1/admin/avatars/${avatarId}/access`, headers: admin },
      { method: "POST", path: "/console/api/uploads", headers: consoleHeaders },
      { method: "POST", path: `/console/api/uploads/${crypto.randomUUID()}/complete`, headers: consoleHeaders },
      { method: "POST", path: `/internal/jobs/${jobId}/events?attempt=7`, headers: internal },
      { method: "POST", path: `${object}&uploads`, headers: internal },
    );
    // Checks its upload id before the body: generated bodies only.
    fuzzOnly.push({ method: "POST", path: `${object}&uploadId=x.y`, headers: internal });
  });

  it(
    "a blank body is no body without a Content-Type, and a 400 naming the problem with one",
    async () => {
      for (const route of routes) {
        const none = await expectEnvelope(
          await send(route, { body: new Uint8Array(), type: undefined, chunked: false }),
          `${route.path} no body`,
        );
        for (const blank of BLANKS)
          for (const type of [undefined, "", "application/json", "text/plain"])
            for (const chunked of [false, true]) {
              const sent = { body: enc(blank), type, chunked };
              const what = `${route.method} ${route.path} ${show(sent)}`;
              const { status, text } = await expectEnvelope(await send(route, sent), what);
              if (!type) {
                // As if no body were sent: the same answer (the missing fields named, or the optional body's result).
                expect(status, what).toBe(none.status);
                if (status === 400)
                  expect(JSON.parse(text).error.message, what).toBe(JSON.parse(none.text).error.message);
              } else {
                expect(status, what).toBe(400);
                expect(JSON.parse(text).error.code, what).toBe("invalid_request");
                expect(JSON.parse(text).error.message, what).toMatch(/Content-Type|JSON/);
              }
            }
      }
    },
    TIMEOUT,
  );

  it(
    "generated bodies and headers on every JSON route",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(routes.length + fuzzOnly.length - 1), sentArb, async (i, sent) => {
          const route = [...routes, ...fuzzOnly][i]!;
          await expectEnvelope(await send(route, sent), `${route.method} ${route.path} ${show(sent)}`);
        }),
        { numRuns: RUNS * routes.length },
      );
    },
    TIMEOUT,
  );
});

describe("GET routes: odd query strings and path segments answer no 5xx", () => {
  const SEGMENTS = [
    "%",
    "%zz",
    "%00",
    "%C3%28",
    "%FF%FE",
    "..",
    "%2e%2e",
    "%2F",
    "a%20b",
    "+",
    "%E2%80%AE",
    "x".repeat(600),
    "",
  ];
  const QUERIES = [
    "?",
    "?&&",
    "?=",
    "?a",
    "?a=",
    "?=x",
    "?pagination.pageSize=",
    "?pagination.pageSize=1&pagination.pageSize=2",
    "?statuses=&statuses=queued",
    "?pagination.pageToken=%",
    "?pagination.pageToken=%C3%28",
    "?%zz=1",
    "?statuses[]=x",
    "?pagination.pageSize=1e400",
    "?pagination.pageSize=-0",
    "?pagination.pageSize=%F0%9F%98%80",
    `?q=${"a".repeat(5000)}`,
  ];
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount();
  });

  it(
    "generated paths and queries",
    async () => {
      const bases: [string, () => Record<string, string>][] = [
        ["/v1/open/avatars", () => account.headers],
        ["/v1/open/avatar-jobs", () => account.headers],
        ["/v1/open/video-jobs", () => account.headers],
        ["/v1/open/openapi.json", () => ({})],
        ["/v1/open/docs", () => ({})],
        [`/v1/admin/accounts/${account.accountId}/apps`, () => ({ Authorization: `Bearer ${ADMIN_TOKEN}` })],
        ["/v1/admin/accounts", () => ({ Authorization: `Bearer ${ADMIN_TOKEN}` })],
        ["/v1/admin/jobs/active", () => ({ Authorization: `Bearer ${ADMIN_TOKEN}` })],
        ["/v1/media", () => ({})],
        ["/v1/motion/rig", () => ({})],
        ["/console/videos", () => ({})],
      ];
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...bases),
          fc.option(
            fc.oneof(
              fc.constantFrom(...SEGMENTS),
              fc.string({ unit: "binary", maxLength: 20 }).map(encodeURIComponent),
            ),
          ),
          fc.array(
            fc.oneof(
              fc.constantFrom(...QUERIES),
              fc.string({ maxLength: 20 }).map((s) => `?${s}`),
            ),
            { maxLength: 3 },
          ),
          async ([base, headers], segment, queries) => {
            const query = queries.map((q, n) => (n === 0 ? q : q.replace(/^\?/, "&"))).join("");
            const url = `http://127.0.0.1:8787${base}${segment === null ? "" : `/${segment}`}${query}`;
            await expectEnvelope(
              await SELF.fetch(url, { headers: headers(), redirect: "manual" }),
              `GET ${url.slice(0, 200)}`,
            );
          },
        ),
        { numRuns: RUNS * 6 },
      );
    },
    TIMEOUT,
  );
});
