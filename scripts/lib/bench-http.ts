/** Latency runs for the bench scripts: requests `concurrency` at a time, percentiles, throughput. */

export interface Result {
  name: string;
  count: number;
  seconds: number;
  latencies: number[];
  statuses: Map<number, number>;
}

export type MakeRequest = (i: number) => { url: string; init: RequestInit };

async function timed(make: MakeRequest, i: number, latencies: number[], statuses: Map<number, number>) {
  const { url, init } = make(i);
  const t0 = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  latencies.push(performance.now() - t0);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
}

/** `count` requests, `concurrency` at a time; `make(i)` builds request i. Latency includes reading the body. */
export async function run(name: string, count: number, concurrency: number, make: MakeRequest): Promise<Result> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let i = next++; i < count; i = next++) await timed(make, i, latencies, statuses);
    }),
  );
  return { name, count, seconds: (performance.now() - started) / 1000, latencies, statuses };
}

/**
 * Like run(), in rounds of `concurrency` requests; `afterRound(indices)` runs between rounds (not timed), and
 * throughput is over the rounds' own time.
 */
export async function runInRounds(
  name: string,
  count: number,
  concurrency: number,
  make: MakeRequest,
  afterRound: (indices: number[]) => Promise<unknown>,
): Promise<Result> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let seconds = 0;
  for (let first = 0; first < count; first += concurrency) {
    const round = Array.from({ length: Math.min(concurrency, count - first) }, (_, k) => first + k);
    const started = performance.now();
    await Promise.all(round.map((i) => timed(make, i, latencies, statuses)));
    seconds += (performance.now() - started) / 1000;
    await afterRound(round);
  }
  return { name, count, seconds, latencies, statuses };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export function stats(r: Result) {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps: r.count / r.seconds };
}
