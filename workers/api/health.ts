import { Hono } from "hono";
import { rendererHealth } from "../pipeline/public";
import { hasAdminToken } from "../platform/auth/admin-auth";
import type { AppEnv, Env } from "../platform/env";

/**
 * GET /health (docs/operations.md, "Health"): D1, R2, the jobs queue's binding and the renderers, each probed
 * at once and given PROBE_TIMEOUT_MS, so the answer never waits on a hung dependency. Everyone sees the
 * overall status; the parts (timings, counts, errors) only with the admin token.
 */

/** Each part's deadline: the whole answer comes within about this long. */
export const PROBE_TIMEOUT_MS = 2_000;
/** A renderer's own GET /health gets less, so its timeout lands before the part's. */
const RENDERER_TIMEOUT_MS = 1_500;
/** The R2 probe reads the metadata of this key (absent: a null answer is a working bucket). */
const R2_PROBE_KEY = "health/probe";

export type HealthStatus = "ok" | "degraded" | "down";
export type PartReport = { ok: boolean; ms: number; error?: string } & Record<string, unknown>;

/** A part's details for operators; `ok: false` when it answered but not well, a throw when it failed. */
type Probe = (env: Env) => Promise<{ ok: boolean }>;

const PROBES = {
  d1: async (env) => {
    await env.DB.prepare("SELECT 1").first();
    return { ok: true };
  },
  r2: async (env) => {
    await env.MEDIA.head(R2_PROBE_KEY);
    return { ok: true };
  },
  // Sending is not probed: any message would be a job message the consumer has to read. The binding is
  // what the Worker controls; a queue that stops delivering shows as jobs waiting (GET /v1/admin/jobs/active).
  queue: async (env) => {
    const sendable = typeof env.JOBS?.send === "function" && typeof env.JOBS.sendBatch === "function";
    if (!sendable) throw new Error("the JOBS queue binding is missing");
    return { ok: true, checked: "binding" };
  },
  renderer: (env) => rendererHealth(env, RENDERER_TIMEOUT_MS),
} satisfies Record<string, Probe>;

export type PartName = keyof typeof PROBES;

async function probe(run: Probe, env: Env): Promise<PartReport> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    const { ok, ...detail } = await Promise.race([run(env), deadline]);
    return { ok, ms: Date.now() - started, ...detail };
  } catch (error) {
    return { ok: false, ms: Date.now() - started, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Down without D1 (every API call reads it); degraded when another part fails (the API still answers). */
export function overallStatus(parts: Record<PartName, PartReport>): HealthStatus {
  if (!parts.d1.ok) return "down";
  return Object.values(parts).every((p) => p.ok) ? "ok" : "degraded";
}

export async function checkHealth(env: Env): Promise<{ status: HealthStatus; parts: Record<PartName, PartReport> }> {
  const names = Object.keys(PROBES) as PartName[];
  const reports = await Promise.all(names.map((name) => probe(PROBES[name], env)));
  const parts = Object.fromEntries(names.map((name, i) => [name, reports[i]])) as Record<PartName, PartReport>;
  return { status: overallStatus(parts), parts };
}

export const healthRoutes = new Hono<AppEnv>();

healthRoutes.get("/", async (c) => {
  const { status, parts } = await checkHealth(c.env);
  c.header("Cache-Control", "no-store");
  const body = (await hasAdminToken(c)) ? { status, parts } : { status };
  return c.json(body, status === "down" ? 503 : 200);
});

// The Worker answers, nothing behind it asked: the floor of any request (benchmarks, the local stack's wait).
healthRoutes.get("/live", (c) => c.json({ status: "ok" }));
