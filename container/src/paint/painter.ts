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
 * the control block the workers are driven through: paint-band.ts. With a person layer (video/person-scene.ts)
 * the mouth and lids are painted on it: over a new background the frame is then blended from it; beside
 * the unchanged video they are painted on the frame and copied (they lie inside the face, where both
 * frames are the same photo).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import {
  deform,
  expressionShape,
  mouthStyle,
  type FacePose,
  type FaceModel,
  type MouthColors,
  type MouthStyle,
} from "@avatar-video/face-rig";
import { type Eyewear, findEyewear, putBackEyewear, takeOutEyewear } from "./eyewear";
import { drawMouthInterior } from "./mouth-interior";
import { lidOccluders, type LidOccluders } from "./lid-occluders";
import { paintBlinkLids } from "./lid-paint";
import { lidSkinPlan, type LidSkinPlan } from "./lid-skin";
import { EMPTY_RECT, intersectRect, unionRect, type Rect } from "./warp";
import { copyYuvRect, CTRL, even, paintBand, PARAM, type PainterInit } from "./paint-band";
import { blendPerson, type PersonMode } from "./person-blend";
import { splitPersonTris } from "./person-tris";
import { PaintArena, WarpKernel } from "./wasm/warp-kernel";
import { yuvLayout, type Yuv420Layout } from "./yuv";

/** The person layer's static frames (video/person-scene.ts); mode "none" without one. */
export interface PersonFrames {
  mode: PersonMode;
  /** yuva420p. */
  person?: Uint8Array;
  /** yuv420p ("over"). */
  back?: Uint8Array;
}

interface BandWorker {
  worker: Worker;
  ctrl: Int32Array;
  band: Rect;
  seq: number;
}

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
    const split =
      person.mode === "beside" && person.person
        ? splitPersonTris(model, staticYuv, person.person, this.layout)
        : { inner: new Uint8Array(0), edge: new Uint32Array(0) };
    const a = PaintArena.create({
      frameSize: this.layout.frameSize,
      poolSize,
      vertices: model.count,
      tris: model.tris.length,
      holeTris: model.holeTris.length,
      threads,
      person: person.mode,
      edgeTris: split.edge.length,
    });
    a.stat.set(staticYuv);
    for (const f of a.pool) f.set(staticYuv);
    if (person.person) for (const f of [a.personStat, ...a.personPool]) f.set(person.person);
    if (person.back) a.back.set(person.back);
    a.inner.set(split.inner);
    a.edgeTris.set(split.edge);
    a.base.set(model.base);
    a.xy.set(model.base);
    a.tris.set(model.tris);
    a.holeTris.set(model.holeTris);
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
    const r = even(this.model.region);
    const m = this.model;
    // The caller's band starts above the mouth with a generous margin (lip raise, head motion).
    let mouthTop = Infinity;
    for (const i of [...m.mouth.upperInner, 0, 37, 267, 39, 269, 40, 270])
      mouthTop = Math.min(mouthTop, m.base[i * 2 + 1]);
    const safe = Math.floor((mouthTop - 0.9 * m.mouth.halfWidth - 0.04 * m.interocular) / 2) * 2;
    // Even share of rows across all threads, unless the mouth forces the caller's band to start higher.
    const share = Math.floor(((r.y1 - r.y0) * n) / (n + 1) / 2) * 2;
    const split = Math.max(r.y0, Math.min(safe, r.y0 + share));
    const rows = split - r.y0;
    if (rows < 16 * n) return; // not worth it
    const edges = [r.y0];
    for (let k = 1; k < n; k++) edges.push(r.y0 + Math.floor((rows * k) / n / 2) * 2);
    edges.push(split);
    const ext = /\.ts$/.test(new URL(import.meta.url).pathname) ? ".ts" : ".js";
    const url = new URL(`./paint-worker${ext}`, import.meta.url);
    const execArgv = [...process.execArgv];
    if (ext === ".ts" && !execArgv.some((a) => a.includes("tsx"))) execArgv.push("--import", "tsx");
    const started: Promise<void>[] = [];
    for (let k = 0; k < n; k++) {
      const ctrlSab = new SharedArrayBuffer(CTRL.SIZE * 4);
      const band: Rect = { x0: r.x0, x1: r.x1, y0: edges[k], y1: edges[k + 1] };
      const init: PainterInit = {
        width: this.layout.width,
        height: this.layout.height,
        band,
        memory: this.arena.memory,
        arena: this.arena.spec,
        slot: k + 1,
        ctrlSab,
        paramSab: this.params.buffer as SharedArrayBuffer,
      };
      const worker = new Worker(url, { workerData: init, execArgv });
      worker.unref();
      this.workers.push({ worker, ctrl: new Int32Array(ctrlSab), band, seq: 0 });
      started.push(
        new Promise<void>((resolve, reject) => {
          worker.once("message", (msg) => (msg === "ready" ? resolve() : reject(new Error(String(msg)))));
          worker.once("error", reject);
          worker.once("exit", (code) => reject(new Error(`paint worker exited ${code}`)));
        }),
      );
    }
    await Promise.all(started);
    this.own = { x0: r.x0, x1: r.x1, y0: split, y1: r.y1 };
  }

  private stopWorkers(): void {
    for (const w of this.workers) {
      Atomics.store(w.ctrl, CTRL.QUIT, 1);
      Atomics.add(w.ctrl, CTRL.CMD, 1);
      Atomics.notify(w.ctrl, CTRL.CMD);
      void w.worker.terminate();
    }
    this.workers = [];
    this.own = even(this.model.region);
  }

  /** Paint the frame for vertex positions `positions` (and the pose's mouth) into pool buffer `bi`. */
  paint(positions: Float32Array, pose: FacePose, bi: number): void {
    const m = this.model;
    this.xy.set(positions);
    this.params[PARAM.BLINK_R] = pose.blinkR;
    this.params[PARAM.BLINK_L] = pose.blinkL;
    for (const w of this.workers) {
      Atomics.store(w.ctrl, CTRL.POOL, bi);
      w.seq++;
      Atomics.store(w.ctrl, CTRL.CMD, w.seq);
      Atomics.notify(w.ctrl, CTRL.CMD);
    }
    let c0 = performance.now();
    let written = paintBand(this.kernel, this.arena, bi, this.layout, this.prev[bi], this.own);
    const c1 = performance.now();
    this.t.warp += c1 - c0;
    const up = this.upper;
    const lo = this.lower;
    for (let k = 0; k < m.mouth.upperInner.length; k++) {
      const vi = m.mouth.upperInner[k];
      up[k * 2] = this.xy[vi * 2];
      up[k * 2 + 1] = this.xy[vi * 2 + 1];
    }
    for (let k = 0; k < m.mouth.lowerInner.length; k++) {
      const vi = m.mouth.lowerInner[k];
      lo[k * 2] = this.xy[vi * 2];
      lo[k * 2 + 1] = this.xy[vi * 2 + 1];
    }
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
    for (const w of this.workers) {
      while (Atomics.load(w.ctrl, CTRL.DONE) !== w.seq)
        Atomics.wait(w.ctrl, CTRL.DONE, Atomics.load(w.ctrl, CTRL.DONE), 1000);
      if (Atomics.load(w.ctrl, CTRL.ERR)) throw new Error("paint worker failed");
    }
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
      this.finishPerson(bi, this.lidsRect());
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

  /** Luma rect (even) around the blink's triangles at the current positions: where the lids were painted. */
  private lidsRect(): Rect {
    const t = this.lids.tris;
    const r = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    for (let k = 0; k < t.length; k++) {
      const x = this.xy[t[k] * 2];
      const y = this.xy[t[k] * 2 + 1];
      r.x0 = Math.min(r.x0, Math.floor(x) - 1);
      r.y0 = Math.min(r.y0, Math.floor(y) - 1);
      r.x1 = Math.max(r.x1, Math.ceil(x) + 2);
      r.y1 = Math.max(r.y1, Math.ceil(y) + 2);
    }
    return t.length ? even(r) : EMPTY_RECT;
  }

  close(): void {
    this.stopWorkers();
  }
}
