/**
 * Renderer pool benchmark (docs/operations.md, "Capacity"): the pool's own module
 * (workers/pipeline/renderer/pool-state.ts) and its SQL, over Node's SQLite, driven through a simulated day.
 *
 *   npm run bench:pool -- [--quick] [--scenarios 50x0.8,500x0.8] [--skip-snapshot] [--skip-cold-start] [--cold-starts 3]
 *
 * 1. A day per scenario (INSTANCESxLOAD): 1,000 accounts of Zipf size (the largest submit in batches of
 *    50–2,000), audio 5 s–60 min, Poisson arrivals peaking at 1.5× the day's mean (scripts/lib/pool-sim/).
 *    Prints waits until an account's first render starts (submitted while it had none in flight) and for
 *    any render, utilisation (overall and while anything waited), the largest line, storage operations and
 *    CPU per grant; the previous snapshot design on the first scenario's day, as far as 20 s of its CPU go.
 * 2. The cost of a grant at 100 to 100,000 waiting renders, for both designs.
 * 3. A renderer's cold start on this machine: process start to ready, and to its models loaded.
 */
import { parseArgs } from "node:util";
import { percentile, syntheticDay } from "./lib/pool-sim/demand";
import { rendererColdStart } from "./lib/pool-sim/cold-start";
import { type Design, grantCost, makePool } from "./lib/pool-sim/pools";
import { type DayFigures, simulateDay } from "./lib/pool-sim/simulate";
import { poolConfig } from "../workers/pipeline/renderer/pool-config";

const { values: opts } = parseArgs({
  options: {
    quick: { type: "boolean" },
    scenarios: { type: "string" },
    "skip-snapshot": { type: "boolean" },
    "skip-cold-start": { type: "boolean" },
    "cold-starts": { type: "string", default: "3" },
  },
});

const quick = Boolean(opts.quick);
const scenarios = (opts.scenarios ?? (quick ? "20x0.8" : "50x0.8,500x0.8,50x1.0")).split(",").map((s) => {
  const [instances, load] = s.split("x").map(Number);
  if (!(instances >= 1 && load > 0)) throw new Error(`--scenarios: "${s}" is not INSTANCESxLOAD (e.g. 50x0.8)`);
  return { instances, load };
});
const LINES = quick ? [100, 1_000, 10_000] : [100, 1_000, 10_000, 100_000];
const SNAPSHOT_LINES = [100, 1_000, 10_000, 100_000];
const sim = { handoverMs: 1_000, coldStartMs: 5_000, sleepAfterMs: 10 * 60_000, cpuBudgetMs: 60_000 };
/** The snapshot design's CPU grows with the line: it runs the first scenario only, until this much pool CPU. */
const SNAPSHOT_CPU_BUDGET_MS = 20_000;
const cap = (instances: number) => poolConfig(instances, 0.5);

const s = (ms: number) =>
  Number.isNaN(ms)
    ? "-"
    : ms < 10_000
      ? `${(ms / 1000).toFixed(1)} s`
      : ms < 120_000
        ? `${Math.round(ms / 1000)} s`
        : ms < 7_200_000
          ? `${Math.round(ms / 60_000)} min`
          : `${(ms / 3_600_000).toFixed(1)} h`;
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function row(design: Design, instances: number, load: number, medianMs: number, f: DayFigures): string[] {
  const p99First = percentile(f.firstWaits, 99);
  return [
    `${instances} × ${Math.round(load * 100)} %`,
    design,
    String(f.renders),
    s(medianMs),
    s(percentile(f.firstWaits, 50)),
    `${s(p99First)}${p99First <= medianMs ? " ✓" : " ✗"}`,
    s(percentile(f.waits, 50)),
    s(percentile(f.waits, 99)),
    pct(f.utilisation),
    pct(f.utilWhileWaiting),
    String(f.largestLine),
    f.storageOpsPerGrant.toFixed(1),
    f.cpuUsPerGrant.toFixed(0),
    f.stopped ?? "",
  ];
}

function print(header: string[], rows: string[][]) {
  process.stdout.write(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|\n`);
  for (const r of rows) process.stdout.write(`| ${r.join(" | ")} |\n`);
  process.stdout.write("\n");
}

const DAY_HEADER = [
  "instances × load",
  "design",
  "renders",
  "median render",
  "first p50",
  "first p99 (≤ median?)",
  "any p50",
  "any p99",
  "utilisation",
  "while waiting",
  "largest line",
  "storage ops / grant",
  "µs / grant",
  "note",
];

process.stdout.write(
  `bench:pool — node ${process.version}; day: 1,000 accounts, peak 1.5× mean, hand-over ${sim.handoverMs / 1000} s, cold start ${sim.coldStartMs / 1000} s after ${sim.sleepAfterMs / 60_000} min idle\n\n`,
);
const dayRows: string[][] = [];
for (const { instances, load } of scenarios) {
  const renders = syntheticDay({
    instances,
    load,
    accounts: 1000,
    peakRatio: 1.5,
    batchingAccounts: 10,
    hours: quick ? 6 : 24,
    seed: instances * 1000 + Math.round(load * 100),
  });
  const medianMs = percentile(
    renders.map((r) => r.renderMs),
    50,
  );
  const designs: Design[] = opts["skip-snapshot"] || dayRows.length ? ["rows"] : ["rows", "snapshot"];
  for (const design of designs) {
    const started = performance.now();
    const budget = design === "snapshot" ? { cpuBudgetMs: SNAPSHOT_CPU_BUDGET_MS } : {};
    const figures = simulateDay(makePool(design, cap(instances)), renders, { instances, ...sim, ...budget });
    dayRows.push(row(design, instances, load, medianMs, figures));
    process.stderr.write(`  ${instances}x${load} ${design}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
}
print(DAY_HEADER, dayRows);

const costRows: string[][] = [];
for (const design of ["rows", "snapshot"] as Design[]) {
  if (design === "snapshot" && opts["skip-snapshot"]) continue;
  for (const waiting of design === "rows" ? LINES : SNAPSHOT_LINES) {
    const c = grantCost(design, cap(50), waiting, design === "rows" ? 2_000 : waiting >= 10_000 ? 20 : 200);
    costRows.push([
      design,
      String(waiting),
      c.refused ? "-" : c.storageOpsPerGrant.toFixed(1),
      c.refused ? "-" : c.cpuUsPerGrant.toFixed(0),
      c.valueBytes === null ? "-" : `${Math.round(c.valueBytes / 1024)} KiB`,
      c.refused ?? "",
    ]);
  }
}
print(["design", "waiting", "storage ops / grant", "µs / grant", "stored value", "note"], costRows);

if (!opts["skip-cold-start"]) {
  const runs = Number(opts["cold-starts"]);
  const starts = [];
  for (let i = 0; i < runs; i++) starts.push(await rendererColdStart());
  print(
    ["run", "process start → ready (/health)", "→ models loaded"],
    starts.map((c, i) => [String(i + 1), s(c.readyMs), s(c.modelsMs)]),
  );
}
