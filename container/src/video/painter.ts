/**
 * Paints animated frames into pooled yuv420p buffers, optionally on several threads.
 *
 * The changing region (bbox of the fixed outer anchor ring) is split into horizontal bands. The calling
 * thread owns the band that contains the mouth (it also draws the mouth interior there); worker threads
 * own the bands above it. Each band: warp the mesh triangles clipped to the band from the static canvas
 * into the shared work canvas (RGBA), then convert the band's part of the region to YUV in the target
 * pooled buffer. Everything lives in SharedArrayBuffers; a frame is one Atomics signal per worker and
 * one wait at the end. Without workers (or if they fail to start) the whole region is painted inline.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { FacePose } from "../animate/deform";
import type { FaceModel } from "../animate/geometry";
import { drawMouthInterior, type MouthColors } from "../animate/mouth";
import { copyRect, unionRect, warpTriangles, type RgbaImage, type Rect } from "../animate/warp";
import { rgbaToYuv420Rect, yuvLayout, type Yuv420Layout } from "./yuv";

/** Control block layout (Int32 slots). */
export const CTRL = { CMD: 0, DONE: 1, QUIT: 2, POOL: 3, Y0: 4, Y1: 5, ERR: 6, SIZE: 8 } as const;

export interface PainterInit {
  width: number;
  height: number;
  region: Rect;
  srcSab: SharedArrayBuffer;
  workSab: SharedArrayBuffer;
  baseSab: SharedArrayBuffer;
  xySab: SharedArrayBuffer;
  tris: Uint32Array;
  holeTris: Uint32Array;
  poolSabs: SharedArrayBuffer[];
  ctrlSab: SharedArrayBuffer;
}

const EMPTY: Rect = { x0: 0, y0: 0, x1: 0, y1: 0 };

function sharedCopy<T extends Uint8Array | Uint32Array | Float32Array>(a: T): T {
  const sab = new SharedArrayBuffer(a.byteLength);
  const out = new (a.constructor as { new (b: SharedArrayBuffer): T })(sab);
  out.set(a as never);
  return out;
}

/**
 * Warp one band: first restore what the previous frame wrote in this band (so triangles back at rest,
 * which are skipped, show the static canvas again), then warp face and mouth-hole triangles.
 * Returns the rect written this frame (to restore next time).
 */
export function warpBand(
  src: RgbaImage,
  work: RgbaImage,
  base: Float32Array,
  xy: Float32Array,
  tris: Uint32Array,
  holeTris: Uint32Array,
  prev: Rect,
  clip: Rect,
): Rect {
  if (prev.x1 > prev.x0 && prev.y1 > prev.y0) copyRect(src, work, prev);
  return unionRect(warpTriangles(src, work, base, xy, tris, clip), warpTriangles(src, work, base, xy, holeTris, clip));
}

interface BandWorker {
  worker: Worker;
  ctrl: Int32Array;
  band: Rect;
  seq: number;
}

export class FramePainter {
  readonly layout: Yuv420Layout;
  readonly pool: Uint8Array[];
  private src: RgbaImage;
  private work: RgbaImage;
  private base: Float32Array;
  private xy: Float32Array;
  /** What the calling thread wrote last frame (warp + mouth), restored before the next frame. */
  private prevWritten: Rect = EMPTY;
  private own: Rect;
  private workers: BandWorker[] = [];
  private upper: Float32Array;
  private lower: Float32Array;
  /** Per-step wall milliseconds (diagnostics). */
  readonly t = { warp: 0, mouth: 0, yuv: 0, join: 0 };

  private constructor(
    private model: FaceModel,
    private colors: MouthColors,
    srcRgba: Uint32Array,
    width: number,
    height: number,
    poolSize: number,
  ) {
    this.layout = yuvLayout(width, height);
    const srcData = sharedCopy(srcRgba);
    this.src = { width, height, data: srcData };
    this.work = { width, height, data: sharedCopy(srcRgba) };
    const staticYuv = new Uint8Array(this.layout.frameSize);
    rgbaToYuv420Rect(srcData, staticYuv, this.layout, { x0: 0, y0: 0, x1: width, y1: height });
    this.pool = Array.from({ length: poolSize }, () => sharedCopy(staticYuv));
    this.base = sharedCopy(model.base);
    this.xy = sharedCopy(model.base);
    this.own = { ...model.region };
    this.upper = new Float32Array(model.mouth.upperInner.length * 2);
    this.lower = new Float32Array(model.mouth.lowerInner.length * 2);
  }

  /**
   * Create a painter. `threads` = total painting threads including the caller (default: one per core,
   * at most 4, at least 1). Worker start-up failures fall back to painting inline.
   */
  static async create(
    model: FaceModel,
    colors: MouthColors,
    srcRgba: Uint32Array,
    width: number,
    height: number,
    opts: { poolSize?: number; threads?: number } = {},
  ): Promise<FramePainter> {
    const p = new FramePainter(model, colors, srcRgba, width, height, opts.poolSize ?? 3);
    const threads = Math.max(1, Math.min(4, opts.threads ?? availableParallelism()));
    if (threads > 1) await p.startWorkers(threads - 1).catch(() => p.stopWorkers());
    return p;
  }

  get threads(): number {
    return 1 + this.workers.length;
  }

  private async startWorkers(n: number): Promise<void> {
    const r = this.model.region;
    const m = this.model;
    // The caller's band starts above the mouth with a generous margin (lip raise, head motion).
    let mouthTop = Infinity;
    for (const i of [...m.mouth.upperInner, 0, 37, 267, 39, 269, 40, 270]) mouthTop = Math.min(mouthTop, m.base[i * 2 + 1]);
    const split = Math.max(r.y0, Math.floor((mouthTop - 0.9 * m.mouth.halfWidth - 0.04 * m.interocular) / 2) * 2);
    const rows = split - r.y0;
    if (rows < 16 * n) return; // not worth it
    // Balance: the caller also draws the mouth and feeds ffmpeg; give the workers the rows above the mouth.
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
        width: this.src.width,
        height: this.src.height,
        region: band,
        srcSab: this.src.data.buffer as SharedArrayBuffer,
        workSab: this.work.data.buffer as SharedArrayBuffer,
        baseSab: this.base.buffer as SharedArrayBuffer,
        xySab: this.xy.buffer as SharedArrayBuffer,
        tris: m.tris,
        holeTris: m.holeTris,
        poolSabs: this.pool.map((b) => b.buffer as SharedArrayBuffer),
        ctrlSab,
      };
      const worker = new Worker(url, { workerData: init, execArgv });
      worker.unref();
      const bw: BandWorker = { worker, ctrl: new Int32Array(ctrlSab), band, seq: 0 };
      this.workers.push(bw);
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
    this.own = { ...this.model.region };
  }

  /** Paint `pose` (vertex positions already in `xy` via `positions`) into pool buffer `bi`. */
  paint(positions: Float32Array, pose: FacePose, bi: number): void {
    const m = this.model;
    this.xy.set(positions);
    // Start the workers on their bands.
    for (const w of this.workers) {
      Atomics.store(w.ctrl, CTRL.POOL, bi);
      w.seq++;
      Atomics.store(w.ctrl, CTRL.CMD, w.seq);
      Atomics.notify(w.ctrl, CTRL.CMD);
    }
    let c0 = performance.now();
    // Own band: restore last frame's pixels, warp, draw the mouth, convert.
    let written = warpBand(this.src, this.work, this.base, this.xy, m.tris, m.holeTris, this.prevWritten, this.own);
    let c1 = performance.now();
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
    written = unionRect(written, drawMouthInterior(this.work, up, lo, pose.open * (1 - pose.press), this.colors, this.own));
    this.prevWritten = written;
    c0 = performance.now();
    this.t.mouth += c0 - c1;
    rgbaToYuv420Rect(this.work.data, this.pool[bi], this.layout, this.own);
    c1 = performance.now();
    this.t.yuv += c1 - c0;
    // Join.
    for (const w of this.workers) {
      while (Atomics.load(w.ctrl, CTRL.DONE) !== w.seq) Atomics.wait(w.ctrl, CTRL.DONE, Atomics.load(w.ctrl, CTRL.DONE), 1000);
      if (Atomics.load(w.ctrl, CTRL.ERR)) throw new Error("paint worker failed");
    }
    this.t.join += performance.now() - c1;
  }

  close(): void {
    this.stopWorkers();
  }
}
