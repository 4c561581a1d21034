import { desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { adminAudit } from "../../platform/db/schema";
import type { AppEnv, Env } from "../../platform/env";
import { logEvent } from "../../platform/logging/log-event";

/**
 * The admin audit trail (docs/admin-api.md, "Audit trail"): every admin write that succeeds leaves one row in
 * `admin_audit` — who (`adminActor`), what (method and route), when, the account and object it touched and
 * their state before and after, as the route notes them with `noteAudit`. Routes note only what is safe to
 * keep: never an API key, an invite token or link, a password or a hash.
 */
export interface AuditNote {
  accountId?: string | null;
  target?: string | null;
  before?: unknown;
  after?: unknown;
}

declare module "hono" {
  interface ContextVariableMap {
    auditNote?: AuditNote;
  }
}

/** What a write changed, for its audit entry (call before answering; repeated calls merge). */
export function noteAudit(c: Context<AppEnv>, note: AuditNote): void {
  c.set("auditNote", { ...c.get("auditNote"), ...note });
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** After every successful admin write: its row (a write no route noted is still recorded, without detail). */
export const auditTrail = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!WRITES.has(c.req.method) || c.res.status >= 400) return;
  const route = c.req.matchedRoutes.findLast((r) => r.method !== "ALL")?.path ?? c.req.path;
  const note = c.get("auditNote") ?? {};
  try {
    await drizzle(c.env.DB)
      .insert(adminAudit)
      .values({
        id: crypto.randomUUID(),
        at: new Date(),
        actor: c.get("adminActor") ?? "admin token",
        action: `${c.req.method} ${route.replace(/^\/v1\/admin/, "")}`,
        accountId: note.accountId ?? null,
        target: note.target ?? null,
        before: note.before ?? null,
        after: note.after ?? null,
        requestId: c.get("requestId"),
      });
  } catch (error) {
    // The change is made; losing its record is an operator alarm, not the caller's failure.
    logEvent("admin_audit_failed", { requestId: c.get("requestId"), error }, "error");
  }
});

/** The newest entries first, of one account or all. */
export async function listAudit(env: Env, accountId: string | undefined, limit: number) {
  const db = drizzle(env.DB);
  const rows = await db
    .select()
    .from(adminAudit)
    .where(accountId ? eq(adminAudit.accountId, accountId.toLowerCase()) : undefined)
    .orderBy(desc(adminAudit.at), desc(adminAudit.id))
    .limit(limit)
    .all();
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}
