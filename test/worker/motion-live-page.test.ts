import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { verifySessionToken } from "../../workers/platform/session-token/verify";
import { env } from "cloudflare:test";
import { expectError, json } from "./open-fixtures";
import { motionAccount, nowS } from "./motion-helpers";

describe("/console/live", () => {
  it("serves the page and the motion-client module", async () => {
    const page = await SELF.fetch("http://x/console/live");
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const label of ["App ID", "API key", "Load Avatars", "Talk into the microphone", "Play an audio file"]) expect(html).toContain(label);
    const js = await SELF.fetch("http://x/console/live/motion-client.js");
    expect(js.headers.get("Content-Type")).toContain("text/javascript");
    expect(await js.text()).toContain("motion.v1");
  });

  it("mints a one-minute token server-side from App ID + API key and lists the account's Avatars", async () => {
    const a = await motionAccount();
    const body = await json<{ sessionToken: string; expireAt: number; avatars: Array<{ id: string }> }>(
      await SELF.fetch("http://x/console/live/session", { method: "POST", headers: a.headers }),
    );
    expect(body.avatars.map((x) => x.id)).toEqual([a.avatarId]);
    const claims = await verifySessionToken(body.sessionToken, env.SESSION_TOKEN_PUBLIC_KEY);
    expect(claims).toMatchObject({ sub: a.appId, acct: a.accountId });
    expect(claims.exp - nowS()).toBeLessThanOrEqual(60);
    await expectError(await SELF.fetch("http://x/console/live/session", { method: "POST", headers: { "X-App-ID": a.appId, "X-API-Key": "wrong" } }), 401, "unauthorized");
  });
});
