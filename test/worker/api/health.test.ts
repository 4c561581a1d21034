import { createExecutionContext, env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PROBE_TIMEOUT_MS } from "../../../workers/api/health";
import { app } from "../../../workers/app";
import type { Env } from "../../../workers/platform/env";

const ADMIN = { Authorization: "Bearer test-admin-token" };

interface Part {
  ok: boolean;
  ms: number;
  error?: string;
  [detail: string]: unknown;
}
interface Report {
  status: "ok" | "degraded" | "down";
  parts?: Record<"d1" | "r2" | "queue" | "renderer", Part>;
}

/** GET /health of the Worker with some bindings replaced. */
async function ask(overrides: Partial<Env>, headers: Record<string, string>) {
  const broken = { ...env, ...overrides } as Env;
  const res = await app.fetch(new Request("http://x/health", { headers }), broken, createExecutionContext());
  return { status: res.status, body: (await res.json()) as Report, cache: res.headers.get("Cache-Control") };
}

/** The public answer and the operator's. */
const health = async (overrides: Partial<Env> = {}) => ({
  public: await ask(overrides, {}),
  admin: await ask(overrides, ADMIN),
});

const failing = (message: string) => () => Promise.reject(new Error(message));

describe("GET /health", () => {
  it("all parts working: 200 ok; the public sees only the status, the admin token each part", async () => {
    const res = await SELF.fetch("http://x/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("Cache-Control")).toBe("no-store");

    const { admin } = await health();
    expect(admin.status).toBe(200);
    expect(admin.body.status).toBe("ok");
    const parts = admin.body.parts!;
    for (const name of ["d1", "r2", "queue", "renderer"] as const) expect(parts[name].ok, name).toBe(true);
    expect(parts.queue.checked).toBe("binding");
    expect(parts.renderer).toMatchObject({ instances: 1, reachable: 1, running: 0, waiting: 0 });
  });

  it("a wrong token gets the public answer, not the parts", async () => {
    const res = await SELF.fetch("http://x/health", { headers: { Authorization: "Bearer not-the-token" } });
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("D1 failing: 503 down, the error only for the admin", async () => {
    const DB = { prepare: () => ({ first: failing("D1_ERROR: no such database") }) } as unknown as D1Database;
    const { public: pub, admin } = await health({ DB });
    expect(pub).toEqual({ status: 503, body: { status: "down" }, cache: "no-store" });
    expect(admin.status).toBe(503);
    expect(admin.body.parts!.d1).toMatchObject({ ok: false, error: "D1_ERROR: no such database" });
    expect(admin.body.parts!.r2.ok).toBe(true);
  });

  it("R2 failing: 200 degraded", async () => {
    const MEDIA = { head: failing("R2 internal error") } as unknown as R2Bucket;
    const { public: pub, admin } = await health({ MEDIA });
    expect(pub).toEqual({ status: 200, body: { status: "degraded" }, cache: "no-store" });
    expect(admin.body.parts!.r2).toMatchObject({ ok: false, error: "R2 internal error" });
    expect(admin.body.parts!.d1.ok).toBe(true);
  });

  it("no queue binding: degraded, and nothing is sent to probe it", async () => {
    const { admin } = await health({ JOBS: undefined as unknown as Queue });
    expect(admin.body.status).toBe("degraded");
    expect(admin.body.parts!.queue).toMatchObject({ ok: false, error: "the JOBS queue binding is missing" });

    const sent: unknown[] = [];
    const JOBS = { send: async (m: unknown) => sent.push(m), sendBatch: async (m: unknown) => sent.push(m) };
    expect((await health({ JOBS: JOBS as unknown as Queue })).admin.body.status).toBe("ok");
    expect(sent).toEqual([]);
  });

  it("a renderer unreachable: degraded, with how many answered", async () => {
    const one = await health({ RENDERER_URL: "http://stub-renderer.test,http://renderer-gone.test" });
    expect(one.public.body).toEqual({ status: "degraded" });
    expect(one.admin.body.parts!.renderer).toMatchObject({ ok: false, instances: 2, reachable: 1 });

    const none = await health({ RENDERER_URL: "http://renderer-gone.test" });
    expect(none.public).toEqual({ status: 200, body: { status: "degraded" }, cache: "no-store" });
    expect(none.admin.body.parts!.renderer).toMatchObject({ ok: false, instances: 1, reachable: 0 });
  });

  it("a renderer address refused outside development: degraded, the reason for the admin", async () => {
    const { admin } = await health({ ENVIRONMENT: undefined, RENDERER_URL: "http://127.0.0.1:8790" });
    expect(admin.body.status).toBe("degraded");
    expect(admin.body.parts!.renderer.error).toMatch(/RENDERER_URL http:\/\/127.0.0.1:8790 is a loopback address/);
  });

  it("reports the pool's renders running and waiting", async () => {
    const pool = env.RENDERER_POOL.getByName("renderers"); // the one the Worker uses
    const config = { instances: 1, accountCap: 1 };
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    await pool.acquire({ kind: "video", jobId: a, accountId: "acc-health" }, config, Date.now());
    await pool.acquire({ kind: "video", jobId: b, accountId: "acc-health" }, config, Date.now());
    try {
      const { admin } = await health();
      expect(admin.body.parts!.renderer).toMatchObject({ ok: true, running: 1, waiting: 1 });
    } finally {
      await pool.release([a, b], config, Date.now());
    }
  });

  it("a part that never answers is cut off at the deadline: the answer still comes", async () => {
    const DB = { prepare: () => ({ first: () => new Promise(() => {}) }) } as unknown as D1Database;
    const started = Date.now();
    const admin = await ask({ DB }, ADMIN);
    expect(Date.now() - started).toBeLessThan(PROBE_TIMEOUT_MS + 1_000);
    expect(admin.status).toBe(503);
    expect(admin.body.parts!.d1).toMatchObject({ ok: false, error: `no answer within ${PROBE_TIMEOUT_MS} ms` });
  });

  it("GET /health/live answers without asking any binding", async () => {
    const DB = { prepare: failing("D1 is gone") } as unknown as D1Database;
    const res = await app.fetch(new Request("http://x/health/live"), { ...env, DB } as Env, createExecutionContext());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});
