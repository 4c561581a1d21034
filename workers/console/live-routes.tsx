import { Hono } from "hono";
import { livePageHtml, liveSession } from "../motion/public";
import { OPEN_API_ACCESS_MESSAGE } from "../platform/auth/access";
import { publicBaseUrl } from "../platform/http/base-url";
import { forbidden } from "../platform/http/errors";
import { pageSecurityHeaders } from "../platform/http/page-headers";
import { personSubject } from "../platform/session-token/claims";
import { meterSessionToken } from "../platform/session-token/rate";
import { asAppContext, type ConsoleEnv, pageChrome } from "./context";

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
    await meterSessionToken(c.env, account.id);
    return c.json(await liveSession(c.env, publicBaseUrl(asAppContext(c)), personSubject(user.id), account.id));
  });
