/**
 * A FramePainter's worker threads (painter.ts): which rows of the changing region each paints (the calling
 * thread keeps the band with the mouth), starting them on the shared arena, and each frame's wake and join
 * through their control blocks (paint-band.ts CTRL; paint-worker.ts is the thread).
 */
import { Worker } from "node:worker_threads";
import type { FaceModel, Rect } from "@avatar-video/face-rig";
import { CTRL, even, type PainterInit } from "./paint-band";
import type { PaintArena } from "./wasm/warp-kernel";
import type { Yuv420Layout } from "./yuv";

export interface BandWorker {
  worker: Worker;
  ctrl: Int32Array;
  band: Rect;
  seq: number;
}

/**
 * Start `n` workers on the bands above the mouth, each pushed onto `workers` as it is spawned (so a start-up
 * failure can stop those already running). Resolves the calling thread's own band once all are ready, or
 * undefined (none started) when the rows above the mouth are too few to share.
 */
export async function startBandWorkers(
  workers: BandWorker[],
  n: number,
  m: FaceModel,
  layout: Yuv420Layout,
  arena: PaintArena,
  params: Float32Array,
): Promise<Rect | undefined> {
  const r = even(m.region);
  // The caller's band starts above the mouth with a generous margin (lip raise, head motion).
  let mouthTop = Infinity;
  for (const i of [...m.mouth.upperInner, 0, 37, 267, 39, 269, 40, 270])
    mouthTop = Math.min(mouthTop, m.base[i * 2 + 1]);
  const safe = Math.floor((mouthTop - 0.9 * m.mouth.halfWidth - 0.04 * m.interocular) / 2) * 2;
  // Even share of rows across all threads, unless the mouth forces the caller's band to start higher.
  const share = Math.floor(((r.y1 - r.y0) * n) / (n + 1) / 2) * 2;
  const split = Math.max(r.y0, Math.min(safe, r.y0 + share));
  const rows = split - r.y0;
  if (rows < 16 * n) return undefined; // not worth it
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
      width: layout.width,
      height: layout.height,
      band,
      memory: arena.memory,
      arena: arena.spec,
      slot: k + 1,
      ctrlSab,
      paramSab: params.buffer as SharedArrayBuffer,
    };
    const worker = new Worker(url, { workerData: init, execArgv });
    worker.unref();
    workers.push({ worker, ctrl: new Int32Array(ctrlSab), band, seq: 0 });
    started.push(
      new Promise<void>((resolve, reject) => {
        worker.once("message", (msg) => (msg === "ready" ? resolve() : reject(new Error(String(msg)))));
        worker.once("error", reject);
        worker.once("exit", (code) => reject(new Error(`paint worker exited ${code}`)));
      }),
    );
  }
  await Promise.all(started);
  return { x0: r.x0, x1: r.x1, y0: split, y1: r.y1 };
}

export function stopBandWorkers(workers: readonly BandWorker[]): void {
  for (const w of workers) {
    Atomics.store(w.ctrl, CTRL.QUIT, 1);
    Atomics.add(w.ctrl, CTRL.CMD, 1);
    Atomics.notify(w.ctrl, CTRL.CMD);
    void w.worker.terminate();
  }
}

/** Every worker starts painting its band of pooled frame `bi`. */
export function wakeBandWorkers(workers: readonly BandWorker[], bi: number): void {
  for (const w of workers) {
    Atomics.store(w.ctrl, CTRL.POOL, bi);
    w.seq++;
    Atomics.store(w.ctrl, CTRL.CMD, w.seq);
    Atomics.notify(w.ctrl, CTRL.CMD);
  }
}

/** Wait until every worker has painted the frame it was woken for; a worker's failure fails the frame. */
export function joinBandWorkers(workers: readonly BandWorker[]): void {
  for (const w of workers) {
    while (Atomics.load(w.ctrl, CTRL.DONE) !== w.seq)
      Atomics.wait(w.ctrl, CTRL.DONE, Atomics.load(w.ctrl, CTRL.DONE), 1000);
    if (Atomics.load(w.ctrl, CTRL.ERR)) throw new Error("paint worker failed");
  }
}
