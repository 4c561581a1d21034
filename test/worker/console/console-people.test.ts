import { describe, expect, it } from "vitest";
import { adminFetch, createAccount } from "../helpers/accounts";
import { ConsoleClient, invite, PASSWORD, signedIn } from "../helpers/console";
import type { Envelope } from "../helpers/open-fixtures";

// People can be removed, invites revoked, sessions ended; roles owner | member (docs/console.md, "People and roles").

type Person = { id: string; email: string; role: string };
async function people(accountId: string) {
  const res = await adminFetch(`/accounts/${accountId}/console-users`);
  expect(res.status).toBe(200);
  return (await res.json()) as { people: Person[]; invites: { email: string; role: string | null }[] };
}
const idOf = async (accountId: string, email: string) =>
  (await people(accountId)).people.find((p) => p.email === email)!.id;

async function signIn(email: string, password = PASSWORD) {
  const c = new ConsoleClient();
  await c.page("/console/sign-in");
  const res = await c.fetch("/console/sign-in", {
    form: { email, password },
    headers: { "CF-Connecting-IP": `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
  });
  return { client: c, res };
}

describe("roles", () => {
  it("the account's first person is its owner, later ones members unless the invite names owner", async () => {
    const a = await createAccount();
    const first = await signedIn(a.accountId, undefined, undefined, "member");
    const second = await signedIn(a.accountId);
    const third = await signedIn(a.accountId, undefined, undefined, "owner");
    const roles = Object.fromEntries((await people(a.accountId)).people.map((p) => [p.email, p.role]));
    expect(roles).toEqual({ [first.email]: "owner", [second.email]: "member", [third.email]: "owner" });
  });

  it("a member cannot create, rotate or disable keys (403) and the console shows none of it", async () => {
    const a = await createAccount();
    const owner = await signedIn(a.accountId);
    const { client: member } = await signedIn(a.accountId);
    const { html } = await member.page("/console/apps");
    expect(html).toContain(a.appId);
    expect(html).not.toContain('action="/console/apps"');
    expect(html).not.toContain("/rotate");
    expect(html).not.toContain("/disable");
    expect(html).not.toContain('href="/console/people"');
    for (const path of ["/console/apps", `/console/apps/${a.appId}/rotate`, `/console/apps/${a.appId}/disable`]) {
      const res = await member.fetch(path, { form: { name: "x" } });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as Envelope).error.message).toContain("Only an owner");
    }
    expect((await member.fetch("/console/people")).status).toBe(403);
    expect(
      (await member.fetch("/console/people/invite", { form: { email: "x@example.com", role: "owner" } })).status,
    ).toBe(403);
    // The App still works, and an owner sees and may use every control.
    const ownerPage = (await owner.client.page("/console/apps")).html;
    expect(ownerPage).toContain(`/console/apps/${a.appId}/rotate`);
    expect(ownerPage).toContain('href="/console/people"');
    expect((await owner.client.fetch(`/console/apps/${a.appId}/rotate`, { form: {} })).status).toBe(303);
  });
});

describe("removing people", () => {
  it("admin remove: the person's cookie stops working at the next request and the password no longer signs in", async () => {
    const a = await createAccount();
    const { client, email } = await signedIn(a.accountId);
    expect((await client.fetch("/console/avatars")).status).toBe(200);
    const res = await adminFetch(`/console-users/${await idOf(a.accountId, email)}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ removed: { email }, sessionsEnded: 1 });
    const page = await client.fetch("/console/avatars");
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/console/sign-in");
    expect((await client.fetch("/console/api/video-jobs")).status).toBe(401);
    expect((await signIn(email)).res.status).toBe(401);
    expect((await people(a.accountId)).people.map((p) => p.email)).not.toContain(email);
  });

  it("end all sessions of a person: every cookie fails, the password still works", async () => {
    const a = await createAccount();
    const { client, email } = await signedIn(a.accountId);
    const other = (await signIn(email)).client;
    const res = await adminFetch(`/console-users/${await idOf(a.accountId, email)}/sessions`, { method: "DELETE" });
    expect(await res.json()).toEqual({ sessionsEnded: 2 });
    for (const c of [client, other]) expect((await c.fetch("/console/avatars")).status).toBe(303);
    expect((await signIn(email)).res.status).toBe(303);
  });

  it("revoked invites no longer open; the list shows the pending ones with their role", async () => {
    const a = await createAccount();
    const path = await invite(a.accountId, "newcomer@example.com", "owner");
    await invite(a.accountId, "other@example.com");
    expect((await people(a.accountId)).invites).toEqual([
      expect.objectContaining({ email: "newcomer@example.com", role: "owner" }),
      expect.objectContaining({ email: "other@example.com", role: null }),
    ]);
    const revoked = await adminFetch(`/accounts/${a.accountId}/console-invites?email=newcomer@example.com`, {
      method: "DELETE",
    });
    expect(await revoked.json()).toEqual({ revoked: 1 });
    expect((await new ConsoleClient().fetch(path)).status).toBe(404);
    expect((await people(a.accountId)).invites.map((i) => i.email)).toEqual(["other@example.com"]);
  });

  it("an owner invites, removes people and revokes invites in the console; not themselves", async () => {
    const a = await createAccount();
    const owner = await signedIn(a.accountId);
    const member = await signedIn(a.accountId);
    await owner.client.page("/console/people");
    const invited = await owner.client.fetch("/console/people/invite", {
      form: { email: "Later@Example.com", role: "member" },
    });
    expect(invited.status).toBe(200);
    expect(await invited.text()).toMatch(/\/console\/invite\/[A-Za-z0-9_-]{43}/);
    const bad = await owner.client.fetch("/console/people/invite", { form: { email: "x@example.com", role: "admin" } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("role must be one of owner, member");
    expect(
      (await owner.client.fetch("/console/people/invites/revoke", { form: { email: "later@example.com" } })).status,
    ).toBe(303);
    expect((await people(a.accountId)).invites).toEqual([]);

    const memberId = await idOf(a.accountId, member.email);
    expect((await owner.client.fetch(`/console/people/${memberId}/remove`, { form: {} })).status).toBe(303);
    expect((await member.client.fetch("/console/avatars")).status).toBe(303);
    const self = await owner.client.fetch(`/console/people/${await idOf(a.accountId, owner.email)}/remove`, {
      form: {},
    });
    expect(self.status).toBe(400);
    // Another account's person is not found.
    const b = await createAccount();
    const stranger = await signedIn(b.accountId);
    expect(
      (await owner.client.fetch(`/console/people/${await idOf(b.accountId, stranger.email)}/remove`, { form: {} }))
        .status,
    ).toBe(404);
  });

  it("admin role change: a member made owner may rotate keys", async () => {
    const a = await createAccount();
    await signedIn(a.accountId);
    const { client, email } = await signedIn(a.accountId);
    await client.page("/console/apps");
    expect((await client.fetch(`/console/apps/${a.appId}/rotate`, { form: {} })).status).toBe(403);
    const res = await adminFetch(`/console-users/${await idOf(a.accountId, email)}`, {
      method: "PATCH",
      body: { role: "owner" },
    });
    expect(((await res.json()) as { person: Person }).person.role).toBe("owner");
    expect((await client.fetch(`/console/apps/${a.appId}/rotate`, { form: {} })).status).toBe(303);
    const bad = await adminFetch(`/console-users/${await idOf(a.accountId, email)}`, {
      method: "PATCH",
      body: { role: "root" },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Envelope).error.message).toContain("role must be one of owner, member");
  });
});
