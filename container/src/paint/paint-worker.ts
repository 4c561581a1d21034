/**
 * Worker thread of FramePainter: paints one horizontal band of each frame (restore + warp of the three
 * yuv420p planes) in the painter's shared wasm memory, driven by Atomics on a small control block (see
 * painter.ts, paint-band.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Rect } from "@avatar-video/face-rig";
import { EMPTY_RECT } from "./warp";
import { CTRL, paintBand, type PainterInit } from "./paint-band";
import { PaintArena, WarpKernel } from "./wasm/warp-kernel";
import { yuvLayout } from "./yuv";

const init = workerData as PainterInit;
const layout = yuvLayout(init.width, init.height);
const arena = new PaintArena(init.memory, init.arena);
const kernel = new WarpKernel(arena, init.slot);
const { pool } = arena;
const ctrl = new Int32Array(init.ctrlSab);
const prev: Rect[] = pool.map(() => EMPTY_RECT);

parentPort!.postMessage("ready");
let seq = 0;
for (;;) {
  Atomics.wait(ctrl, CTRL.CMD, seq);
  seq = Atomics.load(ctrl, CTRL.CMD);
  if (Atomics.load(ctrl, CTRL.QUIT)) break;
  try {
    const bi = Atomics.load(ctrl, CTRL.POOL);
    prev[bi] = paintBand(kernel, arena, bi, layout, prev[bi], init.band);
  } catch {
    Atomics.store(ctrl, CTRL.ERR, 1);
  }
  Atomics.store(ctrl, CTRL.DONE, seq);
  Atomics.notify(ctrl, CTRL.DONE);
}
