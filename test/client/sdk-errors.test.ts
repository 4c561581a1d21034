import { describe, expect, it } from "vitest";
import { AvatarVideoError } from "../../client/src/index.js";
import { AVATAR_ID, JOB_ID, sdk } from "./fixtures.js";
import { envelope, scriptedServer, useScriptedServer } from "./scripted-server.js";

const server = useScriptedServer();

describe("AvatarVideoError", () => {
  it("carries status, code, message and requestId from the error envelope", async () => {
    server.answer({
      status: 403,
      headers: { "X-Request-ID": "req-header" },
      body: envelope("forbidden", "req-body", "Avatar access denied."),
    });
    const error = await sdk(server.url)
      .videos.get(JOB_ID)
      .catch((e) => e);
    expect(error).toBeInstanceOf(AvatarVideoError);
    expect(error).toMatchObject({
      name: "AvatarVideoError",
      status: 403,
      code: "forbidden",
      message: "Avatar access denied.",
      requestId: "req-body",
      retryable: false,
    });
  });

  it("takes the requestId from X-Request-ID when the body is no envelope (a proxy's page)", async () => {
    server.answer({
      status: 502,
      headers: { "X-Request-ID": "req-header", "Content-Type": "text/html" },
      body: "<html>bad gateway</html>",
    });
    const error = await sdk(server.url, { maxRetries: 0 })
      .avatars.get(AVATAR_ID)
      .catch((e) => e);
    expect(error).toMatchObject({ status: 502, code: "http_502", requestId: "req-header", retryable: true });
  });

  it("says a 429 is retryable and keeps its Retry-After", async () => {
    server.answer({ status: 429, headers: { "Retry-After": "120" }, body: envelope("rate_limit_exceeded") });
    const error = await sdk(server.url, { maxRetries: 0 })
      .avatars.get(AVATAR_ID)
      .catch((e) => e);
    expect(error).toMatchObject({ status: 429, code: "rate_limit_exceeded", retryable: true, retryAfterMs: 120_000 });
  });

  it("is a connection_error without status when nothing answers", async () => {
    const closed = await scriptedServer();
    await closed.close();
    const error = await sdk(closed.url, { maxRetries: 0 })
      .avatars.get(AVATAR_ID)
      .catch((e) => e);
    expect(error).toMatchObject({ code: "connection_error", status: undefined, retryable: true });
    expect(error.message).toContain(closed.url);
  });

  it("never shows the API key when the client or an error is printed", async () => {
    const { inspect } = await import("node:util");
    server.answer({ status: 401, body: envelope("unauthorized") });
    const av = sdk(server.url, { maxRetries: 0 });
    const error = await av.avatars.get(AVATAR_ID).catch((e) => e);
    for (const text of [inspect(av, { depth: 10 }), inspect(error, { depth: 10 }), JSON.stringify(error)])
      expect(text).not.toContain("av_test_key");
    expect(server.seen[0]?.headers["x-api-key"]).toBe("av_test_key_0123456789abcdef");
  });
});
