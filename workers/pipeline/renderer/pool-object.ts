import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../platform/env";
import {
  emptyPool,
  type Grant,
  type Outcome,
  type PoolSnapshot,
  PoolState,
  type JobRef,
  type RunRequest,
} from "./pool-state";

const KEY = "pool";

/**
 * One object for all renderer instances (workers/pipeline/renderer/pool.ts names it): which job holds
 * which instance and who waits (pool-state.ts). Its calls are synchronous over SQLite-backed storage, so
 * two dispatches can never take the same instance. It holds a few hundred bytes per job; a lost release
 * is corrected by the sweep (reconcileRendererPool), so nothing here is the record of a job.
 */
export class RendererPool extends DurableObject<Env> {
  private read(): PoolState {
    return new PoolState(this.ctx.storage.kv.get<PoolSnapshot>(KEY) ?? emptyPool(1));
  }

  private change<T>(run: (pool: PoolState) => T): T {
    const pool = this.read();
    const out = run(pool);
    this.ctx.storage.kv.put(KEY, pool.snapshot);
    return out;
  }

  acquire(req: RunRequest, instances: number, now: number): Outcome<Grant> {
    return this.change((pool) => pool.acquire(req, instances, now));
  }

  release(jobIds: string[], now: number): Outcome<number> {
    return this.change((pool) => pool.release(jobIds, now));
  }

  jobs(): JobRef[] {
    return this.read().jobs();
  }

  load(): ReturnType<PoolState["load"]> {
    return this.read().load();
  }
}
