/**
 * An endless blink schedule for a live stream: blinks are scheduled per 600 s block (seeded by the block
 * number), so any moment's blink is known without scheduling from the start, and only two blocks are kept.
 * A rate set mid-stream (`setRate`, the live `perform` message) takes over from its moment on (blink-rate.ts);
 * a blink already under way finishes.
 */
import { PERFORMANCE_DEFAULTS } from "@avatar-video/contract";
import { evenBlinkStarts } from "./blink-rate";
import { BLINK, blinkAmount, blinkSchedule } from "./life";

const BLOCK_SECONDS = 600;
const BLINK_SECONDS = BLINK.close + BLINK.hold + BLINK.open;

interface Rate {
  from: number;
  perMinute: number;
}

export class BlinkBlocks {
  private readonly blocks = new Map<number, number[]>();
  /** The rate in effect and the one before it (whose last blink may still be running). */
  private rates: Rate[];

  constructor(
    private readonly seed: number,
    perMinute: number = PERFORMANCE_DEFAULTS.blinksPerMinute,
  ) {
    this.rates = [{ from: 0, perMinute }];
  }

  /** From `at` (seconds, not before the last change) on, `perMinute` blinks a minute. */
  setRate(at: number, perMinute: number): void {
    const last = this.rates[this.rates.length - 1];
    if (last.perMinute === perMinute) return;
    if (at <= last.from) this.rates[this.rates.length - 1] = { from: last.from, perMinute };
    else this.rates = [last, { from: at, perMinute }];
  }

  /** Eye closure 0..1 at time `t` (seconds from the stream's start). */
  at(t: number): number {
    let v = 0;
    for (let i = 0; i < this.rates.length; i++) {
      const rate = this.rates[i];
      const end = this.rates[i + 1]?.from ?? Infinity;
      if (t < rate.from || t - BLINK_SECONDS >= end) continue;
      v = Math.max(v, this.amount(rate, end, t));
    }
    return v;
  }

  private amount(rate: Rate, end: number, t: number): number {
    if (rate.perMinute === PERFORMANCE_DEFAULTS.blinksPerMinute) return this.defaultRhythm(rate.from, end, t);
    if (!(rate.perMinute > 0)) return 0;
    const t0 = Math.max(rate.from, t - BLINK_SECONDS);
    return blinkAmount(evenBlinkStarts(rate.from, rate.perMinute, this.seed, t0, Math.min(end, t + 1e-9)), t);
  }

  /** The default rhythm (life.ts), only blinks that start in [from, end). */
  private defaultRhythm(from: number, end: number, t: number): number {
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
      const inRate = from === 0 && end === Infinity ? starts : starts.filter((s) => s >= from && s < end);
      v = Math.max(v, blinkAmount(inRate, t));
    }
    return v;
  }
}
