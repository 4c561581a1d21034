/**
 * Worker thread of FramePainter: paints one horizontal band of each frame (restore + warp of the three
 * yuv420p planes) on shared memory, driven by Atomics on a small control block (see painter.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { EMPTY_RECT, type Rect } from "../animate/warp";
import { unionRect } from "../animate/warp";
import { CTRL, drawLashes, paintBand, PARAM, type PainterInit } from "./painter";
import { yuvLayout } from "./yuv";

const init = workerData as PainterInit;
const layout = yuvLayout(init.width, init.height);
const stat = new Uint8Array(init.staticSab);
const base = new Float32Array(init.baseSab);
const xy = new Float32Array(init.xySab);
const pool = init.poolSabs.map((s) => new Uint8Array(s));
const ctrl = new Int32Array(init.ctrlSab);
const params = new Float32Array(init.paramSab);
const prev: Rect[] = pool.map(() => EMPTY_RECT);

parentPort!.postMessage("ready");
let seq = 0;
for (;;) {
  Atomics.wait(ctrl, CTRL.CMD, seq);
  seq = Atomics.load(ctrl, CTRL.CMD);
  if (Atomics.load(ctrl, CTRL.QUIT)) break;
  try {
    const bi = Atomics.load(ctrl, CTRL.POOL);
    const written = paintBand(stat, pool[bi], layout, base, xy, init.tris, init.holeTris, prev[bi], init.band);
    const blinks: [number, number] = [params[PARAM.BLINK_R], params[PARAM.BLINK_L]];
    prev[bi] = unionRect(written, drawLashes(pool[bi], layout, xy, init.lashes, blinks, init.band));
  } catch {
    Atomics.store(ctrl, CTRL.ERR, 1);
  }
  Atomics.store(ctrl, CTRL.DONE, seq);
  Atomics.notify(ctrl, CTRL.DONE);
}
