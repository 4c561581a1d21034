/**
 * A synthetic day of render demand for `npm run bench:pool`: accounts of heavy-tailed size (Zipf: a few submit
 * thousands of renders, most a handful), audio from 5 s to 60 min (log-uniform), Poisson arrivals whose rate
 * follows a daily peak, and the largest accounts submitting in batches of 50–2,000 at once. Seeded: the same
 * spec gives the same day.
 */
import { prng } from "@avatar-video/motion-model";

export interface DemandSpec {
  instances: number;
  /** The day's render time over the instances' time (0.8: 80 % of capacity on average). */
  load: number;
  accounts: number;
  /** The busiest hour's arrival rate over the day's mean (1.5: the peak runs at 1.5 × load). */
  peakRatio: number;
  /** Accounts (the largest) that submit in batches. */
  batchingAccounts: number;
  hours: number;
  seed: number;
}

export interface Render {
  jobId: string;
  accountId: string;
  /** Submitted at (ms from the day's start). */
  at: number;
  /** Instance time the render takes (ms). */
  renderMs: number;
}

/** Realtime factors measured on standard-3's shape (docs/operations.md, "Load model"): 1080p, 1024². */
const RTF = [
  { share: 0.6, rtf: 4.3 },
  { share: 0.4, rtf: 6.8 },
];
const AUDIO_S = { min: 5, max: 3600 };
const ZIPF_EXPONENT = 1.1;
const BATCH = { min: 50, max: 2000 };
const PEAK_AT = 14 / 24;

const logUniform = (rand: () => number, min: number, max: number) => min * (max / min) ** rand();

/** One render's instance time: audio length over the realtime factor of its size. */
export function renderMs(rand: () => number): number {
  const audio = logUniform(rand, AUDIO_S.min, AUDIO_S.max);
  const rtf = rand() < RTF[0].share ? RTF[0].rtf : RTF[1].rtf;
  return Math.round((audio / rtf) * 1000);
}

export function syntheticDay(spec: DemandSpec): Render[] {
  const rand = prng(spec.seed);
  const dayMs = spec.hours * 3_600_000;
  // Accounts by Zipf weight: cumulative table, binary search.
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < spec.accounts; i++) cumulative.push((total += 1 / (i + 1) ** ZIPF_EXPONENT));
  const account = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Arrival times: a Poisson process whose rate follows 1 + a·cos around the peak (thinning).
  const a = spec.peakRatio - 1;
  const arrival = () => {
    for (;;) {
      const t = rand() * dayMs;
      const rate = 1 + a * Math.cos(2 * Math.PI * (t / dayMs - PEAK_AT));
      if (rand() * (1 + a) < rate) return Math.floor(t);
    }
  };
  const work = spec.load * spec.instances * dayMs;
  const perAccount = new Map<number, number[]>();
  let sum = 0;
  while (sum < work) {
    const ms = renderMs(rand);
    sum += ms;
    const who = account();
    const list = perAccount.get(who) ?? [];
    list.push(ms);
    perAccount.set(who, list);
  }
  const renders: Render[] = [];
  for (const [who, lengths] of perAccount) {
    const accountId = `acct-${who}`;
    let at = arrival();
    let left = 0;
    lengths.forEach((ms, n) => {
      if (who >= spec.batchingAccounts) at = arrival();
      else if (left-- <= 0) {
        at = arrival();
        left = Math.round(logUniform(rand, BATCH.min, BATCH.max)) - 1;
      }
      renders.push({ jobId: `${accountId}-${n}`, accountId, at, renderMs: ms });
    });
  }
  return renders.sort((x, y) => x.at - y.at);
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
