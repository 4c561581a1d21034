import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../../workers/platform/http/body-limit";
import { checkSourceAddress } from "../../../workers/platform/http/source-address";
import { createAccount, openFetch, type TestAccount } from "../helpers/accounts";
import { expectError, insertAvatar, json, PUBLIC_AUDIO, PUBLIC_IMAGE } from "../helpers/open-fixtures";

let acct: TestAccount;
let avatarId: string;

beforeAll(async () => {
  acct = await createAccount();
  avatarId = await insertAvatar(acct.accountId);
});

const postAvatar = (body: unknown, headers: Record<string, string> = {}) =>
  openFetch("/avatars", { headers: { ...acct.headers, ...headers }, body });
const postVideo = (body: unknown) => openFetch("/videos", { headers: acct.headers, body });
const video = (settings: unknown) => postVideo({ avatarId, audioUrl: PUBLIC_AUDIO, video: settings });

describe("request bodies", () => {
  it("names a missing required field", async () => {
    await expectError(await postAvatar({}), 400, "invalid_request", "imageUrl is required");
    await expectError(await postVideo({ audioUrl: PUBLIC_AUDIO }), 400, "invalid_request", "avatarId is required");
    await expectError(await postVideo({ avatarId }), 400, "invalid_request", "audioUrl is required");
  });

  it("treats an empty body without a Content-Type as {} and names the missing fields", async () => {
    const res = await SELF.fetch("http://x/v1/open/avatars", { method: "POST", headers: acct.headers });
    await expectError(res, 400, "invalid_request", "imageUrl is required");
  });

  it("names wrong types", async () => {
    await expectError(await postAvatar({ imageUrl: 42 }), 400, "invalid_request", "imageUrl must be a string");
    await expectError(
      await postAvatar({ imageUrl: PUBLIC_IMAGE, name: 7 }),
      400,
      "invalid_request",
      "name must be a string",
    );
    await expectError(
      await postVideo({ avatarId, audioUrl: PUBLIC_AUDIO, requestId: 5 }),
      400,
      "invalid_request",
      "requestId must be a string",
    );
    await expectError(await postAvatar([]), 400, "invalid_request", "Request body must be an object");
    await expectError(await postAvatar("null"), 400, "invalid_request", "Request body must be an object");
  });

  it("rejects an invalid UUID in the body", async () => {
    await expectError(
      await postVideo({ avatarId: "not-a-uuid", audioUrl: PUBLIC_AUDIO }),
      400,
      "invalid_request",
      "avatarId must be a UUID",
    );
    await expectError(
      await postVideo({ avatarId, audioUrl: PUBLIC_AUDIO, requestId: "1234" }),
      400,
      "invalid_request",
      "requestId must be a UUID",
    );
  });

  it("reports several problems at once", async () => {
    const msg = await expectError(await postVideo({ avatarId: "x", video: { width: 3 } }), 400, "invalid_request");
    expect(msg).toContain("avatarId must be a UUID");
    expect(msg).toContain("audioUrl is required");
    expect(msg).toContain("video.width must be even");
  });

  it("rejects malformed JSON", async () => {
    await expectError(await postAvatar("{imageUrl:"), 400, "invalid_request", "Request body must be valid JSON");
    await expectError(
      await postAvatar('{"imageUrl": "x",}'),
      400,
      "invalid_request",
      "Request body must be valid JSON",
    );
    await expectError(await postAvatar(""), 400, "invalid_request", "Request body must be valid JSON");
  });

  it("answers deeply nested JSON with 400, not a crash", async () => {
    const depth = 30_000;
    await expectError(
      await postAvatar("[".repeat(depth) + "]".repeat(depth)),
      400,
      "invalid_request",
      "Request body must be an object",
    );
    const nested = `{"imageUrl":"${PUBLIC_IMAGE}","name":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    await expectError(await postAvatar(nested), 400, "invalid_request", "name must be a string");
  });

  it("rejects a non-JSON content type", async () => {
    const res = await postAvatar(JSON.stringify({ imageUrl: PUBLIC_IMAGE }), { "Content-Type": "text/plain" });
    await expectError(res, 400, "invalid_request", "Content-Type must be application/json");
    const form = await postAvatar("imageUrl=x", { "Content-Type": "application/x-www-form-urlencoded" });
    await expectError(form, 400, "invalid_request", "Content-Type must be application/json");
  });

  it("accepts application/json with a charset", async () => {
    const res = await postAvatar(JSON.stringify({ imageUrl: PUBLIC_IMAGE }), {
      "Content-Type": "application/json; charset=utf-8",
    });
    expect(res.status).toBe(200);
  });

  it("rejects a body over the documented limit with the limit in the message", async () => {
    const big = JSON.stringify({ imageUrl: PUBLIC_IMAGE, name: "x".repeat(MAX_BODY_BYTES) });
    await expectError(await postAvatar(big), 400, "invalid_request", `${MAX_BODY_BYTES} bytes`);
    await expectError(await postVideo(big), 400, "invalid_request", "64 KiB");
  });

  it("rejects an oversized streamed body (no Content-Length) with the same message", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream({
      pull(ctrl) {
        if (sent++ >= 6) return ctrl.close();
        ctrl.enqueue(chunk);
      },
    });
    const res = await SELF.fetch("http://x/v1/open/avatars", {
      method: "POST",
      headers: { ...acct.headers, "Content-Type": "application/json" },
      body: stream,
      // @ts-expect-error workerd accepts duplex for streamed request bodies
      duplex: "half",
    });
    await expectError(res, 400, "invalid_request", `${MAX_BODY_BYTES} bytes`);
  });

  it("rejects unknown fields by name", async () => {
    await expectError(
      await postAvatar({ imageUrl: PUBLIC_IMAGE, colour: "red" }),
      400,
      "invalid_request",
      "colour is not a known field",
    );
    await expectError(await video({ fps: 30 }), 400, "invalid_request", "video.fps is not a known field");
  });

  it("answers fields of unavailable features with 501 unsupported_input", async () => {
    await expectError(
      await postVideo({ avatarId, audioUrl: PUBLIC_AUDIO, callbackUrl: "https://x.example/cb" }),
      501,
      "unsupported_input",
      "callbackUrl is not supported by this version",
    );
    await expectError(await postVideo({ avatarId, text: "hello" }), 501, "unsupported_input", "text is not supported");
    await expectError(
      await postAvatar({ imageUrl: PUBLIC_IMAGE, webhookUrl: "https://x.example" }),
      501,
      "unsupported_input",
      "webhookUrl",
    );
  });
});

describe("name", () => {
  it("accepts 1 to 128 characters and rejects 0 or 129", async () => {
    await expectError(
      await postAvatar({ imageUrl: PUBLIC_IMAGE, name: "" }),
      400,
      "invalid_request",
      "name must be 1 to 128 characters",
    );
    await expectError(
      await postAvatar({ imageUrl: PUBLIC_IMAGE, name: "n".repeat(129) }),
      400,
      "invalid_request",
      "name must be 1 to 128 characters",
    );
    await expectError(
      await postVideo({ avatarId, audioUrl: PUBLIC_AUDIO, name: "" }),
      400,
      "invalid_request",
      "name must be 1 to 128 characters",
    );
    expect((await postAvatar({ imageUrl: PUBLIC_IMAGE, name: "n" })).status).toBe(200);
    expect((await postAvatar({ imageUrl: PUBLIC_IMAGE, name: "n".repeat(128) })).status).toBe(200);
  });

  it("counts characters, not UTF-16 units", async () => {
    expect((await postAvatar({ imageUrl: PUBLIC_IMAGE, name: "😀".repeat(128) })).status).toBe(200);
    await expectError(
      await postAvatar({ imageUrl: PUBLIC_IMAGE, name: "😀".repeat(129) }),
      400,
      "invalid_request",
      "name must be 1 to 128",
    );
  });
});

describe("video settings", () => {
  const cases: [string, unknown, string][] = [
    ["odd width", { width: 101 }, "video.width must be even"],
    ["odd height", { height: 999 }, "video.height must be even"],
    ["width below 64", { width: 62 }, "video.width must be between 64 and 1920"],
    ["width above 1920", { width: 1922 }, "video.width must be between 64 and 1920"],
    ["height below 64", { height: 0 }, "video.height must be between 64 and 1920"],
    ["height above 1920", { height: 4000 }, "video.height must be between 64 and 1920"],
    ["fractional width", { width: 100.5 }, "video.width must be an integer"],
    ["string width", { width: "100" }, "video.width must be an integer"],
    ["null height", { height: null }, "video.height must be an integer"],
    ["fit", { fit: "stretch" }, "video.fit must be one of crop, contain"],
    ["colour without #", { backgroundColor: "112233" }, "video.backgroundColor must be a six-digit hex colour"],
    ["short colour", { backgroundColor: "#12345" }, "video.backgroundColor must be a six-digit hex colour"],
    ["colour name", { backgroundColor: "red" }, "video.backgroundColor must be a six-digit hex colour"],
    ["non-hex colour", { backgroundColor: "#GGGGGG" }, "video.backgroundColor must be a six-digit hex colour"],
    ["backgroundFit", { backgroundFit: "fill" }, "video.backgroundFit must be one of cover, contain, stretch"],
    ["negative lead-in", { leadInSeconds: -1 }, "video.leadInSeconds must be between 0 and 60"],
    ["lead-in over 60", { leadInSeconds: 60.5 }, "video.leadInSeconds must be between 0 and 60"],
    ["string lead-in", { leadInSeconds: "1" }, "video.leadInSeconds must be a finite number"],
    ["negative lead-out", { leadOutSeconds: -0.1 }, "video.leadOutSeconds must be between 0 and 60"],
    ["lead-out over 60", { leadOutSeconds: 61 }, "video.leadOutSeconds must be between 0 and 60"],
    ["not an object", "wide", "video must be an object"],
    ["area over 2,073,600", { width: 1920, height: 1920 }, "video.width × video.height must be at most 2073600 pixels"],
    ["area just over", { width: 1920, height: 1082 }, "at most 2073600 pixels"],
  ];
  it.each(cases)("%s → 400 naming the field and the rule", async (_name, settings, message) => {
    await expectError(await video(settings), 400, "invalid_request", message);
  });

  it("rejects non-finite lead times written as huge JSON numbers", async () => {
    const res = await postVideo(
      `{"avatarId":"${avatarId}","audioUrl":"${PUBLIC_AUDIO}","video":{"leadOutSeconds":1e400}}`,
    );
    await expectError(res, 400, "invalid_request", "video.leadOutSeconds must be a finite number");
  });

  it("accepts the boundaries, the exact maximum area and any colour case", async () => {
    for (const settings of [
      { width: 1920, height: 1080 }, // exactly 2,073,600
      { width: 64, height: 64, fit: "contain", backgroundFit: "stretch", leadInSeconds: 0, leadOutSeconds: 60 },
      { width: 1920 }, // omitted height counts as 1024: 1,966,080
      { backgroundColor: "#aBcDeF", leadInSeconds: 12.5 },
    ]) {
      const res = await video(settings);
      expect(res.status, await res.clone().text()).toBe(200);
    }
  });
});

describe("source URLs", () => {
  const rejected: [string, string][] = [
    ["", "must be 1 to 4096 characters"],
    [`https://example.com/${"a".repeat(4080)}`, "must be 1 to 4096 characters"],
    ["not a url", "must be an absolute URL"],
    ["/relative/path.mp3", "must be an absolute URL"],
    ["ftp://example.com/a.mp3", "must use http or https"],
    ["file:///etc/passwd", "must use http or https"],
    ["data:audio/mp3;base64,AAAA", "must use http or https"],
    ["https://user:secret@example.com/a.mp3", "must not contain a username or password"],
    ["https://user@example.com/a.mp3", "must not contain a username or password"],
    ["http://127.0.0.1/a.mp3", "non-public"],
    ["http://127.1/a.mp3", "non-public"],
    ["http://2130706433/a.mp3", "non-public"],
    ["http://0x7f.0.0.1/a.mp3", "non-public"],
    ["http://017700000001/a.mp3", "non-public"],
    ["http://0/a.mp3", "non-public"],
    ["http://10.1.2.3/a.mp3", "non-public"],
    ["http://172.16.0.1/a.mp3", "non-public"],
    ["http://192.168.1.10:8080/a.mp3", "non-public"],
    ["http://169.254.169.254/latest/meta-data", "non-public"],
    ["http://100.64.0.1/a.mp3", "non-public"],
    ["http://[::1]/a.mp3", "non-public"],
    ["http://[fd00:ec2::254]/a.mp3", "non-public"],
    ["http://[fe80::1]/a.mp3", "non-public"],
    ["http://[::ffff:127.0.0.1]/a.mp3", "non-public"],
    ["http://[::ffff:7f00:1]/a.mp3", "non-public"],
    ["http://１２７．０．０．１/a.mp3", "non-public"],
  ];
  it.each(rejected)("audioUrl %j → 400", async (url, rule) => {
    await expectError(
      await postVideo({ avatarId, audioUrl: url }),
      400,
      "invalid_request",
      `audioUrl ${rule}`.replace("audioUrl non-public", "audioUrl must not point to a private"),
    );
  });

  it("applies the same rules to imageUrl and backgroundUrl", async () => {
    await expectError(
      await postAvatar({ imageUrl: "http://10.0.0.1/x.png" }),
      400,
      "invalid_request",
      "imageUrl must not point to a private",
    );
    await expectError(
      await postAvatar({ imageUrl: "gopher://x" }),
      400,
      "invalid_request",
      "imageUrl must use http or https",
    );
    await expectError(
      await postVideo({ avatarId, audioUrl: PUBLIC_AUDIO, backgroundUrl: "http://[::1]:9000/bg.png" }),
      400,
      "invalid_request",
      "backgroundUrl must not point to a private",
    );
    await expectError(
      await postVideo({ avatarId, audioUrl: PUBLIC_AUDIO, backgroundUrl: "https://u:p@cdn.example.com/bg.png" }),
      400,
      "invalid_request",
      "backgroundUrl must not contain a username or password",
    );
  });

  it("accepts public URLs with signed query parameters and a 4096-character URL", async () => {
    const signed = "https://bucket.s3.amazonaws.com/a.mp3?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc%2Fdef";
    expect((await postVideo({ avatarId, audioUrl: signed, backgroundUrl: "http://93.184.216.34/bg.png" })).status).toBe(
      200,
    );
    const long = `https://example.com/${"a".repeat(4096 - "https://example.com/".length)}`;
    expect(long).toHaveLength(4096);
    expect((await postAvatar({ imageUrl: long })).status).toBe(200);
  });

  it("lets exact host:port entries of SOURCE_ALLOWLIST through (local media servers) and nothing else", () => {
    const env = { SOURCE_ALLOWLIST: "127.0.0.1:9001, [::1]:8080" };
    expect(() => checkSourceAddress(env, "audioUrl", "http://127.0.0.1:9001/a.mp3")).not.toThrow();
    expect(() => checkSourceAddress(env, "audioUrl", "http://[::1]:8080/a.mp3")).not.toThrow();
    expect(() => checkSourceAddress(env, "audioUrl", "http://127.0.0.1:9002/a.mp3")).toThrow(
      /audioUrl must not point to a private/,
    );
    expect(() => checkSourceAddress(env, "audioUrl", "http://127.0.0.1/a.mp3")).toThrow(/non-public/);
    expect(() => checkSourceAddress({ SOURCE_ALLOWLIST: "" }, "audioUrl", "http://127.0.0.1:9001/a.mp3")).toThrow(
      /non-public/,
    );
    // A malformed allowlist fails closed.
    expect(() =>
      checkSourceAddress({ SOURCE_ALLOWLIST: "127.0.0.1" }, "audioUrl", "http://127.0.0.1:80/a.mp3"),
    ).toThrow(/non-public/);
  });
});

describe("paths, routes and request ids", () => {
  it("rejects an invalid UUID in a path with 400", async () => {
    for (const path of [
      "/avatar-jobs/not-a-uuid",
      "/avatars/123",
      "/video-jobs/00000000-0000-0000-0000-00000000000g",
    ]) {
      await expectError(
        await openFetch(path, { headers: acct.headers }),
        400,
        "invalid_request",
        /jobId must be a UUID|avatarId must be a UUID/,
      );
    }
  });

  it("answers unknown routes with 404 and wrong methods with 405, in the envelope, even without credentials", async () => {
    await expectError(await SELF.fetch("http://x/v1/open/nope"), 404, "not_found");
    await expectError(await SELF.fetch("http://x/v1/open/avatars/x/y"), 404, "not_found");
    const del = await SELF.fetch("http://x/v1/open/avatars", { method: "DELETE" });
    expect(del.headers.get("Allow")).toContain("POST");
    await expectError(del, 405, "method_not_allowed");
    await expectError(
      await SELF.fetch(`http://x/v1/open/video-jobs/${crypto.randomUUID()}`, { method: "POST" }),
      405,
      "method_not_allowed",
    );
    await expectError(await SELF.fetch("http://x/v1/console/session-tokens"), 405, "method_not_allowed");
  });

  it("authenticates before validating", async () => {
    await expectError(await openFetch("/avatars", { body: "{broken" }), 401, "unauthorized", "Unauthorized.");
    await expectError(await openFetch("/avatar-jobs/not-a-uuid"), 401, "unauthorized");
  });

  it("rejects unknown query parameters and repeated single-valued ones", async () => {
    await expectError(
      await openFetch("/video-jobs?pageSize=5", { headers: acct.headers }),
      400,
      "invalid_request",
      "pageSize is not a known query parameter",
    );
    await expectError(
      await openFetch("/avatars?statuses=queued", { headers: acct.headers }),
      400,
      "invalid_request",
      "statuses is not a known query parameter",
    );
    await expectError(
      await openFetch("/avatar-jobs?pagination.pageSize=5&pagination.pageSize=6", { headers: acct.headers }),
      400,
      "invalid_request",
      "pagination.pageSize must be given once",
    );
  });

  it("puts X-Request-ID on successes too, unique per request", async () => {
    const a = await openFetch("/avatar-jobs", { headers: acct.headers });
    const b = await openFetch("/avatar-jobs", { headers: acct.headers });
    await json(a);
    expect(a.headers.get("X-Request-ID")).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get("X-Request-ID")).not.toBe(a.headers.get("X-Request-ID"));
  });
});
