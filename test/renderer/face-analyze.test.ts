/**
 * Face analysis on real photos: the models load from node_modules on WASM, every face is found with 478
 * points, pose signs follow the rig's convention, and the "exactly one clearly visible face" rules.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeFaces, assessPortrait, type RgbImage } from "../../container/src/face/analyze";
import { CLEAR_MIN_SHARPNESS } from "../../container/src/face/assess";
import { getHuman, warmHuman } from "../../container/src/face/human";
import { faceSharpness } from "../../container/src/face/sharpness";
import { fixture, rgb } from "../fixtures/portraits/derive";

let phone: RgbImage;
let camera: RgbImage;

beforeAll(async () => {
  await warmHuman();
  phone = await rgb(fixture("single-phone"));
  camera = await rgb(fixture("single-camera"));
});

const inside = (img: RgbImage, pts: number[][]) => pts.every(([x, y]) => x >= 0 && y >= 0 && x <= img.width && y <= img.height);

describe("face models", () => {
  it("run on the WASM backend with only BlazeFace, FaceMesh and iris loaded", async () => {
    const human = await getHuman();
    expect(human.tf.getBackend()).toBe("wasm");
    const loaded = Object.entries(human.models.models).filter(([, m]) => m).map(([name]) => name).sort();
    expect(loaded).toEqual(["blazeface", "facemesh", "iris"]);
    expect(await getHuman()).toBe(human); // singleton
  });

  it("does not leak tensors across analyses", async () => {
    const human = await getHuman();
    await analyzeFaces(phone);
    const before = human.tf.memory().numTensors;
    await analyzeFaces(phone);
    await analyzeFaces(camera);
    expect(human.tf.memory().numTensors).toBe(before);
  });
});

describe("analyzeFaces", () => {
  it("finds the one face of a portrait with 478 points inside the frame", async () => {
    const faces = await analyzeFaces(phone);
    expect(faces).toHaveLength(1);
    const [f] = faces;
    expect(f.mesh).toHaveLength(478);
    expect(inside(phone, f.mesh)).toBe(true);
    expect(f.score).toBeGreaterThanOrEqual(0.9);
    expect(f.detectorScore).toBeGreaterThan(0.6);
    // Eyes above the nose tip above the mouth; right eye (33) on the image's left.
    expect(f.mesh[33][0]).toBeLessThan(f.mesh[263][0]);
    expect(f.mesh[159][1]).toBeLessThan(f.mesh[1][1]);
    expect(f.mesh[1][1]).toBeLessThan(f.mesh[13][1]);
    expect(Math.abs(f.pose.yaw)).toBeLessThan(25);
  });

  it("finds all four faces of a group photo", async () => {
    const faces = await analyzeFaces(await rgb(fixture("group-four")));
    expect(faces).toHaveLength(4);
    for (const f of faces) expect(f.mesh).toHaveLength(478);
  });

  it("finds no face on a photo of stairs", async () => {
    expect(await analyzeFaces(await rgb(fixture("no-face-stairs")))).toHaveLength(0);
  });

  it("gives the same answers to concurrent calls (calls are serialised)", async () => {
    const [a, b, c] = await Promise.all([analyzeFaces(phone), analyzeFaces(camera), analyzeFaces(phone)]);
    expect(a[0].box).toEqual(c[0].box);
    expect(b[0].box).not.toEqual(a[0].box);
  });

  it("pose follows the rig's convention: mirrored → yaw and roll flip; turned clockwise → roll grows", async () => {
    const [base] = await analyzeFaces(camera);
    const [mirrored] = await analyzeFaces(await rgb(await sharp(fixture("single-camera")).flop().toBuffer()));
    expect(Math.sign(mirrored.pose.yaw)).toBe(-Math.sign(base.pose.yaw));
    expect(mirrored.pose.yaw).toBeCloseTo(-base.pose.yaw, -1);
    const turned = await rgb(await sharp(fixture("single-camera")).rotate(20, { background: "#808080" }).toBuffer());
    const [cw] = await analyzeFaces(turned);
    expect(cw.pose.roll - base.pose.roll).toBeGreaterThan(15);
    expect(cw.pose.roll - base.pose.roll).toBeLessThan(25);
  });
});

describe("assessPortrait", () => {
  const assess = async (img: RgbImage) => assessPortrait(img, await analyzeFaces(img));

  it("accepts both single-face portraits", async () => {
    for (const img of [phone, camera]) {
      const a = await assess(img);
      expect(a.reasons).toEqual([]);
      expect(a.ok).toBe(true);
      expect(a.measurements!.sharpness).toBeGreaterThan(CLEAR_MIN_SHARPNESS);
    }
  });

  it("rejects a group photo, a photo without a face, and a second face cut by the frame", async () => {
    expect((await assess(await rgb(fixture("group-four")))).reasons).toEqual(["multiple_faces"]);
    expect((await assess(await rgb(fixture("no-face-stairs")))).reasons).toEqual(["no_face"]);
    const edge = await assess(await rgb(fixture("second-face-at-edge")));
    expect(edge).toMatchObject({ ok: false, visibleFaces: 2, reasons: ["multiple_faces"] });
  });

  it("rejects a blurred portrait (Gaussian σ = 4 px)", async () => {
    const a = await assess(await rgb(await sharp(fixture("single-phone")).blur(4).toBuffer()));
    expect(a.reasons).toEqual(["blurry"]);
  });

  it("rejects a face that is small in its frame, or small in pixels", async () => {
    // The same face on a 2400 px square canvas (extended right/bottom, so its points stay valid): ~9 %
    // of the shorter side. Checked with the portrait's own detection so the rule, not BlazeFace, is tested.
    const faces = await analyzeFaces(phone);
    const big = await rgb(await sharp(fixture("single-phone")).extend({ right: 2400 - phone.width, bottom: 2400 - phone.height, background: "#9aa" }).toBuffer());
    expect((await assessPortrait(big, faces)).reasons).toEqual(["face_too_small"]);
    // Analysed on a copy 0.4× the source: a 224 px face here would be 90 px in the source.
    expect((await assessPortrait(phone, faces, 0.4)).reasons).toEqual(["face_too_small"]);
  });

  it("rejects a face cut by the frame", async () => {
    // Cut just below the nose: the chin and mouth points fall outside (or no face is found at all).
    const [f] = await analyzeFaces(phone);
    const cut = await rgb(await sharp(fixture("single-phone")).extract({ left: 0, top: 0, width: phone.width, height: Math.round(f.mesh[2][1]) }).toBuffer());
    const a = await assess(cut);
    expect(a.ok).toBe(false);
  });

  it("rejects a head turned far to the side", async () => {
    // Synthetic yaw is not possible with a 2D edit; a strong roll is: rotate 50° clockwise.
    const turned = await rgb(await sharp(fixture("single-camera")).rotate(50, { background: "#808080" }).toBuffer());
    const a = await assess(turned);
    expect(a.ok).toBe(false);
    expect(a.reasons).toContain("roll");
  });
});

describe("faceSharpness", () => {
  it("falls steadily with blur", async () => {
    const [f] = await analyzeFaces(phone);
    const values: number[] = [];
    for (const sigma of [0, 1, 2, 4]) {
      const img = sigma ? await rgb(await sharp(fixture("single-phone")).blur(sigma).toBuffer()) : phone;
      values.push((await faceSharpness(img, f.box)).normalized);
    }
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThan(values[i - 1]);
    expect(values[3]).toBeLessThan(CLEAR_MIN_SHARPNESS);
  });
});
