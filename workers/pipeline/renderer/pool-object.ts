import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../platform/env";
import type { SqlValue } from "./pool-schema";
import type { PoolConfig } from "./pool-config";
import type { Grant, HeldJob, Outcome, RunRequest } from "./pool-jobs";
import { PoolState } from "./pool-state";
import { type PoolView, poolView } from "./pool-view";

/** The key under which the previous design kept the whole pool as one value; taken over once, then deleted. */
const SNAPSHOT_KEY = "pool";
interface Snapshot {
  leases: (RunRequest & { instance: number; at: number })[];
  order: string[];
  waiting: Record<string, { jobId: string; since: number }[]>;
}

/** Storage work done by the pool's statements since this object started (tests; the admin view). */
export interface PoolUsage {
  statements: number;
  rowsRead: number;
  rowsWritten: number;
}

/**
 * One object for all renderer instances (workers/pipeline/renderer/pool.ts names it): which job holds
 * which instance and who waits (pool-state.ts), as rows of its SQLite storage. Each call runs in one
 * synchronous transaction, so two dispatches can never take the same instance. A lost release is corrected
 * by the sweep (reconcileRendererPool): nothing here is the record of a job, D1 is.
 */
export class RendererPool extends DurableObject<Env> {
  private readonly state: PoolState;
  private readonly usage: PoolUsage = { statements: 0, rowsRead: 0, rowsWritten: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.state = PoolState.open({
      exec: (query: string, ...params: SqlValue[]) => {
        const cursor = ctx.storage.sql.exec(query, ...params);
        const rows = cursor.toArray();
        this.usage.statements++;
        this.usage.rowsRead += cursor.rowsRead;
        this.usage.rowsWritten += cursor.rowsWritten;
        return rows;
      },
    });
    const snapshot = ctx.storage.kv.get<Snapshot>(SNAPSHOT_KEY);
    if (snapshot) {
      ctx.storage.transactionSync(() => {
        const waiting = snapshot.order.flatMap((accountId) =>
          snapshot.waiting[accountId].map((w) => ({ kind: "video" as const, accountId, ...w })),
        );
        this.state.adopt(snapshot.leases, waiting);
        ctx.storage.kv.delete(SNAPSHOT_KEY);
      });
    }
  }

  acquire(req: RunRequest, config: PoolConfig, now: number): Outcome<Grant> {
    return this.ctx.storage.transactionSync(() => this.state.acquire(req, config, now));
  }

  release(jobIds: string[], config: PoolConfig, now: number): Outcome<number> {
    return this.ctx.storage.transactionSync(() => this.state.release(jobIds, config, now));
  }

  jobsToCheck(waiting: number): HeldJob[] {
    return this.ctx.storage.transactionSync(() => this.state.jobsToCheck(waiting));
  }

  load(): ReturnType<PoolState["load"]> {
    return this.state.load();
  }

  view(config: PoolConfig, now: number): PoolView {
    return poolView({ exec: (q, ...p) => this.ctx.storage.sql.exec(q, ...p).toArray() }, config, now);
  }

  storageUsage(): PoolUsage {
    return { ...this.usage };
  }
}
