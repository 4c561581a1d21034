/**
 * The renderer's synchronous pre-flight check (POST /checks): the same download, file rules and face
 * rules as an Avatar job, answered at once with the reason, the sentence and the face measurements.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AvatarCheckAnswer } from "../../container/src/avatar/public";
import { warmHuman } from "../../container/src/analysis/public";
import { fixture } from "../fixtures/portraits/derive";
import { mediumShot } from "../fixtures/portraits/small-face";
import { type Harness, RENDERER_TOKEN, startHarness } from "./helpers/renderer-harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await warmHuman();
});
afterAll(() => h?.close());

async function check(imageUrl: unknown, token: string | null = RENDERER_TOKEN) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${h.url}/checks`, { method: "POST", headers, body: JSON.stringify({ imageUrl }) });
  // An AvatarCheckAnswer when 200 (error bodies are only checked by status).
  return { status: res.status, body: (await res.json()) as AvatarCheckAnswer };
}

describe("POST /checks", () => {
  it("an acceptable portrait: acceptable, no reason, the face measured", async () => {
    const { status, body } = await check(h.sources.file("phone.jpg", fixture("single-phone"), "image/jpeg"));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      acceptable: true,
      code: null,
      reason: null,
      detail: "The image meets every Avatar image rule.",
    });
    expect(body.face!.widthPx).toBeGreaterThan(200);
    expect(body.face!.box.width).toBeCloseTo(body.face!.widthPx, -1);
    expect(body.face!.sharpness).toBeGreaterThan(0.016);
    expect(Math.abs(body.face!.yawDeg)).toBeLessThan(30);
  });

  it("a 58 px face: face_too_small with the sentence and the measured face", async () => {
    const shot = await mediumShot("single-camera", { faceWidth: 58, canvas: { width: 512, height: 512 } });
    const { body } = await check(h.sources.file("small.jpg", shot, "image/jpeg"));
    expect(body).toMatchObject({ acceptable: false, code: "image_quality_rejected", reason: "face_too_small" });
    expect(body.detail).toBe(
      `The face is ${body.face!.widthPx} px wide; at least 64 px is needed. Use a closer or larger photo.`,
    );
  });

  it("file and download refusals are answers too, with their reasons", async () => {
    const gif = await sharp(fixture("single-phone")).gif().toBuffer();
    expect((await check(h.sources.file("x.gif", gif, "image/jpeg"))).body).toMatchObject({
      acceptable: false,
      code: "invalid_image",
      reason: "unsupported_format",
      face: null,
    });
    expect((await check(h.sources.url("/status/404"))).body).toMatchObject({
      acceptable: false,
      code: "source_download_failed",
      reason: "source_http_error",
    });
    // The same SSRF rules as jobs: loopback outside the allowlist is refused without being fetched.
    expect((await check("http://127.0.0.1:1/x.jpg")).body).toMatchObject({ reason: "source_refused" });
    expect((await check(h.sources.file("group.jpg", fixture("group-four"), "image/jpeg"))).body).toMatchObject({
      reason: "multiple_faces",
    });
  });

  it("needs the renderer token and a body with imageUrl", async () => {
    expect((await check("https://example.com/x.jpg", null)).status).toBe(401);
    expect((await check("https://example.com/x.jpg", "wrong")).status).toBe(401);
    expect((await check(42)).status).toBe(400);
  });
});
