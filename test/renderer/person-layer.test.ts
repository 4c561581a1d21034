/**
 * The person in front of a background (docs/rendering.md, "The person matte"): the matte made at Avatar
 * creation, renders over a plain colour and over a photo, the face against a render without a background,
 * the WebM with alpha, and the no-background output unchanged by the alpha video.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFaceModel, deform, mouthColors, NEUTRAL_POSE } from "@avatar-video/face-rig";
import { decodeMatte, ffmpegPath } from "../../container/src/media/public";
import { placePortrait, composePerson, FramePainter } from "../../container/src/paint/public";
import { staticFrames, renderVideo, type RenderInput, type RenderSettings } from "../../container/src/video/public";
import { encodeAudio, ffprobeJson, synthSpeech } from "./helpers/media-audio";
import { featureBox, SMALL_SQUARE, testAvatar, type TestAvatar } from "./helpers/media-avatar";

const S = SMALL_SQUARE.width;
const GREEN = [0, 192, 0];
const base: RenderSettings = { ...SMALL_SQUARE, backgroundColor: "#00c000" };

let dir: string;
let avatar: TestAvatar;
let audioPath: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "person-test-"));
  avatar = await testAvatar("single-phone");
  audioPath = join(dir, "speech.wav");
  const speech = synthSpeech(
    [
      { kind: "silence", seconds: 0.2 },
      { kind: "vowel", vowel: "AA", seconds: 0.6 },
      { kind: "plosive" },
      { kind: "vowel", vowel: "EH", seconds: 0.5 },
      { kind: "silence", seconds: 0.3 },
    ],
    24_000,
  );
  await encodeAudio(speech, 24_000, audioPath, "wav");
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function render(settings: Partial<RenderSettings>, extra: Partial<RenderInput> = {}) {
  return renderVideo({
    portraitPng: avatar.portraitPng,
    rig: avatar.rig,
    audioPath,
    matte: avatar.mattePng,
    settings: { ...base, ...settings },
    workDir: mkdtempSync(join(dir, "job-")),
    seed: 42,
    ...extra,
  });
}

/** Every frame of a video as raw pixels (rgb24, or rgba for the WebM, decoded by libvpx so its alpha is kept). */
function frames(path: string, channels: 3 | 4): Promise<Buffer[]> {
  const args = [
    ...(channels === 4 ? ["-c:v", "libvpx-vp9"] : []),
    "-i",
    path,
    "-f",
    "rawvideo",
    "-pix_fmt",
    channels === 4 ? "rgba" : "rgb24",
    "pipe:1",
  ];
  return new Promise((resolve, reject) => {
    const p = spawn(ffmpegPath(), ["-hide_banner", "-loglevel", "error", ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const chunks: Buffer[] = [];
    p.stdout.on("data", (b: Buffer) => chunks.push(b));
    p.on("error", reject);
    p.on("close", (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg ${code}`));
      const all = Buffer.concat(chunks);
      const n = S * S * channels;
      resolve(Array.from({ length: all.length / n }, (_, i) => all.subarray(i * n, (i + 1) * n)));
    });
  });
}

/** Mean of each channel over a w×h patch at (x, y). */
function patch(f: Buffer, channels: number, x: number, y: number, w = 8, h = 8): number[] {
  const sum = new Array(channels).fill(0);
  // Whole pixels: a box centre may fall between two (e.g. the face box of a refined rig).
  const [x0, y0] = [Math.round(x), Math.round(y)];
  for (let j = y0; j < y0 + h; j++)
    for (let i = x0; i < x0 + w; i++) for (let c = 0; c < channels; c++) sum[c] += f[(j * S + i) * channels + c];
  return sum.map((v) => v / (w * h));
}

const near = (got: number[], want: number[], tol: number) => got.every((v, c) => Math.abs(v - want[c]) <= tol);

/** Mean absolute difference of two RGB frames over a box. */
function faceDiff(a: Buffer, b: Buffer, box: { x0: number; y0: number; x1: number; y1: number }): number {
  let diff = 0;
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++)
      for (let c = 0; c < 3; c++) diff += Math.abs(a[(y * S + x) * 3 + c] - b[(y * S + x) * 3 + c]);
  return diff / ((box.x1 - box.x0) * (box.y1 - box.y0) * 3);
}

/** The face's inner box (eyes to chin) on the canvas for the crop framing. */
function faceBox() {
  const place = placePortrait(avatar.rig, avatar.rig.portrait.width, avatar.rig.portrait.height, base);
  return featureBox(avatar.rig, place, [33, 263, 1, 61, 291, 152, 10], 2);
}

describe("the matte made at Avatar creation", () => {
  it("is a one-band PNG of the portrait's size: the backdrop at the top corners 0, the face 255", async () => {
    expect(avatar.mattePng).toBeDefined();
    const { width, height } = avatar.rig.portrait;
    expect(await sharp(avatar.mattePng!).metadata()).toMatchObject({ width, height, channels: 1 });
    const alpha = (await decodeMatte(avatar.mattePng!, width, height))!;
    const at = (x: number, y: number) => alpha[Math.round(y) * width + Math.round(x)];
    expect(at(4, 4)).toBe(0);
    expect(at(width - 5, 4)).toBe(0);
    for (const i of [1, 6, 152, 234, 454, 13])
      expect(at(avatar.rig.landmarks[i][0], avatar.rig.landmarks[i][1]), `landmark ${i}`).toBe(255);
  });
});

describe("the person in front of a background", () => {
  let plain: Buffer[];
  let green: Buffer[];
  let cutout: Buffer[];
  let webmPath: string;
  beforeAll(async () => {
    const [a, b] = await Promise.all([render({}), render({ replaceBackground: true, alpha: true })]);
    webmPath = b.webmPath!;
    [plain, green, cutout] = await Promise.all([frames(a.mp4Path, 3), frames(b.mp4Path, 3), frames(webmPath, 4)]);
  }, 120_000);

  it("replaceBackground: the top corners (the photo's backdrop) are the colour in every frame; without it they are the photo", () => {
    for (const [k, f] of green.entries()) {
      for (const x of [0, S - 8])
        expect(near(patch(f, 3, x, 0), GREEN, 4), `frame ${k} x ${x}: ${patch(f, 3, x, 0)}`).toBe(true);
    }
    expect(near(patch(plain[0], 3, 0, 0), GREEN, 40)).toBe(false);
  });

  it("the face is the render without a background's (up to the encoder's noise)", () => {
    const b = faceBox();
    for (const k of [0, Math.floor(plain.length / 2), plain.length - 1]) {
      expect(faceDiff(plain[k], green[k], b), `frame ${k}`).toBeLessThan(2.5);
    }
  });

  it("painted frames: the face is byte for byte the render without a background's; the person layer beside it is the fully warped one", async () => {
    const pose = { ...NEUTRAL_POSE, open: 0.8, yaw: 2, roll: 1, ty: 3, blinkR: 0.5, blinkL: 0.5 };
    const painted = await Promise.all(
      [{}, { replaceBackground: true }, { alpha: true }].map(async (extra) => {
        const input = {
          portraitPng: avatar.portraitPng,
          rig: avatar.rig,
          audioPath,
          matte: avatar.mattePng,
          settings: { ...base, ...extra, leadInSeconds: 0, leadOutSeconds: 0 },
          workDir: dir,
        };
        const still = await staticFrames(input);
        const model = buildFaceModel(avatar.rig, still.placement);
        const painter = await FramePainter.create(model, mouthColors([200, 160, 140], [160, 80, 80]), still.yuv, S, S, {
          threads: 1,
          poolSize: 1,
          person: still,
        });
        painter.paint(deform(model, pose, new Float32Array(model.count * 2)), pose, 0);
        painter.close();
        return { frame: painter.pool[0], person: painter.personPool[0] };
      }),
    );
    const [plainFrame, over, beside] = painted;
    const b = faceBox();
    for (let y = b.y0; y < b.y1; y++)
      expect(over.frame.subarray(y * S + b.x0, y * S + b.x1)).toEqual(
        plainFrame.frame.subarray(y * S + b.x0, y * S + b.x1),
      );
    // Beside the unchanged video most of the layer is copied from it (person-tris.ts): the same bytes as warping it all.
    expect(beside.frame).toEqual(plainFrame.frame);
    expect(Buffer.compare(Buffer.from(beside.person), Buffer.from(over.person))).toBe(0);
  });

  it("where the warped matte is 0 the frame is the background: no old backdrop around the moving head", () => {
    for (let k = 0; k < green.length; k += 5) {
      let stray = 0;
      for (let y = 2; y < S - 2; y++) {
        for (let x = 2; x < S - 2; x++) {
          let clear = true; // transparent in a 5×5 neighbourhood (codec ringing stays near edges)
          for (let j = -2; j <= 2 && clear; j++)
            for (let i = -2; i <= 2 && clear; i++) clear = cutout[k][((y + j) * S + x + i) * 4 + 3] < 8;
          if (clear && !near([...green[k].subarray((y * S + x) * 3, (y * S + x) * 3 + 3)], GREEN, 24)) stray++;
        }
      }
      expect(stray, `frame ${k}`).toBe(0);
    }
  });

  it("the WebM: VP9 with alpha and Opus, every frame; alpha 0 in the top corners, 255 on the face", async () => {
    const info = await ffprobeJson(webmPath);
    expect(info.streams.map((s: { codec_name: string }) => s.codec_name)).toEqual(["vp9", "opus"]);
    expect(info.streams[0].tags?.alpha_mode ?? info.streams[0].tags?.ALPHA_MODE).toBe("1");
    expect(cutout).toHaveLength(green.length);
    const b = faceBox();
    for (const [k, f] of cutout.entries()) {
      expect(patch(f, 4, 0, 0)[3], `frame ${k}`).toBe(0);
      expect(patch(f, 4, S - 8, 0)[3], `frame ${k}`).toBe(0);
      expect(patch(f, 4, (b.x0 + b.x1) / 2 - 4, (b.y0 + b.y1) / 2 - 4)[3], `frame ${k}`).toBe(255);
    }
  });
});

describe("over a photo, and the MP4 without a background", () => {
  it("a background image: the top corners show the image, the face is the photo's", async () => {
    // A left-to-right ramp, so a wrong offset or a warped background shows.
    const ramp = Buffer.alloc(S * S * 3);
    for (let i = 0; i < S * S; i++) [ramp[i * 3], ramp[i * 3 + 1], ramp[i * 3 + 2]] = [i % S, 255 - (i % S), 128];
    const background = await sharp(ramp, { raw: { width: S, height: S, channels: 3 } })
      .png()
      .toBuffer();
    const [withPhoto, without] = await Promise.all([render({}, { background }), render({})]);
    const [f, g] = await Promise.all([frames(withPhoto.mp4Path, 3), frames(without.mp4Path, 3)]);
    for (const k of [0, Math.floor(f.length / 2)]) {
      expect(near(patch(f[k], 3, 0, 0), [3.5, 251.5, 128], 6), `${patch(f[k], 3, 0, 0)}`).toBe(true);
      expect(near(patch(f[k], 3, S - 8, 0), [251.5, 3.5, 128], 6), `${patch(f[k], 3, S - 8, 0)}`).toBe(true);
      // The face matches the render without a background up to the encoder's noise (mean over the face box,
      // as above: an 8×8 patch of two encodes differs by up to ≈ 2.2 levels).
      const b = faceBox();
      expect(faceDiff(f[k], g[k], b), `frame ${k}`).toBeLessThan(2.5);
    }
  });

  it("alpha without a background image: the MP4 is byte for byte the one rendered without alpha", async () => {
    const [a, b] = await Promise.all([render({}), render({ alpha: true })]);
    expect(readFileSync(b.mp4Path).equals(readFileSync(a.mp4Path))).toBe(true);
    expect(b.webmPath).toBeDefined();
  });

  it("where the photo ends inside the canvas the person thins out over W/24, not in a straight cut", async () => {
    const settings = {
      width: 640,
      height: 360,
      fit: "contain" as const,
      backgroundColor: "#000000",
      backgroundFit: "cover" as const,
    };
    const { width, height } = avatar.rig.portrait;
    const opaque = new Uint8Array(width * height).fill(255);
    const layer = await composePerson(avatar.portraitPng, opaque, avatar.rig, settings);
    const c = placePortrait(avatar.rig, width, height, settings).clip;
    expect(c.x0).toBeGreaterThan(0);
    const row = (settings.height >> 1) * settings.width;
    const fade = Math.round(settings.width / 24);
    const a = (x: number) => layer.alpha[row + x];
    expect(a(c.x0 - 1)).toBe(0);
    expect(a(c.x0)).toBeLessThan(10);
    expect(a(c.x0 + (fade >> 1))).toBeGreaterThan(64);
    expect(a(c.x0 + (fade >> 1))).toBeLessThan(192);
    expect(a(c.x0 + fade)).toBe(255);
    expect(a(c.x1 - 1)).toBeLessThan(10);
    for (let x = c.x0; x < c.x0 + fade; x++) expect(a(x + 1)).toBeGreaterThanOrEqual(a(x));
  });

  it("a layer without a usable matte is refused (render_failed, not retryable)", async () => {
    await expect(render({ replaceBackground: true }, { matte: undefined })).rejects.toMatchObject({
      code: "render_failed",
      retryable: false,
    });
  });
});
