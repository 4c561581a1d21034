import { describe, expect, it } from "vitest";
import { percentile, syntheticDay } from "../../scripts/lib/pool-sim/demand";
import { grantCost, makePool } from "../../scripts/lib/pool-sim/pools";
import { simulateDay } from "../../scripts/lib/pool-sim/simulate";
import { poolConfig } from "../../workers/pipeline/renderer/pool-config";

// A small `npm run bench:pool` (scripts/bench-pool.ts) as a regression test: the pool module over SQLite
// through six simulated hours of 100 instances at 80 % load (peak 120 %: the line grows to thousands, the
// largest accounts' batches wait hours), and the cost of a grant at two line lengths.

describe("bench:pool, small", () => {
  it("first renders start within a median render length; no instance idles while renders wait", () => {
    const instances = 100;
    const renders = syntheticDay({
      instances,
      load: 0.8,
      accounts: 1000,
      peakRatio: 1.5,
      batchingAccounts: 10,
      hours: 6,
      seed: 7,
    });
    const day = simulateDay(makePool("rows", poolConfig(instances, 0.5)), renders, {
      instances,
      handoverMs: 1_000,
      coldStartMs: 5_000,
      sleepAfterMs: 600_000,
      cpuBudgetMs: 60_000,
    });
    expect(day.stopped).toBeUndefined();
    expect(day.largestLine).toBeGreaterThan(1000); // the peak did make renders wait
    const medianRender = percentile(
      renders.map((r) => r.renderMs),
      50,
    );
    expect(percentile(day.firstWaits, 99)).toBeLessThanOrEqual(medianRender);
    // The reserve (one instance in fifty) is all that may stay free while renders wait.
    expect(day.utilWhileWaiting).toBeGreaterThan(0.97);
  });

  it("a grant costs about the same with 100 or 10,000 renders waiting", () => {
    const config = poolConfig(50, 0.5);
    const short = grantCost("rows", config, 100, 1_000);
    const long = grantCost("rows", config, 10_000, 1_000);
    expect(long.storageOpsPerGrant / short.storageOpsPerGrant).toBeLessThan(1.1);
    expect(long.cpuUsPerGrant / short.cpuUsPerGrant).toBeLessThan(2);
  });
});
