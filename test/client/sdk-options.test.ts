import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AvatarVideo, AvatarVideoError, type RequestInfo, type ResponseInfo } from "../../client/src/index.js";
import { API_KEY, avatar, AVATAR_ID, sdk } from "./fixtures.js";
import { envelope, useScriptedServer } from "./scripted-server.js";

const server = useScriptedServer();
const ok = { status: 200, headers: { "X-Request-ID": "req-ok" }, body: { avatar: avatar() } };
const busy = { status: 503, headers: { "Retry-After": "0", "X-Request-ID": "req-busy" }, body: envelope("x") };
const { version } = JSON.parse(readFileSync("client/package.json", "utf8"));

afterEach(() => vi.unstubAllEnvs());

describe("client options", () => {
  it("come from AVATAR_VIDEO_BASE_URL, _APP_ID and _API_KEY when left out; given ones win", async () => {
    vi.stubEnv("AVATAR_VIDEO_BASE_URL", server.url);
    vi.stubEnv("AVATAR_VIDEO_APP_ID", "app-env");
    vi.stubEnv("AVATAR_VIDEO_API_KEY", "key-env");
    server.answer(ok, ok);
    await new AvatarVideo().avatars.get(AVATAR_ID);
    await new AvatarVideo({ appId: "app-given" }).avatars.get(AVATAR_ID);
    expect(server.seen.map((r) => [r.headers["x-app-id"], r.headers["x-api-key"]])).toEqual([
      ["app-env", "key-env"],
      ["app-given", "key-env"],
    ]);
  });

  it("name the missing setting and its variable", () => {
    vi.stubEnv("AVATAR_VIDEO_APP_ID", "");
    vi.stubEnv("AVATAR_VIDEO_API_KEY", "");
    expect(() => new AvatarVideo({ apiKey: "k" })).toThrow("AVATAR_VIDEO_APP_ID");
    expect(() => new AvatarVideo({ appId: "a" })).toThrow("AVATAR_VIDEO_API_KEY");
  });

  it("send User-Agent avatar-video-node/<package version>", async () => {
    server.answer(ok);
    await sdk(server.url).avatars.get(AVATAR_ID);
    expect(server.seen[0]?.headers["user-agent"]).toBe(`avatar-video-node/${version}`);
  });
});

describe("per-call options", () => {
  it("maxRetries overrides the client's for that call only", async () => {
    server.answer(busy, busy, ok, busy);
    const av = sdk(server.url, { maxRetries: 0 });
    expect((await av.avatars.get(AVATAR_ID, { maxRetries: 2 })).id).toBe(AVATAR_ID);
    expect(server.seen).toHaveLength(3);
    await expect(av.avatars.get(AVATAR_ID)).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(4);
  });

  // `timeout` is the option's name (milliseconds, as in openai-node); `timeoutMs` is its deprecated alias.
  for (const name of ["timeout", "timeoutMs"] as const) {
    it(`${name} bounds each attempt of that call, overriding the client's`, async () => {
      server.answer({ ...ok, delayMs: 1_000 });
      const started = Date.now();
      const call = sdk(server.url, { timeout: 30_000 }).avatars.get(AVATAR_ID, { [name]: 200, maxRetries: 0 });
      await expect(call).rejects.toMatchObject({ code: "timeout", message: "no answer within 200 ms" });
      expect(Date.now() - started).toBeLessThan(900);
    });

    it(`${name} on the client bounds each attempt of every call`, async () => {
      server.answer({ ...ok, delayMs: 1_000 });
      const call = sdk(server.url, { [name]: 200, maxRetries: 0 }).avatars.get(AVATAR_ID);
      await expect(call).rejects.toMatchObject({ code: "timeout", message: "no answer within 200 ms" });
    });
  }

  it("timeout wins over timeoutMs when both are given", async () => {
    server.answer({ ...ok, delayMs: 1_000 });
    const call = sdk(server.url, { maxRetries: 0 }).avatars.get(AVATAR_ID, { timeout: 150, timeoutMs: 30_000 });
    await expect(call).rejects.toMatchObject({ code: "timeout", message: "no answer within 150 ms" });
  });

  it("apply to every page of a list", async () => {
    const page = { status: 200, body: { avatars: [avatar()], pagination: { nextPageToken: "", totalCount: 1 } } };
    server.answer(busy, page);
    const av = sdk(server.url, { maxRetries: 0 });
    const ids: string[] = [];
    for await (const a of av.avatars.list({ maxRetries: 1 })) ids.push(a.id);
    expect(ids).toEqual([AVATAR_ID]);
  });
});

describe("onRequest and onResponse", () => {
  it("see every attempt: method, path, attempt, status, request id, elapsed time; never the key", async () => {
    const requests: RequestInfo[] = [];
    const responses: ResponseInfo[] = [];
    server.answer({ ...busy, delayMs: 30 }, ok);
    const av = sdk(server.url, { onRequest: (i) => requests.push(i), onResponse: (i) => responses.push(i) });
    await av.avatars.get(AVATAR_ID);
    const path = `/v1/open/avatars/${AVATAR_ID}`;
    expect(requests).toEqual([
      { method: "GET", path, attempt: 0 },
      { method: "GET", path, attempt: 1 },
    ]);
    expect(responses).toMatchObject([
      { method: "GET", path, attempt: 0, status: 503, requestId: "req-busy", willRetry: true },
      { method: "GET", path, attempt: 1, status: 200, requestId: "req-ok", willRetry: false },
    ]);
    expect(responses[0]!.elapsedMs).toBeGreaterThanOrEqual(25);
    expect(JSON.stringify([requests, responses])).not.toContain(API_KEY);
  });

  it("say why no answer came", async () => {
    const responses: ResponseInfo[] = [];
    server.answer({ drop: true });
    await sdk(server.url, { maxRetries: 0, onResponse: (i) => responses.push(i) })
      .avatars.get(AVATAR_ID)
      .catch(() => undefined);
    expect(responses).toMatchObject([{ attempt: 0, error: "connection_error", willRetry: false }]);
    expect(responses[0]?.status).toBeUndefined();
  });
});

describe("withResponse", () => {
  it("resolves with the resource, the HTTP answer and its request id, sending the request once", async () => {
    server.answer({ ...ok, headers: { ...ok.headers, "RateLimit-Remaining": "7" } });
    const call = sdk(server.url).avatars.get(AVATAR_ID);
    const { data, response, requestId } = await call.withResponse();
    expect(data.id).toBe(AVATAR_ID);
    expect([response.status, response.headers.get("RateLimit-Remaining"), requestId]).toEqual([200, "7", "req-ok"]);
    expect((await call).id).toBe(AVATAR_ID);
    expect(server.seen).toHaveLength(1);
  });

  it("rejects with the AvatarVideoError of a failed call", async () => {
    server.answer({ status: 404, body: envelope("not_found", "req-404") });
    const error = await sdk(server.url)
      .videos.get(AVATAR_ID)
      .withResponse()
      .catch((e) => e);
    expect(error).toBeInstanceOf(AvatarVideoError);
    expect(error).toMatchObject({ status: 404, requestId: "req-404" });
  });
});

describe("sessionTokens.create", () => {
  const token = { status: 200, body: { sessionToken: "eyJ.token.sig" } };

  it("mints a token expiring in 10 minutes by default, retried like a read", async () => {
    server.answer(busy, token);
    const before = Math.floor(Date.now() / 1000);
    const minted = await sdk(server.url).sessionTokens.create();
    expect(server.seen.map((r) => [r.method, r.path])).toEqual([
      ["POST", "/v1/console/session-tokens"],
      ["POST", "/v1/console/session-tokens"],
    ]);
    const expireAt = server.seen[0]!.body!.expireAt as number;
    expect(expireAt - before).toBeGreaterThanOrEqual(600);
    expect(expireAt - before).toBeLessThanOrEqual(601);
    expect(minted).toEqual({ sessionToken: "eyJ.token.sig", expireAt });
  });

  it("sends the given expiry or lifetime and model version", async () => {
    server.answer(token, token);
    const av = sdk(server.url);
    await av.sessionTokens.create({ expireAt: 1_900_000_000, modelVersion: "motion-2.1" });
    const before = Math.floor(Date.now() / 1000);
    await av.sessionTokens.create({ ttlSeconds: 60 });
    expect(server.seen[0]?.body).toEqual({ expireAt: 1_900_000_000, modelVersion: "motion-2.1" });
    expect((server.seen[1]?.body?.expireAt as number) - before).toBeLessThanOrEqual(61);
  });
});
