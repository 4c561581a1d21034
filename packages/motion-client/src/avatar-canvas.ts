/**
 * Draws the Avatar on a canvas with WebGL: the portrait as a texture on the renderer's face mesh, moved by
 * the renderer's own deformation (@avatar-video/face-rig: buildFaceModel + deform, bundled in, not copied),
 * and the renderer's own mouth interior over it (mouth-overlay.ts: face-rig's shading, painted on the CPU
 * into a small RGBA patch each frame and blended over the warped mouth). Transparent: the
 * texture carries the person matte as alpha (with the person's own edge colours, as the renderer's alpha
 * video), so the warp moves the cut-out with the face and the page shows around it. Under an expression,
 * glasses stay rigid as in a video (rigid-eyewear.ts): the face is drawn from the portrait without its rims
 * and the rims are drawn over it where the head alone carries them.
 */
import {
  deform,
  expressionShape,
  type FacePose,
  buildFaceModel,
  type FaceModel,
  photoMouthColors,
} from "@avatar-video/face-rig";
import type { AvatarRig } from "@avatar-video/contract";
import { poseOf } from "./face-pose";
import { type MouthPatch, MouthOverlay } from "./mouth-overlay";
import { cutout, loadImage } from "./portrait-cutout";
import { eyewearImages } from "./rigid-eyewear";
import { texture, texturedProgram, useTextured } from "./textured-program";
import type { LiveRig, MotionMessage } from "./types";

export class AvatarCanvas {
  private readonly gl: WebGLRenderingContext;
  private readonly model: FaceModel;
  private readonly xy: Float32Array;
  private readonly tex: WebGLProgram;
  private readonly posBuf: WebGLBuffer;
  private readonly uvBuf: WebGLBuffer;
  private readonly quadPos: WebGLBuffer;
  private readonly quadUv: WebGLBuffer;
  private readonly triIdx: WebGLBuffer;
  private readonly holeIdx: WebGLBuffer;
  private readonly overlay: MouthOverlay;
  private readonly overlayTex: WebGLTexture;
  private readonly overlayPos: WebGLBuffer;
  private readonly portraitTex: WebGLTexture;
  /** The portrait without its rims and the rims alone, if it shows glasses; and their rigid vertex positions. */
  private readonly eyewear?: { clean: WebGLTexture; rims: WebGLTexture; pos: WebGLBuffer; xy: Float32Array };
  /** Transparent black behind a cut-out, else opaque black (the portrait covers it). */
  private readonly clear: [number, number, number, number];

  private constructor(
    readonly canvas: HTMLCanvasElement,
    rig: LiveRig,
    image: HTMLImageElement,
    matte?: HTMLImageElement,
  ) {
    const W = rig.portrait.width;
    const H = rig.portrait.height;
    canvas.width = W;
    canvas.height = H;
    const gl = canvas.getContext("webgl", { preserveDrawingBuffer: true, antialias: false });
    if (!gl) throw new Error("WebGL is not available in this browser");
    this.gl = gl;
    gl.getExtension("OES_element_index_uint");
    this.model = buildFaceModel(rig as unknown as AvatarRig, {
      scaleX: 1,
      scaleY: 1,
      offsetX: 0,
      offsetY: 0,
      clip: { x0: 0, y0: 0, x1: W, y1: H },
    });
    this.xy = new Float32Array(this.model.count * 2);
    this.tex = texturedProgram(gl);
    const buffer = (data: ArrayBufferView, target: number = gl.ARRAY_BUFFER, usage: number = gl.STATIC_DRAW) => {
      const b = gl.createBuffer()!;
      gl.bindBuffer(target, b);
      gl.bufferData(target, data as ArrayBufferView<ArrayBuffer>, usage);
      return b;
    };
    const uv = new Float32Array(this.model.count * 2);
    for (let i = 0; i < this.model.count; i++) {
      uv[i * 2] = this.model.base[i * 2] / W;
      uv[i * 2 + 1] = this.model.base[i * 2 + 1] / H;
    }
    this.posBuf = buffer(this.model.base, gl.ARRAY_BUFFER, gl.DYNAMIC_DRAW);
    this.uvBuf = buffer(uv);
    this.quadPos = buffer(new Float32Array([0, 0, W, 0, 0, H, W, H]));
    this.quadUv = buffer(new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]));
    this.triIdx = buffer(this.model.tris, gl.ELEMENT_ARRAY_BUFFER);
    this.holeIdx = buffer(this.model.holeTris, gl.ELEMENT_ARRAY_BUFFER);
    this.overlayPos = buffer(new Float32Array(8), gl.ARRAY_BUFFER, gl.DYNAMIC_DRAW);
    this.overlayTex = texture(gl, gl.NEAREST);
    this.portraitTex = texture(gl, gl.LINEAR);
    const c2d = document.createElement("canvas");
    c2d.width = W;
    c2d.height = H;
    const ctx = c2d.getContext("2d", { willReadFrequently: true })!;
    ctx.drawImage(image, 0, 0);
    const px = ctx.getImageData(0, 0, W, H);
    const cut = matte && cutout(px, matte, W, H);
    if (cut) {
      // The canvas is premultiplied: WebGL premultiplies the texture on upload, so edges filter cleanly.
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, cut);
    } else {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
    }
    const ew = eyewearImages(this.model, px, cut || px);
    if (ew) {
      const clean = texture(gl, gl.LINEAR);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, ew.clean);
      const rims = texture(gl, gl.LINEAR);
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, ew.rims);
      const xy = new Float32Array(this.model.count * 2);
      this.eyewear = { clean, rims, pos: buffer(xy, gl.ARRAY_BUFFER, gl.DYNAMIC_DRAW), xy };
    }
    this.clear = matte ? [0, 0, 0, 0] : [0, 0, 0, 1];
    // Mouth colours and style from the photo, measured by the renderer's own code (face-rig).
    const pixels = { data: px.data, width: W, height: H, channels: 4 as const };
    this.overlay = new MouthOverlay(this.model, pixels, photoMouthColors(pixels, this.model));
  }

  /** Loads the rig (signed `rigUrl`), its portrait and, for a transparent canvas, its matte; then prepares the canvas. */
  static async load(
    canvas: HTMLCanvasElement,
    rigUrl: string,
    opts: { transparent?: boolean } = {},
  ): Promise<AvatarCanvas> {
    const res = await fetch(rigUrl);
    if (!res.ok) throw new Error(`rig ${res.status}`);
    const rig = (await res.json()) as LiveRig;
    if (opts.transparent && !rig.matteUrl)
      throw new Error("this Avatar has no person matte yet (its first video with a background makes one)");
    const [image, matte] = await Promise.all([
      loadImage(rig.portraitUrl),
      opts.transparent ? loadImage(rig.matteUrl!) : undefined,
    ]);
    return new AvatarCanvas(canvas, rig, image, matte);
  }

  /** Mouth region of the canvas (lip landmarks' box, padded), for callers that watch it. */
  get mouthBox(): { x: number; y: number; width: number; height: number } {
    const { ox, oy, halfWidth } = this.model.mouth;
    return {
      x: Math.round(ox - halfWidth * 1.4),
      y: Math.round(oy - halfWidth * 0.8),
      width: Math.round(halfWidth * 2.8),
      height: Math.round(halfWidth * 2),
    };
  }

  draw(frame: MotionMessage | undefined): void {
    const gl = this.gl;
    const { width: W, height: H } = this.canvas;
    const pose = poseOf(frame);
    deform(this.model, pose, this.xy);
    gl.viewport(0, 0, W, H);
    gl.clearColor(...this.clear);
    gl.clear(gl.COLOR_BUFFER_BIT);
    const ew = expressionShape(pose.expression) ? this.eyewear : undefined;
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.portraitTex);
    // 1. The still portrait (everything outside the mesh stays put).
    this.textured(this.quadPos, this.quadUv);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    // 2. The face mesh, then the opening between the inner lips (the photo's own mouth, stretched), warped
    //    in the renderer's order (paint/paint-band.ts): where closed lips squeeze the opening, it is on top.
    this.textured(this.posBuf, this.uvBuf);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.posBuf);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, this.xy as Float32Array<ArrayBuffer>);
    if (ew) gl.bindTexture(gl.TEXTURE_2D, ew.clean);
    for (const [idx, n] of [
      [this.triIdx, this.model.tris.length],
      [this.holeIdx, this.model.holeTris.length],
    ] as const) {
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, idx);
      gl.drawElements(gl.TRIANGLES, n, gl.UNSIGNED_INT, 0);
    }
    // 2b. Under an expression, the rims where the pose without the expression and the blink carries them.
    if (ew) this.drawRims(ew, pose);
    // 3. The renderer's mouth interior over it, where the lips have parted beyond the photo's own opening.
    const patch = this.overlay.paint(this.xy, pose);
    if (patch) this.drawPatch(patch);
  }

  private drawRims(ew: NonNullable<AvatarCanvas["eyewear"]>, pose: FacePose): void {
    const gl = this.gl;
    deform(this.model, { ...pose, blinkR: 0, blinkL: 0, expression: undefined }, ew.xy);
    gl.bindBuffer(gl.ARRAY_BUFFER, ew.pos);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, ew.xy as Float32Array<ArrayBuffer>);
    this.textured(ew.pos, this.uvBuf);
    gl.bindTexture(gl.TEXTURE_2D, ew.rims);
    gl.enable(gl.BLEND);
    // "Over" on colour; the canvas's alpha (opaque on the face) stays.
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.triIdx);
    gl.drawElements(gl.TRIANGLES, this.model.tris.length, gl.UNSIGNED_INT, 0);
    gl.disable(gl.BLEND);
    gl.bindTexture(gl.TEXTURE_2D, this.portraitTex);
  }

  /** Blends an RGBA patch (not premultiplied) over the canvas at its rect, pixel for pixel ("over"). */
  private drawPatch({ rect: r, rgba }: MouthPatch): void {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.overlayTex);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, r.x1 - r.x0, r.y1 - r.y0, 0, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.overlayPos);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, new Float32Array([r.x0, r.y0, r.x1, r.y0, r.x0, r.y1, r.x1, r.y1]));
    this.textured(this.overlayPos, this.quadUv);
    gl.enable(gl.BLEND);
    // Alpha composes as "over": an opaque face stays opaque (the canvas may be transparent around the person).
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.disable(gl.BLEND);
    gl.bindTexture(gl.TEXTURE_2D, this.portraitTex);
  }

  private textured(pos: WebGLBuffer, uv: WebGLBuffer): void {
    useTextured(this.gl, this.tex, this.canvas.width, this.canvas.height, pos, uv);
  }
}
