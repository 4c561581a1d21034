/**
 * The /console/live page in real Chromium with a fake microphone playing a WAV (speech, then silence, looped):
 * a signed-in console person's page gets a token from the console session, connects with motion-client, streams through the AudioWorklet and
 * draws the Avatar with WebGL. The canvas's mouth region must change with speech and stay still in silence,
 * and for fixed poses it must be the renderer's mouth, within what the video codec itself changes — and so must
 * each expression on a turned head, in the brows-and-eyes box and the mouth box (docs/performance.md), with
 * spectacle rims kept rigid under an expression as the video keeps them.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAWN_EXPRESSIONS } from "@avatar-video/contract";
import { fixture } from "../fixtures/portraits/derive";
import { samplePortraits } from "../../scripts/quality/sample-portraits";
import { encodeAudio, speechLike, synthSpeech } from "../renderer/helpers/media-audio";
import {
  canvasRgb,
  codecError,
  cropYuv,
  difference,
  drawLive,
  EXPRESSION_POSES,
  expressionBoxes,
  LIVE_POSES,
  livePoses,
  liveYuv,
  motionMessage,
  mouthBox,
  renderPoses,
  tileSheet,
  yuvRgb,
} from "../../scripts/quality/live-compare";
import {
  accountWithAvatar,
  api,
  baseUrl,
  createAccount,
  inviteUser,
  motionChromium,
  publish,
  waitForJob,
} from "./helpers";

/** What the live page exposes as `window.__live()` (its LiveAvatar, packages/motion-client): the parts read here. */
interface LivePageHandle {
  ready: { avatar: { rigUrl: string } } | undefined;
  framesReceived: number;
  frame: { mouthOpen: number; mouthWide: number; mouthRound: number; lipsClosed: number } | undefined;
  avatar: { mouthBox: { x: number; y: number; width: number; height: number }; canvas: HTMLCanvasElement } | undefined;
}
declare global {
  interface Window {
    __live?: () => LivePageHandle | undefined;
  }
}

// MOTION_LIVE_SHOTS=<dir> also saves the canvas at the widest-open sample and at rest (to look at the mouth), the
// live page, and the live = rendered tiles.
const SHOTS = process.env.MOTION_LIVE_SHOTS;
const RATE = 48_000;
const SPEECH_S = 4;
const SILENCE_S = 4;

let dir: string;
let browser: BrowserContext;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "motion-live-"));
  const speech = synthSpeech(speechLike(SPEECH_S, 21), RATE);
  const wav = new Float32Array(speech.length + SILENCE_S * RATE);
  wav.set(speech);
  await encodeAudio(wav, RATE, join(dir, "speech-then-silence.wav"));
  // A fresh profile directory per run (playwright passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(
    join(dir, "profile"),
    motionChromium(
      "--disable-quic",
      "--disable-component-update",
      "--disable-sync",
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${join(dir, "speech-then-silence.wav")}`,
    ),
  );
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** /console/live with the account's Avatar chosen, talking into the fake microphone until frames arrive. */
async function talk(account: Awaited<ReturnType<typeof createAccount>>, avatarId: string, transparent = false) {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  // The live page is for a person signed in to the console: invite one into the account, set the password.
  const invited = inviteUser(account.accountId, `live-${crypto.randomUUID().slice(0, 8)}@example.com`);
  expect(invited.status, invited.stderr).toBe(0);
  await page.goto(invited.stdout.trim());
  await page.getByLabel("Password", { exact: true }).fill("a long console passphrase");
  await page.getByLabel("Confirm password").fill("a long console passphrase");
  await page.getByRole("button", { name: "Set password" }).click();
  await page.waitForURL(/\/console\/avatars/, { timeout: 10_000 });
  await page.goto(`${baseUrl}/console/live`);
  await page.getByRole("button", { name: "Load Avatars" }).click();
  await expect.poll(() => page.getByLabel("Avatar", { exact: true }).inputValue()).toBe(avatarId);
  if (transparent) await page.getByLabel("Transparent background (the person alone over the page)").check();
  await page.getByRole("button", { name: "Talk into the microphone" }).click();
  await page.waitForFunction(() => window.__live?.()?.avatar && window.__live!()!.framesReceived > 10, undefined, {
    timeout: 20_000,
  });
  return { page, problems };
}

interface Sample {
  at: number;
  open: number;
  mouthStill: boolean;
  /** Mouth-region pixels (gray), for differences between samples. */
  gray: number[];
}

/**
 * A smiling portrait that shows her teeth (her own teeth reused, lower teeth, the seal over them on m/b/p; a
 * smile to level for serious and sad): one Avatar for the live = rendered tests.
 */
let teeth: Promise<{ account: Awaited<ReturnType<typeof createAccount>>; avatarId: string }> | undefined;
function teethAvatar() {
  teeth ??= (async () => {
    const jpeg = await sharp(fixture("group-four"))
      .extract({ left: 340, top: 150, width: 360, height: 420 })
      .jpeg({ quality: 92 })
      .toBuffer();
    const account = await createAccount(3);
    const job = await api(account, "/avatars", { imageUrl: publish("live-teeth.jpg", jpeg) });
    const done = await waitForJob(account, `/avatar-jobs/${job.body.jobId}`);
    expect(done.job.status).toBe("succeeded");
    return { account, avatarId: done.job.avatarId! };
  })();
  return teeth;
}

/**
 * The live page's client and the renderer on the same poses (`named`, as EXPRESSION_POSES: the motion frames
 * the service sends), in each region of expressionBoxes (or the one named `only`): each pose within what H.264
 * changes there. Returns, per expression, how far its rendered frames are from the same pose without it, in
 * codec errors (the largest over regions and poses).
 */
async function liveMatchesRendered(
  page: Page,
  named: typeof EXPRESSION_POSES,
  shot: string,
  only?: string,
): Promise<Map<string, number>> {
  const rigUrl = await page.evaluate(() => window.__live!()!.ready!.avatar.rigUrl);
  const poses = livePoses(named);
  const live = await drawLive(page, "/console/live/motion-client.js", rigUrl, poses.map(motionMessage));
  const rig = await (await fetch(new URL(rigUrl, baseUrl))).json();
  const png = Buffer.from(await (await fetch(new URL(rig.portraitUrl, baseUrl))).arrayBuffer());
  const { model, frames } = await renderPoses(png, rig, poses);
  const shown = new Map<string, number>();
  for (const [region, box] of expressionBoxes(model, frames[0]!.width, frames[0]!.height)) {
    if (only && region !== only) continue;
    const codec = codecError(frames, box);
    if (SHOTS)
      await tileSheet(
        [live.map((shot) => canvasRgb(shot, box)), frames.map((f) => yuvRgb(cropYuv(f, box)))],
        box.width,
        box.height,
        join(SHOTS, `${shot}-${region.replace(/ /g, "-")}.png`),
      );
    named.forEach(([name], k) => {
      const rendered = cropYuv(frames[k]!, box);
      const d = difference(liveYuv(live[k]!, box), rendered);
      const c = codec[k]!;
      const line = `${name}, ${region}: live ${d.madY.toFixed(2)}/${d.madC.toFixed(2)}/${d.psnr.toFixed(1)} dB, H.264 ${c.madY.toFixed(2)}/${c.madC.toFixed(2)}/${c.psnr.toFixed(1)} dB`;
      expect(d.madY, line).toBeLessThanOrEqual(c.madY);
      expect(d.madC, line).toBeLessThanOrEqual(c.madC);
      expect(d.psnr, line).toBeGreaterThanOrEqual(c.psnr);
      // Poses come in pairs (at rest, mid-word), the photo's own face first: k % 2 is the same pose without it.
      const own = difference(rendered, cropYuv(frames[k % 2]!, box)).madY / c.madY;
      const expression = name.split(" ")[0]!;
      shown.set(expression, Math.max(shown.get(expression) ?? 0, own));
    });
  }
  return shown;
}

describe("/console/live in Chromium", () => {
  it("the Avatar speaks with the microphone: the mouth moves with speech and stays still in silence", async () => {
    const { account, avatarId } = await accountWithAvatar("live-portrait.jpg", fixture("single-camera"));
    const { page, problems } = await talk(account, avatarId);

    // Sample the canvas for two loops of the file (speech, silence, speech, silence).
    const samples: Sample[] & { widest?: number; restShot?: boolean } = [];
    const t0 = Date.now();
    while (Date.now() - t0 < (SPEECH_S + SILENCE_S) * 2000) {
      samples.push(
        await page.evaluate(() => {
          const live = window.__live!()!;
          const f = live.frame!;
          const box = live.avatar!.mouthBox;
          const c = document.createElement("canvas");
          c.width = box.width;
          c.height = box.height;
          const ctx = c.getContext("2d")!;
          ctx.drawImage(live.avatar!.canvas, box.x, box.y, box.width, box.height, 0, 0, box.width, box.height);
          const d = ctx.getImageData(0, 0, box.width, box.height).data;
          const gray: number[] = [];
          for (let i = 0; i < d.length; i += 4)
            gray.push(Math.round(0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!));
          const still = f.mouthOpen === 0 && f.mouthWide === 0 && f.mouthRound === 0 && f.lipsClosed === 0;
          return { at: performance.now(), open: f.mouthOpen, mouthStill: still, gray };
        }),
      );
      const last = samples.at(-1)!;
      const settled = samples.length > 2 && samples.slice(-3).every((x) => x.mouthStill); // drawn a frame later
      if (SHOTS && (last.open > (samples.widest ?? 0.3) || (settled && !samples.restShot))) {
        await page
          .locator("canvas")
          .first()
          .screenshot({ path: join(SHOTS, last.mouthStill ? "live-rest.png" : "live-open.png") });
        if (last.mouthStill) samples.restShot = true;
        else samples.widest = last.open;
      }
      await new Promise((r) => setTimeout(r, 60));
    }
    await page.screenshot({ path: ".local/motion-live.png" });

    const diff = (a: Sample, b: Sample) => a.gray.reduce((s, v, i) => s + Math.abs(v - b.gray[i]!), 0) / a.gray.length;
    const rest = samples.filter((s) => s.mouthStill);
    const speaking = samples.filter((s) => s.open > 0.3);
    expect(rest.length, "silent samples").toBeGreaterThan(15);
    expect(speaking.length, "speaking samples").toBeGreaterThan(10);
    // In silence the mouth region holds still (head sway moves it by a pixel at most): consecutive silent
    // samples barely differ… (pairs start one sample into the silence: the canvas is drawn on the next
    // animation frame, so the first "still" sample after speech can still show the closing mouth)
    const silentPairs: number[] = [];
    for (let i = 2; i < samples.length; i++) {
      if (samples[i]!.mouthStill && samples[i - 1]!.mouthStill && samples[i - 2]!.mouthStill)
        silentPairs.push(diff(samples[i]!, samples[i - 1]!));
    }
    const silentMax = Math.max(...silentPairs);
    // …while an open mouth differs clearly from the mouth at rest.
    const reference = rest[Math.floor(rest.length / 2)]!;
    const speakingDiffs = speaking.map((s) => diff(s, reference)).sort((a, b) => a - b);
    const speakingMedian = speakingDiffs[Math.floor(speakingDiffs.length / 2)]!;
    expect(
      silentMax,
      `silent max ${silentMax.toFixed(2)} vs speaking median ${speakingMedian.toFixed(2)}`,
    ).toBeLessThan(2);
    expect(speakingMedian).toBeGreaterThan(3 * Math.max(0.5, silentMax));
    // At rest the mouth is the photograph's own (its darkest lip pixels are ≈ 50): no painted cavity or
    // teeth between the lips; open, the painted throat is dark.
    const darkShare = (s: Sample) => s.gray.filter((g) => g < 45).length / s.gray.length;
    const settled = samples.filter(
      (x, i) => i > 1 && x.mouthStill && samples[i - 1]!.mouthStill && samples[i - 2]!.mouthStill,
    );
    expect(Math.max(...settled.map(darkShare)), "dark share at rest").toBeLessThan(0.001);
    expect(Math.max(...speaking.map(darkShare)), "dark share while speaking").toBeGreaterThan(0.01);
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);

  it("live = rendered: for fixed poses the canvas's mouth is the renderer's, within the video codec's own error", async () => {
    const { account, avatarId } = await teethAvatar();
    const { page, problems } = await talk(account, avatarId);
    const rigUrl = await page.evaluate(() => window.__live!()!.ready!.avatar.rigUrl);
    const poses = livePoses();
    // The live client as the page serves it, on a canvas of its own (the stream keeps drawing the page's).
    const live = await drawLive(page, "/console/live/motion-client.js", rigUrl, poses.map(motionMessage));
    // The renderer's frames of the same poses, from the same rig and portrait, at the portrait's size.
    const rig = await (await fetch(new URL(rigUrl, baseUrl))).json();
    const png = Buffer.from(await (await fetch(new URL(rig.portraitUrl, baseUrl))).arrayBuffer());
    const { model, frames } = await renderPoses(png, rig, poses);
    const box = mouthBox(model);
    const codec = codecError(frames, box);
    const report: string[] = [];
    LIVE_POSES.forEach(([name], k) => {
      const d = difference(liveYuv(live[k]!, box), cropYuv(frames[k]!, box));
      const c = codec[k]!;
      report.push(
        `${name}: live ${d.madY.toFixed(2)}/${d.madC.toFixed(2)}/${d.psnr.toFixed(1)} dB, H.264 ${c.madY.toFixed(2)}/${c.madC.toFixed(2)}/${c.psnr.toFixed(1)} dB`,
      );
      expect(d.madY, report.at(-1)).toBeLessThanOrEqual(c.madY);
      expect(d.madC, report.at(-1)).toBeLessThanOrEqual(c.madC);
      expect(d.psnr, report.at(-1)).toBeGreaterThanOrEqual(c.psnr);
    });
    // Not a vacuous match: the open vowel is far from rest (the old live mouth differed by 8 levels here).
    const opened = difference(cropYuv(frames[1]!, box), cropYuv(frames[0]!, box));
    expect(opened.madY, report.join("; ")).toBeGreaterThan(8 * codec[1]!.madY);
    if (SHOTS)
      await tileSheet(
        [live.map((shot) => canvasRgb(shot, box)), frames.map((f) => yuvRgb(cropYuv(f, box)))],
        box.width,
        box.height,
        join(SHOTS, "live-vs-rendered.png"),
      );
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);

  it("live = rendered per expression: each expression on a turned head, at rest and mid-word, within the codec's error", async () => {
    const { account, avatarId } = await teethAvatar();
    const { page, problems } = await talk(account, avatarId);
    // The page while live, with its Expression, Intensity and Head motion controls.
    if (SHOTS) await page.screenshot({ path: join(SHOTS, "live-page.png"), fullPage: true });
    const shown = await liveMatchesRendered(page, EXPRESSION_POSES, "live-vs-rendered");
    // Not a vacuous match: every expression shows in some region by well over the codec's error, so a live
    // Avatar that drew the photo's own face instead would fail above.
    for (const expression of DRAWN_EXPRESSIONS) expect(shown.get(expression), expression).toBeGreaterThan(2);
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);

  it("live = rendered with glasses: surprised raises the brows and the rims stay put, as in a video", async () => {
    const { glasses } = await samplePortraits(dir);
    const { account, avatarId } = await accountWithAvatar("live-glasses.jpg", readFileSync(glasses!));
    const { page, problems } = await talk(account, avatarId);
    const named = EXPRESSION_POSES.filter(([name]) => /^(neutral|surprised) /.test(name));
    const shown = await liveMatchesRendered(page, named, "live-vs-rendered-glasses", "brows and eyes");
    // Not a vacuous match: the surprised brows are well away from the same pose without them.
    expect(shown.get("surprised")).toBeGreaterThan(2);
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);

  it("Transparent background: the person alone on a transparent canvas, opaque on the face and the open mouth", async () => {
    const account = await createAccount(3);
    const job = await api(account, "/avatars", { imageUrl: publish("live-cutout.jpg", fixture("single-phone")) });
    const done = await waitForJob(account, `/avatar-jobs/${job.body.jobId}`);
    expect(done.job.status).toBe("succeeded");
    const { page, problems } = await talk(account, done.job.avatarId!, true);
    // Alpha of the canvas at its top corners (the photo's backdrop: window blinds), the nose, and the mouth while open.
    const alphaAt = () =>
      page.evaluate(() => {
        const live = window.__live!()!;
        const canvas = live.avatar!.canvas;
        const c = document.createElement("canvas");
        c.width = canvas.width;
        c.height = canvas.height;
        const ctx = c.getContext("2d")!;
        ctx.drawImage(canvas, 0, 0);
        const a = (x: number, y: number) => ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data[3]!;
        const box = live.avatar!.mouthBox;
        return {
          corners: [a(4, 4), a(canvas.width - 5, 4)],
          nose: a(canvas.width / 2, canvas.height * 0.45),
          mouth: a(box.x + box.width / 2, box.y + box.height / 2),
          open: live.frame!.mouthOpen,
        };
      });
    let opened = false;
    const t0 = Date.now();
    while (Date.now() - t0 < 12_000 && !opened) {
      const s = await alphaAt();
      expect(s.corners).toEqual([0, 0]);
      expect(s.nose).toBe(255);
      if (s.open > 0.3) {
        expect(s.mouth, "the open mouth stays opaque").toBe(255);
        opened = true;
      }
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(opened, "the mouth opened while sampling").toBe(true);
    if (SHOTS)
      await page
        .locator("canvas")
        .first()
        .screenshot({ path: join(SHOTS, "live-transparent.png") });
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);
});
