import { mkdtempSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { fixture } from "../fixtures/portraits/derive";
import { encodeAudio, synthSpeech } from "../renderer/helpers/media-audio";
import { admin, api, createAccount, publish, type TestAccount, waitForJob } from "./helpers";

// The renderer pool over real HTTP (the e2e-scale project of vitest.config.ts: three renderer processes, three
// instances).
// Account A asks for four renders, then account B for two: no instance may sit idle while a render waits
// (beyond the hand-over: end event → pool → queue → dispatch), no instance holds two renders, and B's first
// render starts before A's last one (A's line does not hold B back).

const rendererUrls = inject("rendererUrls");
const HANDOVER_MS = 6_000; // shared 2-core machine; measured hand-overs are printed
let a: TestAccount;
let b: TestAccount;
let avatarId: string;
let audioUrl: string;

beforeAll(async () => {
  [a, b] = [await createAccount(2), await createAccount(0)];
  const res = await api(a, "/avatars", { imageUrl: publish("scale-avatar.jpg", fixture("single-camera")) });
  const job = (await waitForJob(a, `/avatar-jobs/${res.body.jobId}`)).job;
  expect(job.status).toBe("succeeded");
  avatarId = job.avatarId!;
  await admin(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds: [b.accountId] } });
  const path = join(mkdtempSync(join(tmpdir(), "e2e-scale-")), "speech.wav");
  await encodeAudio(
    synthSpeech([
      { kind: "silence", seconds: 0.3 },
      { kind: "vowel", vowel: "AA", seconds: 1.2 },
      { kind: "silence", seconds: 0.5 },
    ]),
    24_000,
    path,
    "wav",
  );
  audioUrl = publish("scale-speech.wav", await readFile(path));
});

const health = async (url: string) =>
  (await (await fetch(`${url}/health`)).json()) as { activeJobs: number; waitingJobs: number };

describe("renderer pool: three instances, two accounts", () => {
  it("keeps every instance busy while renders wait, one render per instance, and serves both accounts", async () => {
    expect(rendererUrls).toHaveLength(3);
    const video = { width: 512, height: 512, leadOutSeconds: 14 }; // ≈ 17 s of video per render
    const jobs: { who: TestAccount; name: string; id: string }[] = [];
    for (const [who, name] of [
      [a, "A1"],
      [a, "A2"],
      [a, "A3"],
      [a, "A4"],
      [b, "B1"],
      [b, "B2"],
    ] as const) {
      const res = await api(who, "/videos", { avatarId, audioUrl, video });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      jobs.push({ who, name, id: res.body.jobId });
    }
    const started: Record<string, number> = {};
    const ended: Record<string, string> = {};
    let idleSince: number | null = null;
    const idleGaps: number[] = [];
    let maxPerInstance = 0;
    const busySeen = new Set<number>();
    const t0 = Date.now();
    while (Object.keys(ended).length < jobs.length && Date.now() - t0 < 280_000) {
      const now = Date.now();
      const [loads, states] = await Promise.all([
        Promise.all(rendererUrls.map(health)),
        Promise.all(jobs.map(async (j) => (await api(j.who, `/video-jobs/${j.id}`)).body.job)),
      ]);
      states.forEach((s, i) => {
        if (s.status !== "queued") started[jobs[i].name] ??= now;
        if (["succeeded", "failed", "expired"].includes(s.status)) ended[jobs[i].name] ??= s.status;
      });
      loads.forEach((l, i) => {
        maxPerInstance = Math.max(maxPerInstance, l.activeJobs + l.waitingJobs);
        if (l.activeJobs > 0) busySeen.add(i);
      });
      const waiting = states.some((s) => s.status === "queued");
      const idle = loads.some((l) => l.activeJobs + l.waitingJobs === 0);
      if (waiting && idle) idleSince ??= now;
      else if (idleSince !== null) {
        idleGaps.push(now - idleSince);
        idleSince = null;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const order = Object.entries(started)
      .sort((x, y) => x[1] - y[1])
      .map(([name, at]) => `${name}@${((at - t0) / 1000).toFixed(1)}s`);
    const detail = JSON.stringify({ ended, order, idleGaps, maxPerInstance });
    console.log(`renderer pool e2e: ${detail}`);
    expect(Object.values(ended), detail).toEqual(Array(6).fill("succeeded"));
    expect(maxPerInstance, detail).toBe(1);
    expect([...busySeen].sort(), detail).toEqual([0, 1, 2]);
    expect(Math.max(0, ...idleGaps), detail).toBeLessThan(HANDOVER_MS);
    // B's first render does not wait behind A's fourth: it starts no later (two instances freed in the same
    // moment start both in the same poll of the job states).
    expect(started.B1, detail).toBeLessThanOrEqual(started.A4);
  });
});
