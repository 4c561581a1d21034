/**
 * The person matte and the alpha video through the renderer's jobs (engines are test doubles here; the
 * real matte and layer rendering have their own tests in person-layer.test.ts): an Avatar job stores its
 * matte; a video job reads it only when the person gets a layer of its own, makes and stores it for an
 * Avatar that has none (or one that does not fit), and uploads the WebM beside the MP4.
 */
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeEngines,
  type Harness,
  fakeEngines,
  startHarness,
  syntheticAvatar,
  syntheticMatte,
  until,
} from "./helpers/renderer-harness";

let h: Harness;
let engines: FakeEngines;

beforeAll(async () => {
  engines = fakeEngines();
  h = await startHarness({ engines });
});
afterAll(() => h.close());
afterEach(async () => {
  await until(() => h.renderer.manager.activeJobs === 0, 10_000, "renderer idle");
  h.worker.reset();
  engines.calls.renderVideo.length = 0;
  engines.calls.computeMatte = 0;
  engines.avatarAssets = undefined;
});

/** A video dispatch whose Avatar may have a matte stored, with the place to store one. */
async function personDispatch(over: Record<string, unknown> = {}) {
  const d = await h.videoDispatch(over);
  const key = `avatars/${d.avatarId}/matte.png`;
  d.avatar.matte = h.worker.objectUrl(key);
  d.outputs.matte = h.worker.objectUrl(key);
  return { d, key };
}

const matteRequests = (key: string) => h.worker.requests.filter((r) => r.key === key).map((r) => r.method);

describe("avatar job: the matte", () => {
  it("is uploaded where the dispatch says, after preprocessed, and reported in the result", async () => {
    const avatar = await syntheticAvatar();
    engines.avatarAssets = { ...avatar, mattePng: await syntheticMatte(256, 256) };
    const d = h.avatarDispatch({ imageUrl: h.sources.file("p.jpg", Buffer.from("jpeg bytes"), "image/jpeg") });
    d.outputs.matte = h.worker.objectUrl(`avatars/${d.jobId}/matte.png`);
    const end = await h.run(d);
    expect(end.body.type, JSON.stringify(end.body.error)).toBe("succeeded");
    const stored = h.worker.objects.get(`avatars/${d.jobId}/matte.png`)!;
    expect(stored.contentType).toBe("image/png");
    expect(stored.body.equals(engines.avatarAssets.mattePng!)).toBe(true);
    expect(end.body.result.matte).toEqual({ bytes: stored.body.length, contentType: "image/png" });
    expect(h.worker.log.indexOf(`put:avatars/${d.jobId}/matte.png`)).toBeGreaterThan(
      h.worker.log.indexOf("event:progress:preprocessed"),
    );
  });

  it("a dispatch without a matte URL stores none (a Worker from before mattes)", async () => {
    engines.avatarAssets = { ...(await syntheticAvatar()), mattePng: await syntheticMatte(256, 256) };
    const d = h.avatarDispatch({ imageUrl: h.sources.file("p2.jpg", Buffer.from("jpeg bytes"), "image/jpeg") });
    const end = await h.run(d);
    expect(end.body.type).toBe("succeeded");
    expect(end.body.result.matte).toBeUndefined();
    expect(h.worker.log.filter((l) => l.startsWith("put:"))).toHaveLength(3);
  });
});

describe("video job: the matte", () => {
  it("is not read when the person needs no layer (no background image, no switch)", async () => {
    const { d, key } = await personDispatch();
    const end = await h.run(d);
    expect(end.body.type).toBe("succeeded");
    expect(matteRequests(key)).toEqual([]);
    expect(engines.calls.renderVideo[0].matte).toBeUndefined();
  });

  it("an Avatar without one (404): made once from the stored portrait, stored, and rendered with", async () => {
    const { d, key } = await personDispatch({
      settings: { ...(await h.videoDispatch()).settings, replaceBackground: true },
    });
    const end = await h.run(d);
    expect(end.body.type, JSON.stringify(end.body.error)).toBe("succeeded");
    expect(engines.calls.computeMatte).toBe(1);
    expect(matteRequests(key)).toEqual(["GET", "PUT"]);
    const stored = h.worker.objects.get(key)!;
    expect(stored.contentType).toBe("image/png");
    expect(engines.calls.renderVideo[0].matte!.equals(stored.body)).toBe(true);

    // The next video of that Avatar reads it back: nothing is made again.
    engines.calls.renderVideo.length = 0;
    const again = await h.videoDispatch({ settings: d.settings });
    h.worker.objects.set(`avatars/${again.avatarId}/matte.png`, stored);
    again.avatar.matte = h.worker.objectUrl(`avatars/${again.avatarId}/matte.png`);
    expect((await h.run(again)).body.type).toBe("succeeded");
    expect(engines.calls.computeMatte).toBe(1);
    expect(engines.calls.renderVideo[0].matte!.equals(stored.body)).toBe(true);
  });

  it("a stored matte that does not fit the portrait is made again and replaced", async () => {
    const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: "#00ff00" } })
      .png()
      .toBuffer();
    const { d, key } = await personDispatch({ backgroundUrl: h.sources.file("bg.png", png, "image/png") });
    h.worker.objects.set(key, { body: await syntheticMatte(100, 100), contentType: "image/png" });
    const end = await h.run(d);
    expect(end.body.type).toBe("succeeded");
    expect(engines.calls.computeMatte).toBe(1);
    expect((await sharp(h.worker.objects.get(key)!.body).metadata()).width).toBe(256);
  });

  it("storing a made matte is best effort: a refused PUT does not fail the video", async () => {
    const { d, key } = await personDispatch({ settings: { ...(await h.videoDispatch()).settings, alpha: true } });
    d.outputs.alphaVideo = h.worker.objectUrl(`videos/${d.jobId}.webm`);
    h.worker.onObject = (method, k) => (method === "PUT" && k === key ? 400 : undefined);
    try {
      const end = await h.run(d);
      expect(end.body.type, JSON.stringify(end.body.error)).toBe("succeeded");
      expect(engines.calls.renderVideo[0].matte).toBeDefined();
    } finally {
      h.worker.onObject = () => undefined;
    }
  });
});

describe("video job: the alpha video", () => {
  it("alpha: the WebM is uploaded beside the MP4 and reported", async () => {
    const { d } = await personDispatch({ settings: { ...(await h.videoDispatch()).settings, alpha: true } });
    d.outputs.alphaVideo = h.worker.objectUrl(`videos/${d.jobId}.webm`);
    const end = await h.run(d);
    expect(end.body.type, JSON.stringify(end.body.error)).toBe("succeeded");
    const webm = h.worker.objects.get(`videos/${d.jobId}.webm`)!;
    expect(webm.contentType).toBe("video/webm");
    expect(end.body.result.alphaVideo).toEqual({ bytes: webm.body.length });
    expect(h.worker.objects.get(`videos/${d.jobId}.mp4`)?.contentType).toBe("video/mp4");
  });

  it("a dispatch asking for alpha without a place for the WebM breaks the contract (400)", async () => {
    const d = await h.videoDispatch();
    d.settings = { ...d.settings, alpha: true };
    const res = await h.post(d);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("outputs.alphaVideo is required when settings.alpha is true");
  });
});
