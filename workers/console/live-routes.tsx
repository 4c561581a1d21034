import { desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { livePageHtml } from "../motion/public";
import { OPEN_API_ACCESS_MESSAGE } from "../platform/auth/access";
import { workerConfig } from "../platform/config";
import { avatars } from "../platform/db/schema";
import { publicBaseUrl } from "../platform/http/base-url";
import { apiError, forbidden } from "../platform/http/errors";
import { pageSecurityHeaders } from "../platform/http/page-headers";
import { personSubject } from "../platform/session-token/claims";
import { issueSessionToken } from "../platform/session-token/issue";
import { avatarCoverUrl } from "../platform/storage/links";
import { asAppContext, type ConsoleEnv, pageChrome } from "./context";

/** A token from the live page opens the one connection it is asked for, within a minute. */
const LIVE_TOKEN_SECONDS = 60;

/**
 * /console/live for a signed-in person (docs/motion.md, "The live page"): the page, and session tokens minted
 * from the console session — the page never asks for an API key. The page alone may use the microphone, and
 * its AudioWorklet is a blob: script.
 */
export const liveRoutes = new Hono<ConsoleEnv>()
  .use("/live", pageSecurityHeaders({ scriptSrc: "'self' blob:", microphone: true }))
  .get("/live", (c) => {
    const { csrf, email, accountName } = pageChrome(c);
    return c.html(livePageHtml({ csrf, email, accountName }));
  })
  .post("/live/token", async (c) => {
    const { user, account } = c.get("session");
    if (!account.openApiAccess) throw forbidden(OPEN_API_ACCESS_MESSAGE);
    if (!(await c.env.SESSION_TOKEN_RATE.limit({ key: account.id })).success)
      throw apiError("rate_limit_exceeded", "At most 60 session tokens per minute per account; retry later.", {
        headers: { "Retry-After": "60" },
      });
    const now = Date.now();
    const expireAt = Math.floor(now / 1000) + LIVE_TOKEN_SECONDS;
    const sessionToken = await issueSessionToken(c.env.SESSION_TOKEN_PRIVATE_KEY, {
      appId: personSubject(user.id),
      accountId: account.id,
      region: workerConfig(c.env).REGION,
      expireAt,
      now,
    });
    const rows = await drizzle(c.env.DB)
      .select()
      .from(avatars)
      .where(eq(avatars.accountId, account.id))
      .orderBy(desc(avatars.createdAt))
      .limit(50)
      .all();
    const base = publicBaseUrl(asAppContext(c));
    const preview = { accountId: account.id, use: "preview" } as const;
    return c.json({
      sessionToken,
      expireAt,
      avatars: rows.map((a) => ({ id: a.id, name: a.name, coverUrl: avatarCoverUrl(c.env, base, a, preview) })),
    });
  });
