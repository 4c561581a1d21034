/**
 * Paints animated frames straight into pooled yuv420p buffers, optionally on several threads.
 *
 * Each pooled buffer starts as the static canvas. Per frame and per buffer only what changes is touched:
 * the rect written the last time that buffer was painted is restored from the static frame, then the
 * mesh triangles that moved are warped from the static frame (luma at full, chroma at half resolution)
 * and the mouth interior is drawn. The changing region (bbox of the fixed outer anchor ring) is split into
 * horizontal bands: the calling thread owns the band containing the mouth, worker threads the bands above.
 * Frames and mesh live in one shared WebAssembly.Memory (wasm/warp-kernel.ts) that every thread's warp
 * kernel works on in place; a frame costs one Atomics signal per worker and one wait.
 * Without workers (or if they fail to start) the caller paints the whole region. One band's paint and
 * the control block: paint-band.ts; the threads: band-workers.ts. With a person layer (video/person-scene.ts)
 * the mouth and lids are painted on it: over a new background the frame is then blended from it; beside
 * the unchanged video they are painted on the frame and copied (they lie inside the face, where both
 * frames are the same photo).
 */
import { availableParallelism } from "node:os";
import {
  deform,
  expressionShape,
  innerLips,
  mouthStyle,
  type FacePose,
  type FaceModel,
  type MouthColors,
  type MouthStyle,
  type Rect,
} from "@avatar-video/face-rig";
import { type BandWorker, joinBandWorkers, startBandWorkers, stopBandWorkers, wakeBandWorkers } from "./band-workers";
import { type Eyewear, findEyewear, putBackEyewear, takeOutEyewear } from "./eyewear";
import { drawMouthInterior } from "./mouth-interior";
import { lidOccluders, type LidOccluders } from "./lid-occluders";
import { lidsRect, paintBlinkLids } from "./lid-paint";
import { lidSkinPlan, type LidSkinPlan } from "./lid-skin";
import { EMPTY_RECT, intersectRect, unionRect } from "./warp";
import { copyYuvRect, even, paintBand, PARAM } from "./paint-band";
import { fillPainterArena, type PersonFrames } from "./painter-arena";
import { blendPerson } from "./person-blend";
import { type PaintArena, WarpKernel } from "./wasm/warp-kernel";
import { yuvLayout, type Yuv420Layout } from "./yuv";

const NO_OCCLUDERS: LidOccluders = [[], []];

export class FramePainter {
  readonly layout: Yuv420Layout;
  readonly pool: Uint8Array[];
  /** yuva420p person frames, one per pooled frame (empty without a person layer). */
  readonly personPool: Uint8Array[];
  private arena: PaintArena;
  private kernel: WarpKernel;
  private xy: Float32Array;
  private own: Rect;
  private workers: BandWorker[] = [];
  /** Per pooled buffer: luma rect the caller wrote the last time it painted that buffer. */
  private prev: Rect[];
  private upper: Float32Array;
  private lower: Float32Array;
  private params: Float32Array;
  private style: MouthStyle;
  private readonly lids: LidSkinPlan;
  private readonly occluders: LidOccluders;
  /** Glasses kept rigid under an expression (eyewear.ts): found on the first frame that shows one; null if none. */
  private eyewear: Eyewear | null | undefined;
  /** Vertex positions of the pose without its blink (where occluders in front of the lids stay). */
  private readonly blinkFree: Float32Array;
  /** Vertex positions of the pose without its expression and blink (where glasses stay). */
  private readonly rigid: Float32Array;
  /** Per-step wall milliseconds of the calling thread (diagnostics). */
  readonly t = { warp: 0, mouth: 0, join: 0 };

  private constructor(
    private model: FaceModel,
    colors: MouthColors,
    staticYuv: Uint8Array,
    width: number,
    height: number,
    poolSize: number,
    threads: number,
    person: PersonFrames,
  ) {
    this.layout = yuvLayout(width, height);
    const a = fillPainterArena(model, staticYuv, this.layout, poolSize, threads, person);
    this.arena = a;
    this.kernel = new WarpKernel(a, 0);
    this.pool = a.pool;
    this.personPool = a.personPool;
    this.xy = a.xy;
    this.prev = Array.from({ length: poolSize }, () => EMPTY_RECT);
    this.own = even(model.region);
    this.upper = new Float32Array(model.mouth.upperInner.length * 2);
    this.lower = new Float32Array(model.mouth.lowerInner.length * 2);
    this.params = new Float32Array(new SharedArrayBuffer(PARAM.SIZE * 4));
    this.style = mouthStyle(colors, model, a.stat, width, height);
    this.lids = lidSkinPlan(model);
    this.occluders = lidOccluders(model, this.lids, a.stat, width, height);
    this.blinkFree = new Float32Array(model.count * 2);
    this.rigid = new Float32Array(model.count * 2);
  }

  /**
   * Create a painter. `threads` = painting threads including the caller (default: one per core but one, at
   * least 1 and at most 4: x264's frame threads keep the cores busy, and on 2 cores a second painting thread
   * cost more CPU and no wall time, docs/rendering.md). Worker start-up failures fall back to painting inline.
   */
  static async create(
    model: FaceModel,
    colors: MouthColors,
    staticYuv: Uint8Array,
    width: number,
    height: number,
    opts: { poolSize?: number; threads?: number; person?: PersonFrames } = {},
  ): Promise<FramePainter> {
    const threads = Math.max(1, Math.min(4, opts.threads ?? availableParallelism() - 1));
    const p = new FramePainter(
      model,
      colors,
      staticYuv,
      width,
      height,
      opts.poolSize ?? 3,
      threads,
      opts.person ?? { mode: "none" },
    );
    if (threads > 1) await p.startWorkers(threads - 1).catch(() => p.stopWorkers());
    return p;
  }

  get threads(): number {
    return 1 + this.workers.length;
  }

  private async startWorkers(n: number): Promise<void> {
    const own = await startBandWorkers(this.workers, n, this.model, this.layout, this.arena, this.params);
    if (own) this.own = own;
  }

  private stopWorkers(): void {
    stopBandWorkers(this.workers);
    this.workers = [];
    this.own = even(this.model.region);
  }

  /** Paint the frame for vertex positions `positions` (and the pose's mouth) into pool buffer `bi`. */
  paint(positions: Float32Array, pose: FacePose, bi: number): void {
    const m = this.model;
    this.xy.set(positions);
    this.params[PARAM.BLINK_R] = pose.blinkR;
    this.params[PARAM.BLINK_L] = pose.blinkL;
    wakeBandWorkers(this.workers, bi);
    let c0 = performance.now();
    let written = paintBand(this.kernel, this.arena, bi, this.layout, this.prev[bi], this.own);
    const c1 = performance.now();
    this.t.warp += c1 - c0;
    const up = this.upper;
    const lo = this.lower;
    innerLips(m.mouth, this.xy, up, lo);
    {
      const mouth = even(
        drawMouthInterior(
          this.target(bi),
          this.layout,
          up,
          lo,
          pose.open * (1 - pose.press),
          this.style,
          this.own,
          pose.round,
          pose.tuck * (1 - pose.press),
        ),
      );
      written = unionRect(written, mouth);
      this.finishPerson(bi, mouth);
    }
    this.prev[bi] = written;
    c0 = performance.now();
    this.t.mouth += c0 - c1;
    joinBandWorkers(this.workers);
    this.t.join += performance.now() - c0;
    // After the join: the lids may lie in any band. Only pixels the warp just wrote (moved triangles) change.
    // Under an expression, glasses are taken out of the moved skin and put back rigid around the lids' paint.
    const ew = expressionShape(pose.expression) ? this.findEyewear() : undefined;
    const frame = this.target(bi);
    const rigid = ew && deform(m, { ...pose, blinkR: 0, blinkL: 0, expression: undefined }, this.rigid);
    if (ew && rigid) takeOutEyewear(frame, this.xy, rigid, m, ew);
    if (pose.blinkR > 0 || pose.blinkL > 0) {
      const { width: W, height: H } = this.layout;
      paintBlinkLids(
        frame,
        W,
        H,
        this.xy,
        pose,
        m,
        this.lids,
        ew ? NO_OCCLUDERS : this.occluders,
        this.arena.stat,
        this.style,
        this.blinkFree,
      );
      this.finishPerson(bi, lidsRect(this.lids, this.xy));
    }
    if (ew && rigid) {
      putBackEyewear(frame, this.arena.stat, this.xy, rigid, m, ew);
      this.finishPerson(bi, ew.box);
    }
  }

  private findEyewear(): Eyewear | undefined {
    if (this.eyewear === undefined) {
      const { width: W, height: H } = this.layout;
      this.eyewear = findEyewear(this.model, this.arena.stat, W, H) ?? null;
    }
    return this.eyewear ?? undefined;
  }

  /** The frame the mouth and lids are painted on: the person layer's over a new background, else the video's. */
  private target(bi: number): Uint8Array {
    return this.arena.spec.person === "over" ? this.personPool[bi] : this.pool[bi];
  }

  /** After painting `r` (luma, even): over a new background the frame is blended again; beside, the person gets the paint. */
  private finishPerson(bi: number, r: Rect): void {
    const mode = this.arena.spec.person;
    const L = this.layout;
    const clipped = intersectRect(r, { x0: 0, y0: 0, x1: L.width, y1: L.height });
    if (mode === "over") blendPerson(this.personPool[bi], this.arena.back, this.pool[bi], L, clipped);
    if (mode === "beside") copyYuvRect(this.pool[bi], this.personPool[bi], L, clipped);
  }

  close(): void {
    this.stopWorkers();
  }
}
