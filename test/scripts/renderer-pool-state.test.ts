import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodePoolSql } from "../../scripts/lib/pool-sim/node-sql";
import type { PoolConfig } from "../../workers/pipeline/renderer/pool-config";
import type { Grant } from "../../workers/pipeline/renderer/pool-jobs";
import { PoolState } from "../../workers/pipeline/renderer/pool-state";

// The renderer pool's logic (workers/pipeline/renderer/pool-state.ts) over Node's SQLite, the same module and
// statements the RendererPool Durable Object runs (test/worker/pipeline/renderer-pool.test.ts tests the object).

const video = (accountId: string, n: number) => ({ kind: "video" as const, jobId: `${accountId}-${n}`, accountId });
const instanceOf = (g: Grant) => ("instance" in g ? g.instance : null);
const config = (instances: number, accountCap = Math.ceil(instances / 2)): PoolConfig => ({ instances, accountCap });
const fresh = () => PoolState.open(nodePoolSql());
const dir = mkdtempSync(join(tmpdir(), "pool-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("renderer pool rules", () => {
  it("gives each render an idle instance and makes the rest wait", () => {
    const pool = fresh();
    const got = [1, 2, 3].map((n) => instanceOf(pool.acquire(video("a", n), config(3, 3), 1000).result));
    expect(got.sort()).toEqual([0, 1, 2]);
    expect(pool.acquire(video("a", 4), config(3, 3), 1000).result).toEqual({ waiting: 0 });
    expect(pool.acquire(video("a", 5), config(3, 3), 1000).result).toEqual({ waiting: 1 });
    expect(pool.acquire(video("a", 5), config(3, 3), 1001).result).toEqual({ waiting: 1 });
    expect(pool.load().renders).toEqual([1, 1, 1]);
  });

  it("a job that holds an instance gets the same one again (re-dispatch after a stall)", () => {
    const pool = fresh();
    const first = instanceOf(pool.acquire(video("a", 1), config(3), 1000).result);
    pool.acquire(video("a", 2), config(3), 1000);
    expect(instanceOf(pool.acquire(video("a", 1), config(3), 5000).result)).toBe(first);
    expect(pool.load().renders.reduce((x, y) => x + y)).toBe(2);
  });

  it("one account's long line does not delay another account's first render", () => {
    const pool = fresh();
    for (let n = 1; n <= 200; n++) pool.acquire(video("a", n), config(2), n);
    expect(pool.acquire(video("b", 1), config(2), 300).result).toEqual({ waiting: 0 });
    // The next free instance goes to b, then a and b take turns.
    const order: string[] = [];
    for (const done of ["a-1", "a-2"]) order.push(...pool.release([done], config(2), 400).granted.map((g) => g.jobId));
    pool.acquire(video("b", 2), config(2), 500);
    for (const done of order) order.push(...pool.release([done], config(2), 600).granted.map((g) => g.jobId));
    expect(order.slice(0, 4)).toEqual(["b-1", "a-3", "b-2", "a-4"]);
  });

  it("round-robin over three accounts, each served in its own order", () => {
    const pool = fresh();
    pool.acquire(video("x", 0), config(1), 0);
    for (let n = 1; n <= 3; n++) for (const a of ["a", "b", "c"]) pool.acquire(video(a, n), config(1), n);
    const served: string[] = [];
    let running = "x-0";
    for (let i = 0; i < 9; i++) {
      const [next] = pool.release([running], config(1), 100 + i).granted;
      served.push(next.jobId);
      running = next.jobId;
    }
    expect(served).toEqual(["a-1", "b-1", "c-1", "a-2", "b-2", "c-2", "a-3", "b-3", "c-3"]);
    expect(pool.jobsToCheck(10).map((j) => j.jobId)).toEqual(["c-3"]);
  });

  it("caps an account at accountCap instances while another waits; alone it may use all", () => {
    const pool = fresh();
    const cfg = config(4, 2);
    for (let n = 1; n <= 6; n++) pool.acquire(video("a", n), cfg, n);
    expect(pool.load().renders).toEqual([1, 1, 1, 1]); // alone: all four
    for (let n = 1; n <= 3; n++) pool.acquire(video("b", n), cfg, 10);
    // a's renders end: b takes the freed instances until both run two, the cap.
    const granted = ["a-1", "a-2", "a-3"].flatMap((id) => pool.release([id], cfg, 20).granted.map((g) => g.jobId));
    expect(granted).toEqual(["b-1", "b-2", "a-5"]);
    // With a cap of one, a (two running) and b (one) both wait: the freed instance stays free.
    const capOne = config(4, 1);
    expect(pool.release(["b-1"], capOne, 30).granted).toEqual([]);
    expect(pool.load().renders.reduce((x, y) => x + y)).toBe(3);
    // b's last waiting render is withdrawn: a waits alone and may take it.
    expect(pool.release(["b-3"], capOne, 40).granted).toEqual([{ kind: "video", jobId: "a-6" }]);
  });

  it("keeps the reserve free for accounts with nothing running while several accounts wait", () => {
    const pool = fresh();
    const cfg = { ...config(4, 4), reserve: 1 };
    for (let n = 1; n <= 5; n++) pool.acquire(video("a", n), cfg, n);
    expect(pool.load().renders).toEqual([1, 1, 1, 1]); // alone: every instance, reserve or not
    pool.acquire(video("b", 1), cfg, 10);
    pool.acquire(video("b", 2), cfg, 10);
    expect(pool.release(["a-1"], cfg, 20).granted.map((g) => g.jobId)).toEqual(["b-1"]);
    // Both now render and wait: the next free instance is the reserve, and stays free…
    expect(pool.release(["a-2"], cfg, 30).granted).toEqual([]);
    // …for an account with nothing running, whose first render starts at once.
    expect(pool.acquire(video("c", 1), cfg, 40).result).toMatchObject({ instance: expect.any(Number) });
    expect(pool.release(["a-3"], cfg, 50).granted).toEqual([]);
    // a's last render ends: a has nothing running (the reserve is for it too), then b waits alone.
    expect(pool.release(["a-4"], cfg, 60).granted.map((g) => g.jobId)).toEqual(["a-5", "b-2"]);
  });

  it("Avatar analyses never wait and go to the least loaded instance", () => {
    const pool = fresh();
    pool.acquire(video("a", 1), config(3), 0);
    pool.acquire(video("a", 2), config(3), 0);
    const avatar = { kind: "avatar" as const, jobId: "av-1", accountId: "a" };
    expect(instanceOf(pool.acquire(avatar, config(3), 1).result)).toBe(2);
    pool.acquire(video("a", 3), config(3), 2);
    expect(instanceOf(pool.acquire({ ...avatar, jobId: "av-2" }, config(3), 3).result)).not.toBeNull();
    expect(pool.load().runs.reduce((x, y) => x + y)).toBe(5);
  });

  it("prefers an awake instance among idle ones and reports idle time (cold starts)", () => {
    const pool = fresh();
    expect(pool.acquire(video("a", 1), config(3), 1000).result).toEqual({ instance: 0, idleMs: null });
    pool.release(["a-1"], config(3), 2000);
    expect(pool.acquire(video("a", 2), config(3), 5000).result).toEqual({ instance: 0, idleMs: 3000 });
  });

  it("releasing a waiting job drops it from the line; releasing twice is harmless", () => {
    const pool = fresh();
    pool.acquire(video("a", 1), config(1), 0);
    pool.acquire(video("a", 2), config(1), 0);
    expect(pool.release(["a-2"], config(1), 1).result).toBe(1);
    expect(pool.release(["a-2"], config(1), 1).result).toBe(0);
    expect(pool.release(["a-1"], config(1), 2).granted).toEqual([]);
    expect(pool.jobsToCheck(10)).toEqual([]);
  });

  it("the sweep reads every lease and the line a page at a time, round and round", () => {
    const pool = fresh();
    pool.acquire(video("a", 0), config(1), 0);
    for (let n = 1; n <= 5; n++) pool.acquire(video("b", n), config(1), n);
    const pages = [0, 1, 2, 3].map((_) => pool.jobsToCheck(2).map((j) => j.jobId));
    expect(pages).toEqual([
      ["a-0", "b-1", "b-2"],
      ["a-0", "b-3", "b-4"],
      ["a-0", "b-5"],
      ["a-0", "b-1", "b-2"],
    ]);
  });

  it("a restart loses nothing: the state is in the database file", () => {
    const path = join(dir, "restart.sqlite");
    const first = nodePoolSql(path);
    const before = PoolState.open(first);
    before.acquire(video("a", 1), config(1), 0);
    before.acquire(video("a", 2), config(1), 1);
    before.acquire(video("b", 1), config(1), 2);
    first.close();
    const after = PoolState.open(nodePoolSql(path));
    expect(after.load()).toEqual({ renders: [1], runs: [1], waiting: { a: 1, b: 1 } });
    // a joined the line first: its turn comes first.
    expect(after.release(["a-1"], config(1), 3).granted).toEqual([{ kind: "video", jobId: "a-2" }]);
  });
});

describe("renderer pool cost", () => {
  /** Fills the line with `waiting` renders over 50 accounts (one with half of them), all instances busy. */
  function filled(waiting: number, reserve = 0) {
    const sql = nodePoolSql();
    const pool = PoolState.open(sql);
    const cfg = { ...config(8), reserve };
    for (let i = 0; i < 8; i++) pool.acquire(video(`r${i}`, 0), cfg, 0);
    for (let n = 0; n < waiting; n++) pool.acquire(video(n % 2 ? "big" : `acct${n % 49}`, n), cfg, n);
    return { sql, pool, cfg };
  }

  /** Statements per grant: a render ends, the next gets its instance, a new render joins the line. */
  function statementsPerGrant(waiting: number) {
    const { sql, pool, cfg } = filled(waiting);
    let running = Array.from({ length: 8 }, (_, i) => `r${i}-0`);
    const before = sql.statements;
    let grants = 0;
    for (let i = 0; i < 100; i++) {
      const { granted } = pool.release([running[i % 8]], cfg, 1e6 + i);
      grants += granted.length;
      running[i % 8] = granted[0].jobId;
      pool.acquire({ ...granted[0], accountId: "big" }, cfg, 1e6 + i);
      pool.acquire(video("new", i), cfg, 1e6 + i);
    }
    running = [];
    return (sql.statements - before) / grants;
  }

  it("a grant costs the same number of statements with 100 or 20,000 renders waiting", () => {
    const small = statementsPerGrant(100);
    expect(small).toBeLessThan(30);
    // Which statements run depends on the accounts' turns, not on the line's length.
    expect(statementsPerGrant(20_000) / small).toBeLessThan(1.1);
  });

  it("every statement the pool runs is answered by a key or an index: no scan of a table, no sort", () => {
    const { sql, pool, cfg } = filled(50, 1);
    pool.release(["r0-0"], cfg, 1e6);
    pool.release(["acct3-3"], cfg, 1e6);
    pool.jobsToCheck(10);
    pool.acquire({ kind: "avatar", jobId: "av", accountId: "x" }, cfg, 1e6);
    // Two accounts that both render and wait, one free instance: the reserve is counted.
    const reserved = nodePoolSql();
    const both = PoolState.open(reserved);
    const three = { instances: 3, accountCap: 3, reserve: 1 };
    for (const id of ["p-1", "q-1", "p-2", "p-3", "q-2"]) both.acquire(video(id[0], Number(id[2])), three, 0);
    expect(both.release(["p-1"], three, 1).granted).toEqual([]);
    const queries = new Set([...sql.queries, ...reserved.queries]);
    const plans = nodePoolSql();
    PoolState.open(plans);
    for (const query of queries) {
      if (!/^\s*(SELECT|UPDATE|DELETE)/i.test(query) || /pool_leases"?$|FROM pool_leases\s*$/.test(query)) continue;
      const plan = plans
        .exec(`EXPLAIN QUERY PLAN ${query}`, ...Array.from(query.matchAll(/\?/g), () => 0))
        .map((r) => String(r.detail));
      // The sweep reads every lease (a few per instance) on purpose, a bounded subquery's rows are read
      // back; anything else must use an index.
      const scans = plan.filter(
        (d) =>
          (/^SCAN /.test(d) && !/USING (COVERING )?INDEX|pool_leases$|\(subquery-\d+\)$/.test(d)) ||
          /TEMP B-TREE/.test(d),
      );
      expect(scans, `${query}\n${plan.join("\n")}`).toEqual([]);
    }
  });
});
