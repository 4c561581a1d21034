import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sign, signSync, verify } from "../../workers/storage/hmac";

describe("hmac", () => {
  it("sync and async signatures agree and verify", async () => {
    const a = signSync(env.SIGNING_SECRET, "m");
    expect(await sign(env.SIGNING_SECRET, "m")).toBe(a);
    expect(await verify(env.SIGNING_SECRET, "m", a)).toBe(true);
    expect(await verify(env.SIGNING_SECRET, "n", a)).toBe(false);
  });
});
