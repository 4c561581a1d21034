/**
 * The console's Videos form offers the performance (docs/performance.md): expression, intensity and head
 * motion become video.performance, judged by the Open API's own schema; the defaults store nothing.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { videoJobs } from "../../../workers/platform/db/schema";
import { createAccount } from "../helpers/accounts";
import { signedIn, VIDEO_FORM } from "../helpers/console";
import { db, insertAvatar } from "../helpers/open-fixtures";

describe("console: the performance on the Videos page", () => {
  it("offers expression, intensity and head motion; sends them as video.performance", async () => {
    const a = await createAccount();
    const avatarId = await insertAvatar(a.accountId);
    const { client } = await signedIn(a.accountId);
    const { html } = await client.page("/console/videos");
    expect(html).toMatch(/<select id="expression" name="expression">[\s\S]*<option value="surprised">/);
    expect(html).toContain('name="intensity"');
    expect(html).toContain('name="headMotion"');
    /** Posts the form; the stored job's performance. */
    const stored = async (extra: Record<string, string>) => {
      const requestId = crypto.randomUUID();
      const res = await client.fetch("/console/videos", { form: { ...VIDEO_FORM, avatarId, requestId, ...extra } });
      expect(res.status, await res.clone().text()).toBe(303);
      const row = await db().select().from(videoJobs).where(eq(videoJobs.requestId, requestId)).get();
      return row!.settings.performance;
    };
    expect(await stored({ expression: "serious", intensity: "0.8", headMotion: "2" })).toMatchObject({
      expression: "serious",
      intensity: 0.8,
      headMotion: 2,
    });
    expect(await stored({ expression: "neutral", intensity: "0.6", headMotion: "1" })).toBeUndefined();
  });

  it("refuses an out-of-range value with the API's message", async () => {
    const a = await createAccount();
    const avatarId = await insertAvatar(a.accountId);
    const { client } = await signedIn(a.accountId);
    const res = await client.fetch("/console/videos", {
      form: { ...VIDEO_FORM, avatarId, requestId: crypto.randomUUID(), expression: "happy", headMotion: "5" },
    });
    expect(await res.text()).toContain("video.performance.headMotion must be between 0 and 3");
  });
});
