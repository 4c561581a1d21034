import { and, count, eq, gt } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { Hono } from "hono";
import { avatarJobs, videoJobs } from "../platform/db/schema";
import { limiterFor } from "../accounts/public";
import { type ConsoleEnv, pageChrome } from "./context";
import { errorFlash, field, noticeFrom } from "./notices";
import { PasswordPage } from "./pages/auth-pages";
import { UsagePage } from "./pages/usage";
import { hashPassword, passwordProblem, verifyPassword } from "./password";
import { setPassword } from "./people";
import { startSession } from "./sessions";
import { clientAddress, enterSignIn } from "./sign-in-gate";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Usage and the person's own password. */
export const accountRoutes = new Hono<ConsoleEnv>()
  .get("/usage", async (c) => {
    const { account } = c.get("session");
    const db = drizzle(c.env.DB);
    const since = new Date(Date.now() - DAY_MS);
    const [balance, [avatarsDay], [videosDay]] = await Promise.all([
      limiterFor(c.env, account.id).getBalance(),
      db
        .select({ n: count() })
        .from(avatarJobs)
        .where(and(eq(avatarJobs.accountId, account.id), gt(avatarJobs.createdAt, since))),
      db
        .select({ n: count() })
        .from(videoJobs)
        .where(and(eq(videoJobs.accountId, account.id), gt(videoJobs.createdAt, since))),
    ]);
    const figures = {
      avatarUnits: balance.avatarUnits,
      reservedAvatarUnits: balance.reservedAvatarUnits,
      avatarCreations24h: avatarsDay?.n ?? 0,
      videoCreations24h: videosDay?.n ?? 0,
    };
    return c.html(<UsagePage {...pageChrome(c)} account={account} figures={figures} />);
  })
  .get("/password", (c) => {
    return c.html(<PasswordPage {...pageChrome(c)} flash={noticeFrom(c.req.query("notice"))} />);
  })
  .post("/password", async (c) => {
    const { user } = c.get("session");
    const form = await c.req.parseBody();
    const page = (text: string, status: 400 | 401 | 429) =>
      c.html(<PasswordPage {...pageChrome(c)} flash={errorFlash(text)} />, status);
    // Guessing the current password is throttled like signing in (per failing address, never per person).
    const gate = await enterSignIn(c.env, user.email, clientAddress(c.req));
    if (!gate.ok) {
      c.header("Retry-After", String(gate.retryAfterSeconds));
      return page("Too many attempts. Try again later.", 429);
    }
    if (!(await verifyPassword(field(form, "current"), user.passwordHash)))
      return page("Current password is incorrect.", 401);
    await gate.forgive();
    const problem = passwordProblem(field(form, "password"), field(form, "confirm"));
    if (problem) return page(problem, 400);
    await setPassword(c.env, user.id, await hashPassword(field(form, "password"))); // ends every session, this one too
    await startSession(c, user.id);
    return c.redirect("/console/password?notice=password-changed", 303);
  });
