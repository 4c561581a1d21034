import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { emptyPool, type Grant, PoolState } from "../../workers/pipeline/renderer/pool-state";

// The renderer pool (workers/pipeline/renderer/pool-state.ts): least-loaded choice and fairness between accounts.

const video = (accountId: string, n: number) => ({ kind: "video" as const, jobId: `${accountId}-${n}`, accountId });
const instanceOf = (g: Grant) => ("instance" in g ? g.instance : null);

describe("renderer pool", () => {
  it("gives each render an idle instance and makes the rest wait", () => {
    const pool = new PoolState(emptyPool(3));
    const got = [1, 2, 3].map((n) => instanceOf(pool.acquire(video("a", n), 3, 1000).result));
    expect(got.sort()).toEqual([0, 1, 2]);
    expect(pool.acquire(video("a", 4), 3, 1000).result).toEqual({ waiting: 0 });
    expect(pool.load().renders).toEqual([1, 1, 1]);
  });

  it("a job that holds an instance gets the same one again (re-dispatch after a stall)", () => {
    const pool = new PoolState(emptyPool(3));
    const first = instanceOf(pool.acquire(video("a", 1), 3, 1000).result);
    pool.acquire(video("a", 2), 3, 1000);
    expect(instanceOf(pool.acquire(video("a", 1), 3, 5000).result)).toBe(first);
    expect(pool.load().renders.reduce((x, y) => x + y)).toBe(2);
  });

  it("one account's long line does not delay another account's first render", () => {
    const pool = new PoolState(emptyPool(2));
    for (let n = 1; n <= 200; n++) pool.acquire(video("a", n), 2, n);
    expect(pool.acquire(video("b", 1), 2, 300).result).toEqual({ waiting: 0 });
    // The next free instance goes to b, then a and b take turns.
    const order: string[] = [];
    for (const done of ["a-1", "a-2"]) order.push(...pool.release([done], 400).granted.map((g) => g.jobId));
    pool.acquire(video("b", 2), 2, 500);
    for (const done of order) order.push(...pool.release([done], 600).granted.map((g) => g.jobId));
    expect(order.slice(0, 4)).toEqual(["b-1", "a-3", "b-2", "a-4"]);
  });

  it("round-robin over three accounts, each served in its own order", () => {
    const pool = new PoolState(emptyPool(1));
    pool.acquire(video("x", 0), 1, 0);
    for (let n = 1; n <= 3; n++) for (const a of ["a", "b", "c"]) pool.acquire(video(a, n), 1, n);
    const served: string[] = [];
    let running = "x-0";
    for (let i = 0; i < 9; i++) {
      const [next] = pool.release([running], 100 + i).granted;
      served.push(next.jobId);
      running = next.jobId;
    }
    expect(served).toEqual(["a-1", "b-1", "c-1", "a-2", "b-2", "c-2", "a-3", "b-3", "c-3"]);
    expect(pool.jobs()).toEqual([{ kind: "video", jobId: "c-3" }]);
  });

  it("Avatar analyses never wait and go to the least loaded instance", () => {
    const pool = new PoolState(emptyPool(3));
    pool.acquire(video("a", 1), 3, 0);
    pool.acquire(video("a", 2), 3, 0);
    const avatar = { kind: "avatar" as const, jobId: "av-1", accountId: "a" };
    expect(instanceOf(pool.acquire(avatar, 3, 1).result)).toBe(2);
    pool.acquire(video("a", 3), 3, 2);
    expect(instanceOf(pool.acquire({ ...avatar, jobId: "av-2" }, 3, 3).result)).not.toBeNull();
    expect(pool.load().runs.reduce((x, y) => x + y)).toBe(5);
  });

  it("prefers an awake instance among idle ones and reports idle time (cold starts)", () => {
    const pool = new PoolState(emptyPool(3));
    expect(pool.acquire(video("a", 1), 3, 1000).result).toEqual({ instance: 0, idleMs: null });
    pool.release(["a-1"], 2000);
    expect(pool.acquire(video("a", 2), 3, 5000).result).toEqual({ instance: 0, idleMs: 3000 });
  });

  it("releasing a waiting job drops it from the line; releasing twice is harmless", () => {
    const pool = new PoolState(emptyPool(1));
    pool.acquire(video("a", 1), 1, 0);
    pool.acquire(video("a", 2), 1, 0);
    expect(pool.release(["a-2"], 1).result).toBe(1);
    expect(pool.release(["a-2"], 1).result).toBe(0);
    expect(pool.release(["a-1"], 2).granted).toEqual([]);
    expect(pool.jobs()).toEqual([]);
  });

  it("the Durable Object keeps the state between calls", async () => {
    const stub = env.RENDERER_POOL.getByName(`test-${crypto.randomUUID()}`);
    expect((await stub.acquire(video("a", 1), 2, 0)).result).toMatchObject({ instance: 0 });
    expect((await stub.acquire(video("a", 2), 2, 0)).result).toMatchObject({ instance: 1 });
    expect((await stub.acquire(video("b", 1), 2, 0)).result).toEqual({ waiting: 0 });
    expect((await stub.release(["a-1"], 10)).granted).toEqual([{ kind: "video", jobId: "b-1" }]);
    expect(await stub.load()).toEqual({ renders: [1, 1], runs: [1, 1], waiting: {} });
  });
});
