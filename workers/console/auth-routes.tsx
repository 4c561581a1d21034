import { Hono } from "hono";
import type { ConsoleEnv } from "./context";
import { checkCsrf, preSessionCsrf } from "./csrf";
import { InviteInvalidPage, InvitePage, SignInPage } from "./pages/auth-pages";
import { passwordProblem, verifyPassword } from "./password";
import { findUserByEmail } from "../accounts/public";
import { acceptInvite, findInvite } from "./people";
import { currentSession, endSession, startSession } from "./sessions";
import { clientAddress, enterSignIn } from "./sign-in-gate";

/** The same answer for an unknown email and a wrong password. */
const SIGN_IN_FAILED = "Email or password is incorrect.";
const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Signed-out routes: sign-in, invite acceptance, sign-out. */
export const authRoutes = new Hono<ConsoleEnv>()
  .get("/sign-in", async (c) => {
    if (await currentSession(c)) return c.redirect("/console/avatars", 303);
    return c.html(<SignInPage csrf={await preSessionCsrf(c)} />);
  })
  .post("/sign-in", async (c) => {
    await checkCsrf(c, null);
    const body = await c.req.parseBody();
    const email = str(body.email).trim().toLowerCase().slice(0, 254);
    const password = str(body.password);
    const csrf = await preSessionCsrf(c);
    const gate = await enterSignIn(c.env, email, clientAddress(c.req));
    if (!gate.ok) {
      const minutes = Math.ceil(gate.retryAfterSeconds / 60);
      c.header("Retry-After", String(gate.retryAfterSeconds));
      const text = `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
      return c.html(<SignInPage csrf={csrf} email={email} flash={{ kind: "error", text }} />, 429);
    }
    const user = email ? await findUserByEmail(c.env, email) : undefined;
    // verifyPassword does the full PBKDF2 work even without a user, so timing does not reveal the email.
    const ok = (await verifyPassword(password, user?.passwordHash)) && !!user;
    if (!ok)
      return c.html(<SignInPage csrf={csrf} email={email} flash={{ kind: "error", text: SIGN_IN_FAILED }} />, 401);
    await gate.forgive();
    await startSession(c, user.id);
    return c.redirect("/console/avatars", 303);
  })
  .post("/sign-out", async (c) => {
    const session = await currentSession(c);
    if (session) {
      await checkCsrf(c, session.id);
      await endSession(c, session.id);
    }
    return c.redirect("/console/sign-in", 303);
  })
  .get("/invite/:token", async (c) => {
    const csrf = await preSessionCsrf(c);
    const token = c.req.param("token");
    const invite = await findInvite(c.env, token);
    if (!invite) return c.html(<InviteInvalidPage csrf={csrf} />, 404);
    return c.html(<InvitePage csrf={csrf} token={token} email={invite.email} />);
  })
  .post("/invite/:token", async (c) => {
    await checkCsrf(c, null);
    const csrf = await preSessionCsrf(c);
    const token = c.req.param("token");
    const invite = await findInvite(c.env, token);
    if (!invite) return c.html(<InviteInvalidPage csrf={csrf} />, 404);
    const body = await c.req.parseBody();
    const problem = passwordProblem(str(body.password), str(body.confirm));
    if (problem)
      return c.html(
        <InvitePage csrf={csrf} token={token} email={invite.email} flash={{ kind: "error", text: problem }} />,
        400,
      );
    const user = await acceptInvite(c.env, token, str(body.password));
    if (!user) return c.html(<InviteInvalidPage csrf={csrf} />, 404);
    await startSession(c, user.id);
    return c.redirect("/console/avatars?notice=welcome", 303);
  });
