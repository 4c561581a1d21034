/**
 * The speaker's level, estimated causally for streaming: the whole-file analysis (lipsync.ts) takes its
 * noise floor and speaker reference from the whole file and a ±1.5 s window; a live stream has only the
 * past. Here: the noise floor is the 10th percentile of the last 20 s (with a weak prior of quiet frames
 * so the first words open the mouth), the reference the 90th percentile of active frames over the last
 * 3 s, never more than 12 dB below that of the last 20 s. Histograms of 0.5 dB bins keep each update O(bins).
 */
const MIN_DB = -120;
const BIN_DB = 0.5;
const BINS = 241;
const LONG = 2000; // 20 s of 10 ms frames
const SHORT = 300; // 3 s
const PRIOR_FRAMES = 20;
const PRIOR_DB = -65;

const binOf = (db: number) => Math.max(0, Math.min(BINS - 1, Math.round((db - MIN_DB) / BIN_DB)));
const dbOf = (bin: number) => MIN_DB + bin * BIN_DB;

class WindowHistogram {
  readonly counts = new Uint32Array(BINS);
  private readonly ring: Int16Array;
  private head = 0;
  size = 0;
  /** Entries that count (bin ≥ 0). */
  total = 0;
  constructor(readonly capacity: number) {
    this.ring = new Int16Array(capacity);
  }
  /** Adds a bin (or -1: a frame that does not count); the oldest entry leaves when full. */
  add(bin: number): void {
    if (this.size === this.capacity) {
      const old = this.ring[this.head];
      if (old >= 0) {
        this.counts[old]--;
        this.total--;
      }
    } else this.size++;
    this.ring[this.head] = bin;
    if (bin >= 0) {
      this.counts[bin]++;
      this.total++;
    }
    this.head = (this.head + 1) % this.capacity;
  }
}

/** Percentile (as the whole-file analysis rounds it) over a histogram plus optional prior counts. */
function percentile(counts: Uint32Array, total: number, p: number, prior?: { bin: number; n: number }): number {
  const all = total + (prior?.n ?? 0);
  if (all === 0) return NaN;
  const rank = Math.min(all - 1, Math.max(0, Math.round((all - 1) * p)));
  const extra = (b: number) => (prior && prior.bin === b ? prior.n : 0);
  if (p < 0.5) {
    // The lowest bin whose count and those below it pass the rank.
    let seen = 0;
    for (let b = 0; b < BINS; b++) {
      seen += counts[b] + extra(b);
      if (seen > rank) return dbOf(b);
    }
    return dbOf(BINS - 1);
  }
  // The same bin found from the top (fewer bins to walk for a high percentile): the highest one whose count
  // and those above it reach all − rank.
  let above = 0;
  for (let b = BINS - 1; b > 0; b--) {
    above += counts[b] + extra(b);
    if (above >= all - rank) return dbOf(b);
  }
  return dbOf(0);
}

export class CausalLevels {
  private readonly all = new WindowHistogram(LONG);
  private readonly activeLong = new WindowHistogram(LONG);
  private readonly activeShort = new WindowHistogram(SHORT);

  /** Add one frame's loudness and return the floor, reference and silent flag to judge it with. */
  update(db: number): { floor: number; ref: number; silent: boolean } {
    this.all.add(binOf(db));
    const floor = Math.max(
      -90,
      Math.min(percentile(this.all.counts, this.all.total, 0.1, { bin: binOf(PRIOR_DB), n: PRIOR_FRAMES }), -25),
    );
    const active = db > floor + 6 && db > -75 ? binOf(db) : -1;
    this.activeLong.add(active);
    this.activeShort.add(active);
    const nLong = this.activeLong.total;
    const nShort = this.activeShort.total;
    const globalRef = nLong ? percentile(this.activeLong.counts, nLong, 0.9) : -120;
    const local = nShort >= 10 ? percentile(this.activeShort.counts, nShort, 0.9) : globalRef;
    return { floor, ref: Math.max(local, globalRef - 12), silent: globalRef < -60 };
  }
}
