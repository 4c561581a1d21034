/**
 * Face analysis on real photos: the models load from node_modules on WASM, every face is found with 478
 * points, pose signs follow the rig's convention, and the "exactly one clearly visible face" rules.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeFaces, type RgbImage, getHuman, warmHuman, faceSharpness } from "../../container/src/analysis/public";
import { checkFaces, assessPortrait, findFaces } from "../../container/src/avatar/public";
import { CLEAR_MIN_SHARPNESS } from "../../container/src/rules/public";
import { fixture, rgb } from "../fixtures/portraits/derive";
import { mediumShot } from "../fixtures/portraits/small-face";

let phone: RgbImage;
let camera: RgbImage;

beforeAll(async () => {
  await warmHuman();
  phone = await rgb(fixture("single-phone"));
  camera = await rgb(fixture("single-camera"));
});

const inside = (img: RgbImage, pts: number[][]) =>
  pts.every(([x, y]) => x >= 0 && y >= 0 && x <= img.width && y <= img.height);

describe("face models", () => {
  it("run on the WASM backend with only BlazeFace, FaceMesh and iris loaded", async () => {
    const human = await getHuman();
    expect(human.tf.getBackend()).toBe("wasm");
    const loaded = Object.entries(human.models.models)
      .filter(([, m]) => m)
      .map(([name]) => name)
      .sort();
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

describe("checkFaces (one visible face, and clear)", () => {
  const check = async (bytes: Buffer) => checkFaces(await rgb(bytes));
  const refusal = async (bytes: Buffer) => {
    const a = await check(bytes);
    expect(a.ok).toBe(false);
    return { reason: a.rejection!.reason, detail: a.rejection!.clientDetail!, a };
  };

  it("accepts both single-face portraits", async () => {
    for (const img of [phone, camera]) {
      const a = await checkFaces(img);
      expect(a.rejection).toBeUndefined();
      expect(a.ok).toBe(true);
      expect(a.measurements!.sharpness).toBeGreaterThan(CLEAR_MIN_SHARPNESS);
    }
  });

  it("a group photo, a photo without a face, a second face cut by the frame", async () => {
    expect(await refusal(fixture("group-four"))).toMatchObject({
      reason: "multiple_faces",
      detail: "4 faces were found; exactly one is needed. Crop the photo to one person.",
    });
    expect(await refusal(fixture("no-face-stairs"))).toMatchObject({ reason: "no_face" });
    const edge = await refusal(fixture("second-face-at-edge"));
    expect(edge).toMatchObject({ reason: "multiple_faces", a: { visibleFaces: 2 } });
  });

  it("face_blurred (Gaussian σ = 4 px on a 224 px face), with the measured sharpness", async () => {
    const r = await refusal(await sharp(fixture("single-phone")).blur(4).toBuffer());
    expect(r.reason).toBe("face_blurred");
    expect(r.detail).toBe(
      `The face is blurred (sharpness ${r.a.measurements!.sharpness.toFixed(3)}; at least 0.016 is needed). Use a sharp, in-focus photo.`,
    );
  });

  it("face_blurred on a small face too: blur is judged relative to the face (64 px face, σ = 1.5 px)", async () => {
    const sharpShot = await mediumShot("single-phone", { faceWidth: 68, canvas: { width: 512, height: 512 } });
    expect((await check(sharpShot)).ok).toBe(true);
    const blurred = await mediumShot("single-phone", { faceWidth: 68, canvas: { width: 512, height: 512 }, blur: 1.5 });
    expect((await refusal(blurred)).reason).toBe("face_blurred");
  });

  it("face_too_small: 58 px refused with its width and the rule; 64 px accepted", async () => {
    const small = await refusal(
      await mediumShot("single-camera", { faceWidth: 58, canvas: { width: 512, height: 512 } }),
    );
    expect(small.reason).toBe("face_too_small");
    expect(small.detail).toBe(
      `The face is ${Math.round(small.a.measurements!.widthPx)} px wide; at least 64 px is needed. Use a closer or larger photo.`,
    );
    expect(small.a.measurements!.widthPx).toBeLessThan(62);
    const ok = await check(await mediumShot("single-camera", { faceWidth: 66, canvas: { width: 512, height: 512 } }));
    expect(ok.measurements!.widthPx).toBeGreaterThanOrEqual(64);
    expect(ok.ok).toBe(true);
  });

  it("finds an 80 px face in a 1600×1200 photo and a 100 px face in a 4000×3000 photo (tiles, then a full-resolution look)", async () => {
    const mid = await check(
      await mediumShot("single-camera", { faceWidth: 80, canvas: { width: 1600, height: 1200 } }),
    );
    expect(mid.ok).toBe(true);
    expect(Math.abs(mid.measurements!.widthPx - 80)).toBeLessThan(5);
    const big = await rgb(await mediumShot("single-camera", { faceWidth: 100, canvas: { width: 4000, height: 3000 } }));
    const search = await findFaces(big);
    expect(search.tiles).toBeGreaterThan(0);
    const a = await assessPortrait(big, search.faces, search.smallestFindablePx);
    expect(a.ok).toBe(true);
    expect(a.measurements!.detectorScore).toBeGreaterThan(0.6);
  });

  it("face_cut_off: the face cut just below the nose", async () => {
    const [f] = await analyzeFaces(phone);
    const cut = await sharp(fixture("single-phone"))
      .extract({ left: 0, top: 0, width: phone.width, height: Math.round(f.mesh[2][1]) })
      .toBuffer();
    const r = await refusal(cut);
    expect(r.reason).toBe("face_cut_off");
    expect(r.detail).toMatch(
      /^The face reaches \d+ px past the bottom edge of the image; the whole face must be inside the photo\.$/,
    );
  });

  it("face_tilted: a head rolled 50°", async () => {
    const r = await refusal(await sharp(fixture("single-camera")).rotate(50, { background: "#808080" }).toBuffer());
    expect(r.reason).toBe("face_tilted");
    expect(r.detail).toMatch(/^The head is tilted \d\d° sideways; at most 35° is accepted\. Straighten the photo\.$/);
  });

  it("face_occluded: half the face painted over (the detector is sure, FaceMesh cannot trace it)", async () => {
    const [f] = await analyzeFaces(phone);
    const m = f.mesh;
    const x0 = Math.round(m[234][0]) - 4,
      y0 = Math.round(m[10][1]) - 4;
    const width = Math.round(m[1][0]) + 4 - x0,
      height = Math.round(m[152][1]) + 4 - y0;
    const covered = await sharp(fixture("single-phone"))
      .composite([{ input: { create: { width, height, channels: 3, background: "#808080" } }, left: x0, top: y0 }])
      .jpeg({ quality: 92 })
      .toBuffer();
    const r = await refusal(covered);
    expect(r.reason).toBe("face_occluded");
    expect(r.detail).toMatch(
      /^A face was found but its features could not be traced \(landmark confidence 0\.\d\d; at least 0\.90 is needed\)\./,
    );
  });

  it("face_turned: the turn is measured from the mesh (a yaw beyond 30° is refused with its angle)", async () => {
    // A 2D edit cannot turn a head: judge the real mesh with its pose replaced.
    const [f] = await analyzeFaces(camera);
    const a = await assessPortrait(camera, [{ ...f, pose: { ...f.pose, yaw: -41 } }]);
    expect(a.rejection?.reason).toBe("face_turned");
    expect(a.rejection?.clientDetail).toBe(
      "The head is turned 41° to the side; at most 30° is accepted. Use a photo looking at the camera.",
    );
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
