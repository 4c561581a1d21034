/**
 * The warp kernel (warp.wasm, compiled from warp.as.ts by scripts/build-wasm.sh) and the shared memory it
 * works on.
 *
 * Why wasm: the per-pixel bilinear warp was ~80 % of painting in JS; the same integer loop compiled ahead
 * of time is several times faster. Why one memory: the static frame, the pooled output frames and the mesh
 * all live in a single shared WebAssembly.Memory, so the kernel reads and writes them in place (no copies
 * per frame) and every paint thread instantiates the same module on the same memory.
 */
import { readFileSync } from "node:fs";
import type { Rect } from "@avatar-video/face-rig";
import { EMPTY_RECT } from "../warp";
import type { PersonMode } from "../person-blend";

// Compiled once per thread at import (a few KB); instances are cheap.
const module = new WebAssembly.Module(readFileSync(new URL("./warp.wasm", import.meta.url)));

/** Bytes per painting thread at the arena's start: the kernel's result rect, then its row set-up scratch (warp.as.ts CHUNK × ROW). */
const SLOT = 16 + 64 * 32;

/** Sizes that fix the arena layout; the creating thread and the workers derive the same offsets. */
export interface ArenaSpec {
  frameSize: number;
  poolSize: number;
  vertices: number;
  tris: number;
  holeTris: number;
  /** Painting threads (each gets its own result slot). */
  threads: number;
  /** Whether frames carry a person layer (video/person-scene.ts). */
  person: PersonMode;
  /** Beside the unchanged video: the triangle indices (tris and hole tris) whose person pixels are not the video's. */
  edgeTris: number;
}

/**
 * Views into the shared memory: static frame, pooled frames, rest and current vertex positions, triangles;
 * with a person layer also its static yuva420p frame and one per pooled frame, and (person over a new
 * background) the background's yuv420p frame.
 */
export class PaintArena {
  readonly stat: Uint8Array;
  readonly pool: Uint8Array[];
  readonly personStat: Uint8Array;
  readonly personPool: Uint8Array[];
  readonly back: Uint8Array;
  /** Beside the unchanged video: per triangle (tris, then hole tris) 1 where the person's pixels are the video's. */
  readonly inner: Uint8Array;
  readonly edgeTris: Uint32Array;
  readonly base: Float32Array;
  readonly xy: Float32Array;
  readonly tris: Uint32Array;
  readonly holeTris: Uint32Array;

  constructor(
    readonly memory: WebAssembly.Memory,
    readonly spec: ArenaSpec,
  ) {
    const buf = memory.buffer;
    let at = SLOT * spec.threads; // per-thread slots
    const take = (bytes: number) => {
      const o = at;
      at = (at + bytes + 15) & ~15;
      return o;
    };
    this.stat = new Uint8Array(buf, take(spec.frameSize), spec.frameSize);
    this.pool = Array.from({ length: spec.poolSize }, () => new Uint8Array(buf, take(spec.frameSize), spec.frameSize));
    this.base = new Float32Array(buf, take(spec.vertices * 8), spec.vertices * 2);
    this.xy = new Float32Array(buf, take(spec.vertices * 8), spec.vertices * 2);
    this.tris = new Uint32Array(buf, take(spec.tris * 4), spec.tris);
    this.holeTris = new Uint32Array(buf, take(spec.holeTris * 4), spec.holeTris);
    const layer = PaintArena.personBytes(spec);
    this.personStat = new Uint8Array(buf, take(layer), layer);
    this.personPool = Array.from({ length: layer ? spec.poolSize : 0 }, () => new Uint8Array(buf, take(layer), layer));
    const back = spec.person === "over" ? spec.frameSize : 0;
    this.back = new Uint8Array(buf, take(back), back);
    this.inner = new Uint8Array(buf, take(PaintArena.innerBytes(spec)), PaintArena.innerBytes(spec));
    this.edgeTris = new Uint32Array(buf, take(spec.edgeTris * 4), spec.edgeTris);
  }

  /** A person frame: yuv420p planes + the full-resolution alpha plane (yuva420p); none without a person layer. */
  static personBytes(spec: ArenaSpec): number {
    // yuv420p is 1.5 luma planes, so the alpha plane is two thirds of a frame.
    return spec.person === "none" ? 0 : spec.frameSize + (spec.frameSize * 2) / 3;
  }

  static innerBytes(spec: ArenaSpec): number {
    return spec.person === "beside" ? (spec.tris + spec.holeTris) / 3 : 0;
  }

  static bytes(spec: ArenaSpec): number {
    const person =
      (spec.poolSize + 1) * (PaintArena.personBytes(spec) + 16) + (spec.person === "over" ? spec.frameSize : 0) + 16;
    const split = PaintArena.innerBytes(spec) + spec.edgeTris * 4 + 32;
    return (
      SLOT * spec.threads +
      (spec.poolSize + 1) * (spec.frameSize + 16) +
      2 * (spec.vertices * 8 + 16) +
      (spec.tris + spec.holeTris) * 4 +
      32 +
      person +
      split
    );
  }

  static create(spec: ArenaSpec): PaintArena {
    const pages = Math.ceil(PaintArena.bytes(spec) / 65536);
    return new PaintArena(new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true }), spec);
  }
}

type WarpFn = (
  src: number,
  dst: number,
  pw: number,
  ph: number,
  offA: number,
  offB: number,
  srcXY: number,
  dstXY: number,
  tris: number,
  ntri: number,
  scale: number,
  cx0: number,
  cy0: number,
  cx1: number,
  cy1: number,
  out: number,
  scratch: number,
  mask: number,
  mirror: number,
  mirrorAlpha: number,
) => void;

/** One thread's instance of the kernel on an arena; `slot` (0 … threads−1) is its private result slot. */
export class WarpKernel {
  private fn: WarpFn;
  private out: Int32Array;
  private scratch: number;

  constructor(
    private arena: PaintArena,
    slot: number,
  ) {
    const instance = new WebAssembly.Instance(module, { env: { memory: arena.memory } });
    this.fn = instance.exports.warp as WarpFn;
    this.out = new Int32Array(arena.memory.buffer, slot * SLOT, 4);
    this.scratch = slot * SLOT + 16;
  }

  /**
   * Warp `tris` (a view of the arena) from `src` into `dst` (arena frames) for one plane at byte offset
   * `offA` of the frames, or two planes with the same geometry (U and V) at `offA` and `offB` (≥ 0).
   * Planes are `pw`×`ph`; vertex positions (luma pixels) are scaled by `scale`; only pixels in `clip`
   * (plane coordinates) are written, and triangles that did not move are skipped (the caller keeps the
   * destination equal to the source there). Returns the bounding rect of the pixels written. `mirror`: the
   * spans of the triangles flagged in its `mask` (a view of the arena, a byte per triangle of `tris`) are
   * also written to its `dst` at the same place, with 255 at `alphaAt` bytes past plane A when given
   * (warp.as.ts).
   */
  warp(
    src: Uint8Array,
    dst: Uint8Array,
    pw: number,
    ph: number,
    offA: number,
    offB: number,
    tris: Uint32Array,
    scale: number,
    clip: Rect,
    mirror?: { dst: Uint8Array; mask: Uint8Array; alphaAt?: number },
  ): Rect {
    const a = this.arena;
    const o = this.out;
    this.fn(
      src.byteOffset,
      dst.byteOffset,
      pw,
      ph,
      offA,
      offB,
      a.base.byteOffset,
      a.xy.byteOffset,
      tris.byteOffset,
      tris.length / 3,
      scale,
      clip.x0,
      clip.y0,
      clip.x1,
      clip.y1,
      o.byteOffset,
      this.scratch,
      mirror ? mirror.mask.byteOffset : 0,
      mirror ? mirror.dst.byteOffset - dst.byteOffset : 0,
      mirror?.alphaAt ?? -1,
    );
    return o[2] > o[0] ? { x0: o[0], y0: o[1], x1: o[2], y1: o[3] } : EMPTY_RECT;
  }
}
