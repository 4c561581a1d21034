import { createRoute, z } from "@hono/zod-openapi";
import { openApiApp } from "../../platform/http/openapi-app";
import { okJson } from "../../platform/http/route-parts";
import { viewRendererPool } from "../../pipeline/public";
import { ADMIN_AUTH, ADMIN_ERRORS, ADMIN_TAG } from "./parts";

const seconds = (ms: number | null) => (ms === null ? null : Math.max(0, Math.floor(ms / 1000)));

const RendererPool = z.object({
  now: z.string(),
  instances: z.number().int(),
  /** Instances one account may hold while other accounts wait (alone it may use all). */
  accountCap: z.number().int(),
  /** Free instances kept, while several accounts wait, for accounts with nothing running. */
  reserve: z.number().int(),
  leases: z.array(
    z.object({
      instance: z.number().int(),
      kind: z.enum(["avatar", "video"]),
      jobId: z.string(),
      accountId: z.string(),
      heldSeconds: z.number().int(),
    }),
  ),
  accounts: z.array(
    z.object({
      accountId: z.string(),
      running: z.number().int(),
      waiting: z.number().int(),
      oldestWaitSeconds: z.number().int().nullable(),
    }),
  ),
  waiting: z.number().int(),
  accountsWaiting: z.number().int(),
  oldestWaitSeconds: z.number().int().nullable(),
});

const route = createRoute({
  method: "get",
  path: "/renderer-pool",
  operationId: "adminGetRendererPool",
  tags: ADMIN_TAG,
  security: ADMIN_AUTH,
  summary: "The renderer pool: instances, who holds them, the line per account and its oldest wait",
  responses: {
    200: okJson(
      "Leases of every instance; the 100 accounts with the longest lines; totals over the whole line",
      RendererPool,
    ),
    ...ADMIN_ERRORS,
  },
});

/** GET /v1/admin/renderer-pool (admin token required). `npm run admin -- pool`. */
export const getRendererPoolRoute = openApiApp().openapi(route, async (c) => {
  const now = Date.now();
  const view = await viewRendererPool(c.env, now);
  return c.json(
    {
      now: new Date(now).toISOString(),
      instances: view.instances,
      accountCap: view.accountCap,
      reserve: view.reserve,
      leases: view.leases.map(({ heldMs, ...l }) => ({ ...l, heldSeconds: seconds(heldMs) ?? 0 })),
      accounts: view.accounts.map(({ oldestWaitMs, ...a }) => ({ ...a, oldestWaitSeconds: seconds(oldestWaitMs) })),
      waiting: view.waiting,
      accountsWaiting: view.accountsWaiting,
      oldestWaitSeconds: seconds(view.oldestWaitMs),
    },
    200,
  );
});
