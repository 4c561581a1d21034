import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RendererPool } from "../../../workers/pipeline/renderer/pool-object";
import type { PoolConfig } from "../../../workers/pipeline/renderer/pool-config";
import { rendererPoolConfig } from "../../../workers/pipeline/renderer/renderer-target";
import { adminFetch } from "../helpers/accounts";

// The RendererPool Durable Object over its SQLite storage: the rules are tested on the same module in Node
// (test/scripts/renderer-pool-state.test.ts); here, what only the object can show: its state across calls and
// restarts, the previous design's snapshot taken over, and the rows its storage reads per grant.

const video = (accountId: string, n: number) => ({ kind: "video" as const, jobId: `${accountId}-${n}`, accountId });
const cfg = (instances: number, accountCap = Math.ceil(instances / 2)): PoolConfig => ({ instances, accountCap });
const freshPool = () => env.RENDERER_POOL.getByName(`test-${crypto.randomUUID()}`);

describe("RendererPool Durable Object", () => {
  it("keeps the state between calls: fairness and the cap across accounts", async () => {
    const stub = freshPool();
    for (let n = 1; n <= 6; n++) await stub.acquire(video("a", n), cfg(4), n);
    expect((await stub.acquire(video("b", 1), cfg(4), 10)).result).toEqual({ waiting: 0 });
    await stub.acquire(video("b", 2), cfg(4), 11);
    await stub.acquire(video("b", 3), cfg(4), 12);
    const granted = [];
    for (const id of ["a-1", "a-2", "a-3"]) granted.push(...(await stub.release([id], cfg(4), 20)).granted);
    expect(granted.map((g) => g.jobId)).toEqual(["b-1", "b-2", "a-5"]);
    expect(await stub.load()).toEqual({ renders: [1, 1, 1, 1], runs: [1, 1, 1, 1], waiting: { a: 1, b: 1 } });
  });

  it("a restart of the object loses nothing", async () => {
    const stub = freshPool();
    await stub.acquire(video("a", 1), cfg(1), 0);
    await stub.acquire(video("a", 2), cfg(1), 1);
    await stub.acquire(video("b", 1), cfg(1), 2);
    const restarted = await runInDurableObject(stub, (_old: RendererPool, state) => {
      const pool = new RendererPool(state, env);
      return { load: pool.load(), granted: pool.release(["a-1"], cfg(1), 3).granted };
    });
    expect(restarted.load).toEqual({ renders: [1], runs: [1], waiting: { a: 1, b: 1 } });
    expect(restarted.granted).toEqual([{ kind: "video", jobId: "a-2" }]);
  });

  it("takes over the previous design's snapshot once", async () => {
    const stub = freshPool();
    const adopted = await runInDurableObject(stub, (_old: RendererPool, state) => {
      state.storage.kv.put("pool", {
        instances: 2,
        leases: [{ ...video("a", 1), instance: 1, at: 5, idleMs: null }],
        order: ["b", "a"],
        waiting: { a: [{ jobId: "a-2", since: 6 }], b: [{ jobId: "b-1", since: 7 }] },
        lastBusy: { 1: 5 },
      });
      const pool = new RendererPool(state, env);
      return {
        load: pool.load(),
        left: state.storage.kv.get("pool") ?? null,
        next: pool.acquire(video("c", 1), cfg(2), 8),
      };
    });
    expect(adopted.load).toEqual({ renders: [0, 1], runs: [0, 1], waiting: { b: 1, a: 1 } });
    expect(adopted.left).toBeNull();
    // The free instance went to the first in line (b) when c's call ran the pump; c waits.
    expect(adopted.next).toEqual({ result: { waiting: 0 }, granted: [{ kind: "video", jobId: "b-1" }] });
  });

  it("rows read and written per grant do not grow with the line (100 vs 3,000 waiting)", async () => {
    const perGrant = async (waiting: number) => {
      const stub = freshPool();
      return runInDurableObject(stub, (pool: RendererPool) => {
        for (let i = 0; i < 4; i++) pool.acquire(video("r", i), cfg(4), 0);
        for (let n = 0; n < waiting; n++) pool.acquire(video(n % 2 ? "big" : `acct${n % 25}`, n), cfg(4), n);
        const running = ["r-0", "r-1", "r-2", "r-3"];
        const before = pool.storageUsage();
        for (let i = 0; i < 40; i++) {
          const [next] = pool.release([running[i % 4]], cfg(4), 1e6 + i).granted;
          running[i % 4] = next.jobId;
          pool.acquire(video("new", i), cfg(4), 1e6 + i);
        }
        const after = pool.storageUsage();
        return {
          read: (after.rowsRead - before.rowsRead) / 40,
          written: (after.rowsWritten - before.rowsWritten) / 40,
        };
      });
    };
    const small = await perGrant(100);
    const large = await perGrant(3_000);
    expect(small.read).toBeLessThan(40);
    expect(large.read / small.read).toBeLessThan(1.25);
    expect(large.written / small.written).toBeLessThan(1.25);
  });

  it("GET /v1/admin/renderer-pool shows instances, leases, the line per account and the oldest wait", async () => {
    const pool = env.RENDERER_POOL.getByName("renderers"); // the one the Worker uses
    const config = rendererPoolConfig(env);
    const now = Date.now();
    for (let i = 0; i < config.instances; i++) await pool.acquire(video("a", i), config, now - 60_000);
    await pool.acquire(video("a", 100), config, now - 30_000);
    await pool.acquire(video("b", 1), config, now - 90_000);
    await pool.acquire(video("b", 2), config, now - 5_000);
    expect((await SELF.fetch("http://x/v1/admin/renderer-pool")).status).toBe(401);
    const res = await adminFetch("/renderer-pool");
    expect(res.status).toBe(200);
    const view = (await res.json()) as Record<string, unknown> & { leases: unknown[] };
    expect(view).toMatchObject({
      instances: config.instances,
      accountCap: config.accountCap,
      reserve: 0,
      accounts: [
        { accountId: "b", running: 0, waiting: 2, oldestWaitSeconds: expect.any(Number) },
        { accountId: "a", running: config.instances, waiting: 1 },
      ],
      waiting: 3,
      accountsWaiting: 2,
    });
    expect(view.oldestWaitSeconds).toBeGreaterThanOrEqual(89);
    expect(view.leases).toHaveLength(config.instances);
    expect(view.leases[0]).toMatchObject({ instance: 0, kind: "video", jobId: "a-0", accountId: "a" });
  });

  it("reads its cap from RENDERER_ACCOUNT_SHARE (ceil(instances × share), half by default) and sizes the reserve", () => {
    const config = (RENDERER_INSTANCES: string, RENDERER_ACCOUNT_SHARE: string) =>
      rendererPoolConfig({ RENDERER_INSTANCES, RENDERER_ACCOUNT_SHARE });
    expect(config("8", "0.5")).toEqual({ instances: 8, accountCap: 4, reserve: 0 });
    expect(config("5", "0.25")).toEqual({ instances: 5, accountCap: 2, reserve: 0 });
    expect(config("7", "")).toEqual({ instances: 7, accountCap: 4, reserve: 0 });
    // Any other value is a configuration error naming the variable (platform/config.ts).
    expect(() => config("7", "nonsense")).toThrow(
      'invalid configuration: RENDERER_ACCOUNT_SHARE must be a number above 0 and at most 1 (got "nonsense")',
    );
    expect(() => config("3", "1.5")).toThrow(/RENDERER_ACCOUNT_SHARE must be .* \(got "1.5"\)/);
    expect(() => config("0", "0.5")).toThrow(/RENDERER_INSTANCES must be an integer ≥ 1 \(got "0"\)/);
    // One instance in fifty stays for first renders while several accounts wait.
    expect(config("120", "0.5")).toEqual({ instances: 120, accountCap: 60, reserve: 2 });
  });
});
