/**
 * The console's side of issue 21: the Videos form's "Replace background" and "Transparent background (WebM)"
 * checkboxes become video.replaceBackground / video.alpha, a finished alpha video offers its WebM, and the
 * Avatar page shows the person cut out (SVG mask) once the Avatar has a matte.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { normalizeVideoSettings } from "../../../workers/api/schemas/video-settings";
import { videoJobs } from "../../../workers/platform/db/schema";
import { alphaVideoKey, avatarKeys, videoKey } from "../../../workers/platform/storage/keys";
import { createAccount } from "../helpers/accounts";
import { signedIn, VIDEO_FORM } from "../helpers/console";
import { db, insertAvatar, insertVideoJob } from "../helpers/open-fixtures";

describe("console: the person on any background", () => {
  it("the two checkboxes, each with its own label, set replaceBackground and alpha; unticked is the default", async () => {
    const a = await createAccount();
    const avatarId = await insertAvatar(a.accountId);
    const { client } = await signedIn(a.accountId);
    const { html } = await client.page("/console/videos");
    expect(html).toMatch(
      /<input id="replaceBackground" name="replaceBackground" type="checkbox"[^>]*>\s*<label for="replaceBackground">Replace background<\/label>/,
    );
    expect(html).toMatch(
      /<input id="alpha" name="alpha" type="checkbox"[^>]*>\s*<label for="alpha">Transparent background \(WebM\)<\/label>/,
    );
    for (const [extra, settings] of [
      [
        { alpha: "on", replaceBackground: "on" },
        { alpha: true, replaceBackground: true },
      ],
      [{}, {}],
    ] as const) {
      const res = await client.fetch("/console/videos", {
        form: { ...VIDEO_FORM, avatarId, requestId: crypto.randomUUID(), ...extra },
      });
      expect(res.status, await res.clone().text()).toBe(303);
      const [job] = await db()
        .select()
        .from(videoJobs)
        .where(eq(videoJobs.accountId, a.accountId))
        .orderBy(videoJobs.createdAt)
        .limit(1)
        .offset(extra.alpha ? 0 : 1);
      expect(job!.settings).toEqual(
        normalizeVideoSettings({ width: 320, height: 240, backgroundColor: "#102030", ...settings }),
      );
    }
  });

  it("a finished alpha video offers its WebM; the file route redirects to its signed link, and refuses it for other videos", async () => {
    const a = await createAccount();
    const avatarId = await insertAvatar(a.accountId);
    const { client } = await signedIn(a.accountId);
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const [k, id] of ids.entries()) {
      await insertVideoJob(a.accountId, avatarId, {
        id,
        status: "succeeded",
        stage: "completed",
        outputKey: videoKey(id),
        completedAt: new Date(),
        settings: normalizeVideoSettings(k === 0 ? { alpha: true } : undefined),
      });
      await env.MEDIA.put(videoKey(id), "mp4");
      await env.MEDIA.put(alphaVideoKey(id), "webm");
    }
    const { html } = await client.page("/console/videos");
    expect(html).toContain(`href="/console/videos/${ids[0]}/file?format=webm&amp;download=1"`);
    expect(html).not.toContain(`/console/videos/${ids[1]}/file?format=webm`);
    const webm = await client.fetch(`/console/videos/${ids[0]}/file?format=webm`);
    expect(webm.status).toBe(302);
    expect(webm.headers.get("location")).toMatch(
      new RegExp(`/v1/media/videos/${ids[0]}\\.webm\\?acct=[0-9a-f-]+&exp=`),
    );
    expect((await client.fetch(`/console/videos/${ids[1]}/file?format=webm`)).status).toBe(404);
  });

  it("the Avatar page shows the person cut out by its matte in front of the background, or the portrait until a matte exists", async () => {
    const a = await createAccount();
    const avatarId = await insertAvatar(a.accountId);
    const { client } = await signedIn(a.accountId);
    const before = (await client.page(`/console/avatars/${avatarId}`)).html;
    expect(before).toContain('<svg class="cutout"');
    expect(before).not.toContain("mask=");
    expect(before).toContain("The cut-out is made with this Avatar&#39;s first video");
    await env.MEDIA.put(avatarKeys(avatarId).matte, new Uint8Array([137, 80, 78, 71]));
    const after = (await client.page(`/console/avatars/${avatarId}`)).html;
    const href =
      /<mask id="person"[^>]*><image href="([^"]*\/v1\/media\/avatars\/[0-9a-f-]+\/matte\.png\?acct=[^"]+)"/.exec(
        after,
      )?.[1];
    expect(href).toBeDefined();
    // A console preview link lasts at most an hour.
    const exp = Number(new URL(href!.replaceAll("&amp;", "&")).searchParams.get("exp"));
    expect(exp - Date.now() / 1000).toBeLessThanOrEqual(3600);
    expect(exp - Date.now() / 1000).toBeGreaterThan(3000);
    expect(after).toContain('mask="url(#person)"');
  });
});
