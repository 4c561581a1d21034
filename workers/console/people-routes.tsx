import { Hono } from "hono";
import type { Context } from "hono";
import { createInvite, findPerson, listPeople, parseRole, removePerson, revokeInvites } from "../accounts/public";
import { ApiError, notFound } from "../platform/http/errors";
import { publicBaseUrl } from "../platform/http/base-url";
import { asAppContext, type ConsoleEnv, pageChrome } from "./context";
import { errorFlash, field, noticeFrom } from "./notices";
import type { Flash } from "./pages/layout";
import { PeoplePage } from "./pages/people";
import { assertOwner } from "./roles";

async function renderPeople(
  c: Context<ConsoleEnv>,
  flash: Flash | null,
  inviteUrl?: string,
  status: 200 | 400 | 409 = 200,
) {
  const { user, account } = c.get("session");
  const { people, invites } = await listPeople(c.env, account.id);
  return c.html(
    <PeoplePage
      {...pageChrome(c)}
      flash={flash}
      selfId={user.id}
      people={people}
      invites={invites}
      inviteUrl={inviteUrl}
    />,
    status,
  );
}

/** People and invites of the account, for its owners (members: 403, and no link to this page). */
export const peopleRoutes = new Hono<ConsoleEnv>()
  .use("/people/*", async (c, next) => {
    assertOwner(c);
    await next();
  })
  .use("/people", async (c, next) => {
    assertOwner(c);
    await next();
  })
  .get("/people", (c) => renderPeople(c, noticeFrom(c.req.query("notice"))))
  .post("/people/invite", async (c) => {
    const form = await c.req.parseBody();
    try {
      const role = parseRole(field(form, "role"));
      const invite = await createInvite(c.env, c.get("session").account.id, field(form, "email"), role);
      const url = `${publicBaseUrl(asAppContext(c))}/console/invite/${invite.token}`;
      return renderPeople(c, { kind: "notice", text: `Invite for ${invite.email} (${role}) created.` }, url);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 400 || err.status === 409))
        return renderPeople(c, errorFlash(err.message), undefined, err.status);
      throw err;
    }
  })
  .post("/people/invites/revoke", async (c) => {
    const email = field(await c.req.parseBody(), "email");
    await revokeInvites(c.env, c.get("session").account.id, email);
    return c.redirect("/console/people?notice=invite-revoked", 303);
  })
  .post("/people/:userId/remove", async (c) => {
    const { user, account } = c.get("session");
    const userId = c.req.param("userId");
    const person = /^[0-9a-f-]{36}$/.test(userId) ? await findPerson(c.env, userId) : undefined;
    if (!person || person.accountId !== account.id) throw notFound(`Person ${userId.slice(0, 36)} was not found`);
    if (person.id === user.id)
      return renderPeople(
        c,
        errorFlash("You cannot remove yourself: ask another owner or an operator."),
        undefined,
        400,
      );
    await removePerson(c.env, person.id);
    return c.redirect("/console/people?notice=person-removed", 303);
  });
