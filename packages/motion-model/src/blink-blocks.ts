/**
 * An endless blink schedule for a live stream: blinks are scheduled per 600 s block (seeded by the block
 * number), so any moment's blink is known without scheduling from the start, and only two blocks are kept.
 */
import { blinkAmount, blinkSchedule } from "./life";

const BLOCK_SECONDS = 600;

export class BlinkBlocks {
  private readonly blocks = new Map<number, number[]>();

  constructor(private readonly seed: number) {}

  /** Eye closure 0..1 at time `t` (seconds from the stream's start). */
  at(t: number): number {
    const block = Math.floor(t / BLOCK_SECONDS);
    let v = 0;
    // A blink that starts at the end of one block may still be running in the next.
    for (const b of [block - 1, block]) {
      if (b < 0) continue;
      let starts = this.blocks.get(b);
      if (!starts) {
        starts = blinkSchedule(BLOCK_SECONDS, (this.seed + b * 7919) >>> 0, b === 0 ? 0.8 : 0).map(
          (s) => s + b * BLOCK_SECONDS,
        );
        this.blocks.set(b, starts);
        this.blocks.delete(b - 2);
      }
      v = Math.max(v, blinkAmount(starts, t));
    }
    return v;
  }
}
