import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { restartDelay, type Supervisor, supervise } from "../../scripts/lib/supervisor";

// The local stack's renderer supervisor (scripts/lib/supervisor.ts) with real child processes.

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const node = (code: string) => () => spawn(process.execPath, ["-e", code], { detached: true, stdio: "ignore" });
const forever = node("setInterval(() => {}, 1000)");

let current: Supervisor | undefined;
afterEach(async () => {
  await current?.stop(1000);
  current = undefined;
});

describe("renderer supervisor", () => {
  it("restarts a child killed with SIGKILL within 5 s and logs one line per restart", async () => {
    const lines: string[] = [];
    const sup = (current = supervise({ name: "renderer", spawn: forever, log: (l) => lines.push(l) }));
    const first = sup.pid!;
    expect(alive(first)).toBe(true);
    for (let i = 1; i <= 2; i++) {
      const before = sup.pid!;
      const next = sup.nextStart();
      const killedAt = Date.now();
      process.kill(before, "SIGKILL"); // the pid alone, as an operator would
      const pid = await next;
      expect(Date.now() - killedAt).toBeLessThan(5_000);
      expect(pid).not.toBe(before);
      expect(alive(pid)).toBe(true);
      expect(sup.restarts).toBe(i);
    }
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[supervisor\] renderer exited \(SIGKILL\) after \d+\.\d s; restart 1 in \d+\.\d s$/);
  });

  it("restarts after a crash (non-zero exit) and after an out-of-memory style abort", async () => {
    const lines: string[] = [];
    let n = 0;
    // First child exits with code 3, the second aborts (SIGABRT, as V8 does when the heap is exhausted), then it stays up.
    const spawnNext = () =>
      node(["process.exit(3)", "process.abort()", "setInterval(() => {}, 1000)"][Math.min(n++, 2)])();
    const sup = (current = supervise({
      name: "renderer",
      spawn: spawnNext,
      log: (l) => lines.push(l),
      restartDelayMs: 50,
    }));
    for (let i = 0; i < 100 && sup.restarts < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(sup.restarts).toBe(2);
    expect(lines[0]).toContain("(code 3)");
    expect(lines[1]).toContain("(SIGABRT)");
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(sup.pid!)).toBe(true);
  });

  it("backs off when the child keeps dying, and resets the delay once a child stayed up", async () => {
    expect([0, 1, 2, 3, 10].map((q) => restartDelay(q, 500, 30_000))).toEqual([500, 1000, 2000, 4000, 30_000]);
    const starts: number[] = [];
    const sup = (current = supervise({
      name: "crasher",
      spawn: () => (starts.push(Date.now()), node("process.exit(1)")()),
      restartDelayMs: 40,
      minUptimeMs: 5_000,
      maxDelayMs: 10_000,
    }));
    for (let i = 0; i < 200 && starts.length < 5; i++) await new Promise((r) => setTimeout(r, 25));
    const gaps = starts.slice(1, 5).map((t, i) => t - starts[i]);
    // Each gap is the child's short life plus a delay that doubles: 80, 160, 320, 640 ms.
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1]);
    expect(gaps[3]).toBeGreaterThanOrEqual(640);
    await sup.stop();
    const after = starts.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(starts.length).toBe(after); // stopped: no more restarts

    // A child that lived longer than minUptimeMs resets the delay to the base.
    const lines: string[] = [];
    const steady = (current = supervise({
      name: "steady",
      spawn: node("setTimeout(() => process.exit(1), 300)"),
      log: (l) => lines.push(l),
      restartDelayMs: 40,
      minUptimeMs: 100,
    }));
    for (let i = 0; i < 200 && steady.restarts < 3; i++) await new Promise((r) => setTimeout(r, 25));
    expect(lines.slice(0, 3).every((l) => l.endsWith("in 0.0 s"))).toBe(true);
  });

  it("stop() ends the child and does not restart it", async () => {
    const lines: string[] = [];
    const sup = supervise({ name: "renderer", spawn: forever, log: (l) => lines.push(l) });
    const pid = sup.pid!;
    await sup.stop();
    expect(alive(pid)).toBe(false);
    await new Promise((r) => setTimeout(r, 700));
    expect(sup.pid).toBeUndefined();
    expect(lines).toEqual([]);
  });
});
