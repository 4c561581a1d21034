import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../../../workers/app";
import { avatarCoverUrl } from "../../../workers/platform/storage/links";
import { createAccount, openFetch, patchAccount } from "../helpers/accounts";
import { insertAvatar } from "../helpers/pipeline";

// Unauthenticated traffic is metered at the edge (docs/security.md, "Doors"): failed credentials and bad link
// signatures from one address turn into 429 before any D1 read; a caller on another address is unaffected.

/** A fresh address per test (the rate limiter's counts outlive a test). */
const address = () => `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
/** Enough tries to pass the limit even when a minute window turns over midway. */
const FLOOD = 45;

async function floodUntil429(send: () => Promise<Response>): Promise<Response> {
  for (let i = 0; i < FLOOD; i++) {
    const res = await send();
    if (res.status === 429) return res;
    expect([401, 403]).toContain(res.status);
    await res.arrayBuffer();
  }
  throw new Error(`no 429 after ${FLOOD} refusals`);
}

/** The Worker in this test's isolate, with D1 and R2 that fail on any use when `noReads`. */
async function direct(req: Request, noReads = false) {
  const trap = new Proxy(
    {},
    {
      get: () => {
        throw new Error("D1 or R2 was read");
      },
    },
  ) as never;
  const ctx = createExecutionContext();
  const res = await app.fetch(req, noReads ? { ...env, DB: trap, MEDIA: trap } : env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("edge meter", () => {
  it("a 401 flood from one address gets 429 with Retry-After; a caller on another address is unaffected", async () => {
    const acc = await createAccount();
    const flooder = address();
    const bad = { ...acc.headers, "X-API-Key": "avk_wrong", "CF-Connecting-IP": flooder };
    const throttled = await floodUntil429(() => openFetch("/avatars", { headers: bad }));
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await throttled.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
    // The flooding address stays refused for the minute, whatever it sends.
    expect((await openFetch("/avatars", { headers: { ...acc.headers, "CF-Connecting-IP": flooder } })).status).toBe(
      429,
    );
    // A well-behaved caller elsewhere is served.
    expect((await openFetch("/avatars", { headers: { ...acc.headers, "CF-Connecting-IP": address() } })).status).toBe(
      200,
    );
  });

  it("once throttled, the address is refused before any D1 read", async () => {
    const acc = await createAccount();
    const flooder = address();
    const req = (key: string, ip = flooder) =>
      new Request("http://x/v1/open/avatars", {
        headers: { ...acc.headers, "X-API-Key": key, "CF-Connecting-IP": ip },
      });
    await floodUntil429(() => direct(req("avk_wrong")));
    const refused = await direct(req(acc.apiKey), true);
    expect(refused.status).toBe(429);
    // Another address does reach D1 (here: the trap).
    expect((await direct(req(acc.apiKey, address()), true)).status).toBe(500);
  });

  it("bad media-link signatures from one address get 429; the same link from elsewhere works", async () => {
    const acc = await createAccount();
    const avatarId = await insertAvatar(acc.accountId);
    const good = avatarCoverUrl(
      env,
      "http://x",
      { id: avatarId, coverKey: "" },
      { accountId: acc.accountId, use: "api" },
    );
    const forged = good.replace(/sig=s0\.(.)/, (_, ch: string) => `sig=s0.${ch === "A" ? "B" : "A"}`);
    const flooder = address();
    await floodUntil429(() => SELF.fetch(forged, { headers: { "CF-Connecting-IP": flooder } }));
    expect((await SELF.fetch(good, { headers: { "CF-Connecting-IP": flooder } })).status).toBe(429);
    expect((await SELF.fetch(good, { headers: { "CF-Connecting-IP": address() } })).status).toBe(200);
  });

  it("unknown session-token keys from one address get 429; the account's own backend keeps getting tokens", async () => {
    const acc = await createAccount();
    const flooder = address();
    const token = (key: string, ip: string) =>
      SELF.fetch("http://x/v1/console/session-tokens", {
        method: "POST",
        headers: { "X-API-Key": key, "CF-Connecting-IP": ip, "Content-Type": "application/json" },
        body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 600 }),
      });
    await floodUntil429(() => token(`avk_unknown_${crypto.randomUUID()}`, flooder));
    expect((await token(acc.apiKey, address())).status).toBe(200);
  });
});

describe("session-token route", () => {
  const token = (key: string) =>
    SELF.fetch("http://x/v1/console/session-tokens", {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify({ expireAt: Math.floor(Date.now() / 1000) + 600 }),
    });

  it("checks the account's Open API access", async () => {
    const acc = await createAccount();
    expect((await token(acc.apiKey)).status).toBe(200);
    await patchAccount(acc.accountId, { openApiAccess: false });
    const res = await token(acc.apiKey);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "Open API access is not configured",
    );
  });

  it("issues at most 60 tokens a minute per account; another account is unaffected", async () => {
    const acc = await createAccount();
    let refused: Response | undefined;
    for (let i = 0; i < 125 && !refused; i++) {
      const res = await token(acc.apiKey);
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(200);
      if (!refused) await res.arrayBuffer();
    }
    expect(refused, "a 429 within two windows").toBeDefined();
    expect(refused!.headers.get("Retry-After")).toBe("60");
    expect((await token((await createAccount()).apiKey)).status).toBe(200);
  });
});
