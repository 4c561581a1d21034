/**
 * The two pool designs behind one interface for the simulation: the rows design (the Worker's own module,
 * workers/pipeline/renderer/pool-state.ts, over Node's SQLite) and the previous snapshot design
 * (snapshot-pool.ts). Also the cost of a grant at a given line length, the same for both.
 */
import { prng } from "@avatar-video/motion-model";
import type { PoolConfig } from "../../../workers/pipeline/renderer/pool-config";
import { PoolState } from "../../../workers/pipeline/renderer/pool-state";
import { nodePoolSql } from "./node-sql";
import type { PoolUnderTest } from "./simulate";
import { type PoolStart, SnapshotTooLarge, snapshotPool } from "./snapshot-pool";

export type Design = "rows" | "snapshot";

export function makePool(
  design: Design,
  config: PoolConfig,
  start: PoolStart = { running: [], waiting: [] },
): PoolUnderTest & { valueBytes(): number | null } {
  if (design === "snapshot") {
    const pool = snapshotPool(config.instances, start);
    return {
      acquire: pool.acquire,
      release: pool.release,
      storageOps: () => pool.meter.storageOps,
      valueBytes: () => pool.meter.valueBytes,
    };
  }
  const sql = nodePoolSql();
  const pool = PoolState.open(sql);
  for (const r of start.running) pool.acquire(r, config, 0);
  for (const w of start.waiting) pool.acquire(w, config, w.since);
  return {
    acquire: (req, now) => pool.acquire(req, config, now),
    release: (ids, now) => pool.release(ids, config, now),
    storageOps: () => sql.statements,
    valueBytes: () => null,
  };
}

export interface GrantCost {
  waiting: number;
  storageOpsPerGrant: number;
  cpuUsPerGrant: number;
  /** The snapshot design's stored value (bytes); null for rows. */
  valueBytes: number | null;
  /** Why no figure (the snapshot could not be stored). */
  refused?: string;
}

/**
 * All `config.instances` busy and `waiting` renders in line over 1,000 accounts (Zipf-sized, as the day's
 * demand), then `cycles` times: a render ends, the pump grants the next, its message acquires again, a new
 * render joins the line (so the line keeps its length). Cost per grant over those cycles only.
 */
export function grantCost(design: Design, config: PoolConfig, waiting: number, cycles: number): GrantCost {
  const rand = prng(waiting);
  const accountOf = () => `acct-${Math.floor(1000 ** rand()) - 1}`; // heavy-tailed: low numbers dominate
  const start: PoolStart = {
    running: Array.from({ length: config.instances }, (_, i) => ({
      kind: "video" as const,
      jobId: `run-${i}`,
      accountId: `runner-${i}`,
    })),
    waiting: Array.from({ length: waiting }, (_, n) => ({
      kind: "video" as const,
      jobId: `w-${n}`,
      accountId: accountOf(),
      since: n,
    })),
  };
  let pool: ReturnType<typeof makePool>;
  try {
    pool = makePool(design, { ...config, reserve: 0 }, start); // the cost of a grant, the reserve aside
  } catch (err) {
    if (!(err instanceof SnapshotTooLarge)) throw err;
    return { waiting, storageOpsPerGrant: 0, cpuUsPerGrant: 0, valueBytes: null, refused: err.message };
  }
  const running = start.running.map((r) => r.jobId);
  const ops = pool.storageOps();
  const started = process.cpuUsage();
  let grants = 0;
  for (let i = 0; i < cycles; i++) {
    const now = 1e9 + i;
    const slot = i % running.length;
    const [next] = pool.release([running[slot]], now).granted;
    if (!next) throw new Error("a render ended and none of the waiting got its instance");
    grants++;
    running[slot] = next.jobId;
    pool.acquire({ kind: "video", jobId: next.jobId, accountId: "re-acquire" }, now);
    pool.acquire({ kind: "video", jobId: `new-${i}`, accountId: accountOf() }, now);
  }
  const used = process.cpuUsage(started);
  return {
    waiting,
    storageOpsPerGrant: (pool.storageOps() - ops) / grants,
    cpuUsPerGrant: (used.user + used.system) / grants,
    valueBytes: pool.valueBytes(),
  };
}
