/**
 * Worker thread of FramePainter: paints one horizontal band per frame (warp + YUV conversion) on
 * shared memory, driven by Atomics on a small control block (see painter.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { CTRL, warpBand, type PainterInit } from "./painter";
import { rgbaToYuv420Rect, yuvLayout } from "./yuv";

const init = workerData as PainterInit;
const { width, height, region } = init;
const src = { width, height, data: new Uint32Array(init.srcSab) };
const work = { width, height, data: new Uint32Array(init.workSab) };
const base = new Float32Array(init.baseSab);
const xy = new Float32Array(init.xySab);
const pool = init.poolSabs.map((s) => new Uint8Array(s));
const ctrl = new Int32Array(init.ctrlSab);
const tris = init.tris;
const holeTris = init.holeTris;
let prev = { x0: 0, y0: 0, x1: 0, y1: 0 };
const layout = yuvLayout(width, height);

parentPort!.postMessage("ready");
let seq = 0;
for (;;) {
  Atomics.wait(ctrl, CTRL.CMD, seq);
  seq = Atomics.load(ctrl, CTRL.CMD);
  if (Atomics.load(ctrl, CTRL.QUIT)) break;
  try {
    prev = warpBand(src, work, base, xy, tris, holeTris, prev, region);
    rgbaToYuv420Rect(work.data, pool[Atomics.load(ctrl, CTRL.POOL)], layout, region);
  } catch {
    Atomics.store(ctrl, CTRL.ERR, 1);
  }
  Atomics.store(ctrl, CTRL.DONE, seq);
  Atomics.notify(ctrl, CTRL.DONE);
}
