/**
 * `video.performance` (docs/performance.md): what the API accepts, the 400 messages naming the field and the
 * rule, how it is normalised (omitted ≡ explicit defaults for retry keys), and that the renderer receives it.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { parseDispatch, PERFORMANCE_DEFAULTS } from "@avatar-video/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { normalizeVideoInput, videoFingerprint } from "../../../workers/api/idempotency/fingerprint";
import { normalizeVideoSettings } from "../../../workers/api/schemas/video-settings";
import { videoPayload } from "../../../workers/pipeline/renderer/payload";
import { videoJobs } from "../../../workers/platform/db/schema";
import { createAccount, openFetch, type TestAccount } from "../helpers/accounts";
import { db, expectError, insertAvatar, json, PUBLIC_AUDIO } from "../helpers/open-fixtures";

let acct: TestAccount;
let avatarId: string;
beforeAll(async () => {
  acct = await createAccount();
  avatarId = await insertAvatar(acct.accountId);
});

const perform = (performance: unknown) =>
  openFetch("/videos", { headers: acct.headers, body: { avatarId, audioUrl: PUBLIC_AUDIO, video: { performance } } });
const cue = (atSeconds: number, expression = "happy", intensity?: number) => ({ atSeconds, expression, intensity });

describe("video.performance validation", () => {
  it.each([
    [
      "unknown expression",
      { expression: "angry" },
      "video.performance.expression must be one of neutral, happy, serious, surprised, sad",
    ],
    ["intensity above 1", { intensity: 1.2 }, "video.performance.intensity must be between 0 and 1"],
    ["negative intensity", { intensity: -0.1 }, "video.performance.intensity must be between 0 and 1"],
    ["string intensity", { intensity: "0.5" }, "video.performance.intensity must be a finite number"],
    ["head motion above 3", { headMotion: 3.5 }, "video.performance.headMotion must be between 0 and 3"],
    ["negative head motion", { headMotion: -1 }, "video.performance.headMotion must be between 0 and 3"],
    ["emphasis above 2", { emphasis: 2.01 }, "video.performance.emphasis must be between 0 and 2"],
    ["blinks above 40", { blinksPerMinute: 41 }, "video.performance.blinksPerMinute must be between 0 and 40"],
    ["unknown field", { mood: "calm" }, "video.performance.mood is not a known field"],
    ["not an object", "happy", "video.performance must be an object"],
    ["timeline not an array", { timeline: {} }, "video.performance.timeline must be an array of cues"],
    ["cue without time", { timeline: [{ expression: "happy" }] }, "video.performance.timeline[0].atSeconds"],
    [
      "cue with unknown expression",
      { timeline: [cue(1), cue(2, "bored")] },
      "video.performance.timeline[1].expression must be one of neutral, happy, serious, surprised, sad",
    ],
    [
      "cue intensity",
      { timeline: [cue(1, "sad", 2)] },
      "video.performance.timeline[0].intensity must be between 0 and 1",
    ],
    [
      "cue past an hour",
      { timeline: [cue(3601)] },
      "video.performance.timeline[0].atSeconds must be between 0 and 3600",
    ],
    [
      "negative cue time",
      { timeline: [cue(-1)] },
      "video.performance.timeline[0].atSeconds must be between 0 and 3600",
    ],
    [
      "unknown cue field",
      { timeline: [{ ...cue(1), ease: 1 }] },
      "video.performance.timeline[0].ease is not a known field",
    ],
    [
      "unsorted cues",
      { timeline: [cue(1), cue(5, "sad"), cue(3)] },
      "video.performance.timeline[2].atSeconds must not be earlier than timeline[1].atSeconds (cues are sorted by time)",
    ],
    [
      "overlapping cues",
      { timeline: [cue(1), cue(1.2, "sad")] },
      "video.performance.timeline[1].atSeconds must be at least 0.3 s after timeline[0].atSeconds (each cue eases in over 0.3 s; cues must not overlap)",
    ],
    [
      "two cues at one time",
      { timeline: [cue(2), cue(2, "sad")] },
      "video.performance.timeline[1].atSeconds must be at least 0.3 s after timeline[0].atSeconds",
    ],
    [
      "more than 100 cues",
      { timeline: Array.from({ length: 101 }, (_, i) => cue(i)) },
      "video.performance.timeline must have at most 100 cues",
    ],
  ])("%s: 400 naming the field and the rule", async (_name, performance, message) => {
    await expectError(await perform(performance), 400, "invalid_request", message);
  });

  it("accepts the boundaries and 100 cues 0.3 s apart", async () => {
    for (const performance of [
      { expression: "surprised", intensity: 1, headMotion: 3, emphasis: 2, blinksPerMinute: 40 },
      { expression: "sad", intensity: 0, headMotion: 0, emphasis: 0, blinksPerMinute: 0 },
      { timeline: Array.from({ length: 100 }, (_, i) => cue(i * 0.3, i % 2 ? "serious" : "happy")) },
      { timeline: [cue(0), cue(3600, "neutral")] },
    ]) {
      const res = await perform(performance);
      expect(res.status, JSON.stringify(performance)).toBe(200);
    }
  });
});

describe("video.performance normalisation", () => {
  const settings = (performance: unknown) =>
    normalizeVideoSettings({ performance } as Parameters<typeof normalizeVideoSettings>[0]);

  it("omitted, empty and the explicit defaults are the same input (same retry key)", async () => {
    const omitted = normalizeVideoSettings(undefined);
    expect(omitted).not.toHaveProperty("performance");
    for (const same of [
      {},
      { ...PERFORMANCE_DEFAULTS },
      { expression: "neutral", intensity: 0.2 },
      { expression: "sad", intensity: 0 },
    ])
      expect(settings(same), JSON.stringify(same)).toEqual(omitted);
    const body = { avatarId, audioUrl: PUBLIC_AUDIO };
    const base = await videoFingerprint(normalizeVideoInput(body));
    const explicit = normalizeVideoInput({
      ...body,
      video: { performance: { ...PERFORMANCE_DEFAULTS, timeline: [] } },
    });
    expect(await videoFingerprint(explicit)).toBe(base);
  });

  it("fills every default, cue intensities included, and tells different performances apart", async () => {
    expect(settings({ expression: "happy", timeline: [cue(2, "serious")] }).performance).toEqual({
      expression: "happy",
      intensity: 0.6,
      timeline: [{ atSeconds: 2, expression: "serious", intensity: 0.6 }],
      headMotion: 1,
      emphasis: 1,
      blinksPerMinute: 19,
    });
    // A neutral cue has no intensity of its own; an expression at 0 is neutral.
    expect(settings({ timeline: [cue(1, "neutral", 0.9), cue(2, "sad", 0)] }).performance?.timeline).toEqual([
      { atSeconds: 1, expression: "neutral", intensity: 0.6 },
      { atSeconds: 2, expression: "neutral", intensity: 0.6 },
    ]);
    const body = { avatarId, audioUrl: PUBLIC_AUDIO };
    const prints = await Promise.all(
      [undefined, { headMotion: 2 }, { emphasis: 0 }, { blinksPerMinute: 10 }, { expression: "happy" as const }].map(
        (performance) => videoFingerprint(normalizeVideoInput({ ...body, video: { performance } })),
      ),
    );
    expect(new Set(prints).size).toBe(prints.length);
  });
});

describe("video.performance reaches the renderer", () => {
  it("is stored normalised and sent in the dispatch's settings, which the renderer's check accepts", async () => {
    const performance = { expression: "happy", intensity: 0.8, timeline: [cue(1.5, "serious")], headMotion: 2 };
    const { jobId } = await json<{ jobId: string }>(await perform(performance));
    const row = (await db().select().from(videoJobs).where(eq(videoJobs.id, jobId)).get())!;
    expect(row.settings.performance).toEqual({
      expression: "happy",
      intensity: 0.8,
      timeline: [{ atSeconds: 1.5, expression: "serious", intensity: 0.6 }],
      headMotion: 2,
      emphasis: 1,
      blinksPerMinute: 19,
    });
    const payload = await videoPayload(env, row, 1);
    expect(payload?.settings.performance).toEqual(row.settings.performance);
    const parsed = parseDispatch(JSON.parse(JSON.stringify(payload)));
    expect(parsed.ok && parsed.value.kind === "video" && parsed.value.settings.performance).toEqual(
      row.settings.performance,
    );
    const unsorted = {
      ...payload,
      settings: {
        ...payload?.settings,
        performance: { ...row.settings.performance, timeline: [cue(2), cue(1)].map((c) => ({ ...c, intensity: 0.5 })) },
      },
    };
    expect(parseDispatch(unsorted)).toEqual({
      ok: false,
      error: "settings.performance.timeline must be sorted by atSeconds, at least 0.3 s apart",
    });
  });
});
