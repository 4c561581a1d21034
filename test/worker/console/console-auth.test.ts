import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleSessions, consoleUsers } from "../../../workers/platform/db/schema";
import { hashPassword, PBKDF2_ITERATIONS, passwordProblem, verifyPassword } from "../../../workers/console/password";
import { createAccount } from "../helpers/accounts";
import { ConsoleClient, invite, PASSWORD, signedIn } from "../helpers/console";
import { db, type Envelope } from "../helpers/open-fixtures";

describe("console invite and sign-in", () => {
  it("an invite link shows Password / Confirm password / Set password, signs the person in and lands on Avatars", async () => {
    const a = await createAccount();
    const client = new ConsoleClient();
    const path = await invite(a.accountId, "Ada@Example.com");
    expect(path).toMatch(/^\/console\/invite\/[A-Za-z0-9_-]{43}$/);
    const { html } = await client.page(path);
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<label for="confirm">Confirm password</label>');
    expect(html).toContain(">Set password</button>");
    const res = await client.fetch(path, { form: { password: PASSWORD, confirm: PASSWORD } });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toMatch(/^\/console\/avatars/);
    const page = await client.page("/console/avatars");
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("<h1>Avatars</h1>");
    expect(page.html).toContain(">Sign out</button>");
  });

  it("an invite works once and not after 24 h", async () => {
    const a = await createAccount();
    const path = await invite(a.accountId, "once@example.com");
    const first = new ConsoleClient();
    await first.page(path);
    expect((await first.fetch(path, { form: { password: PASSWORD, confirm: PASSWORD } })).status).toBe(303);
    const second = new ConsoleClient();
    const again = await second.page(path);
    expect(again.res.status).toBe(404);
    expect(again.html).toContain("Invite link not valid");

    const late = await invite(a.accountId, "late@example.com");
    await env.DB.prepare("update console_invites set expires_at = ? where email = ?")
      .bind(Date.now() - 1, "late@example.com")
      .run();
    expect((await new ConsoleClient().page(late)).res.status).toBe(404);
  });

  it("admin invite route: needs the admin token, checks the email, one email per account", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const { adminFetch } = await import("../helpers/accounts");
    expect(
      (
        await adminFetch(`/accounts/${a.accountId}/console-invites`, {
          body: { email: "x@example.com" },
          headers: { Authorization: "Bearer nope" },
        })
      ).status,
    ).toBe(401);
    const bad = await adminFetch(`/accounts/${a.accountId}/console-invites`, { body: { email: "not-an-email" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Envelope).error.message).toContain("email must be an email address");
    expect(
      (await adminFetch(`/accounts/${crypto.randomUUID()}/console-invites`, { body: { email: "x@example.com" } }))
        .status,
    ).toBe(404);
    await signedIn(a.accountId, "shared@example.com");
    const taken = await adminFetch(`/accounts/${b.accountId}/console-invites`, {
      body: { email: "Shared@example.com" },
    });
    expect(taken.status).toBe(409);
    const ok = await adminFetch(`/accounts/${a.accountId}/console-invites`, { body: { email: "shared@example.com" } });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { invite: unknown }).invite).toMatchObject({
      accountId: a.accountId,
      email: "shared@example.com",
    });
  });

  it("password rules: at least 12 characters and matching confirmation, named in the message", async () => {
    expect(passwordProblem("short")).toMatch(/Password must be at least 12 characters/);
    expect(passwordProblem("a".repeat(12), "b".repeat(12))).toMatch(/Confirm password must match Password/);
    expect(passwordProblem(" ".repeat(12))).toMatch(/only spaces/);
    expect(passwordProblem("twelve chars")).toBeNull();
    const a = await createAccount();
    const client = new ConsoleClient();
    const path = await invite(a.accountId, "rules@example.com");
    await client.page(path);
    const res = await client.fetch(path, { form: { password: "elevenchars", confirm: "elevenchars" } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Password must be at least 12 characters");
  });

  it("hashes with PBKDF2-SHA-256 at 100,000 iterations and refuses stored counts above the cap", async () => {
    const stored = await hashPassword(PASSWORD);
    expect(stored).toMatch(
      new RegExp(`^pbkdf2-sha256\\$${PBKDF2_ITERATIONS}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`),
    );
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, stored)).toBe(false);
    const crafted = stored.replace(`$${PBKDF2_ITERATIONS}$`, "$100000000$");
    expect(await verifyPassword(PASSWORD, crafted)).toBe(false);
    expect(await verifyPassword(PASSWORD, null)).toBe(false);
  });

  it("sign-in: same answer for unknown email and wrong password; right password signs in", async () => {
    const a = await createAccount();
    const { email } = await signedIn(a.accountId);
    const attempt = async (e: string, p: string) => {
      const c = new ConsoleClient();
      await c.page("/console/sign-in");
      const res = await c.fetch("/console/sign-in", {
        form: { email: e, password: p },
        headers: { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 200)}` },
      });
      return { res, body: await res.text(), c };
    };
    const wrong = await attempt(email, "wrong password 123");
    const unknown = await attempt("nobody@example.com", "wrong password 123");
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    const strip = (s: string) => s.replace(/content="[^"]+"|value="[^"]*"/g, "");
    expect(strip(wrong.body)).toBe(strip(unknown.body).replace("nobody@example.com", email));
    expect(wrong.body).toContain("Email or password is incorrect.");
    const ok = await attempt(email.toUpperCase(), PASSWORD);
    expect(ok.res.status).toBe(303);
    expect((await ok.c.page("/console/usage")).res.status).toBe(200);
  });

  it("sign-in page has fields Email and Password and a Sign in button", async () => {
    const { html } = await new ConsoleClient().page("/console/sign-in");
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain(">Sign in</button>");
  });

  it("a signed-out visitor is sent to sign-in; the JSON endpoints answer 401", async () => {
    const c = new ConsoleClient();
    const res = await c.fetch("/console/avatars");
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/console/sign-in");
    const api = await c.fetch("/console/api/avatar-jobs");
    expect(api.status).toBe(401);
    expect(((await api.json()) as Envelope).error.code).toBe("unauthorized");
  });
});

describe("console sessions", () => {
  const sessionOf = async (userEmail: string) => {
    const user = await db().select().from(consoleUsers).where(eq(consoleUsers.email, userEmail)).get();
    return db().select().from(consoleSessions).where(eq(consoleSessions.userId, user!.id)).all();
  };

  it("cookie: HttpOnly, SameSite=Lax, Path=/console; Secure except on plain-http localhost", async () => {
    const a = await createAccount();
    const local = new ConsoleClient("http://127.0.0.1:8787");
    const path = await invite(a.accountId, "cookie-local@example.com");
    await local.page(path);
    const r1 = await local.fetch(path, { form: { password: PASSWORD, confirm: PASSWORD } });
    const c1 = r1.headers.getSetCookie().find((s) => s.startsWith("console_session="))!;
    expect(c1).toMatch(/HttpOnly/);
    expect(c1).toMatch(/SameSite=Lax/);
    expect(c1).toMatch(/Path=\/console/);
    expect(c1).not.toMatch(/Secure/);

    const remote = new ConsoleClient("https://console.example.com");
    const path2 = await invite(a.accountId, "cookie-remote@example.com");
    await remote.page(path2);
    const r2 = await remote.fetch(path2, { form: { password: PASSWORD, confirm: PASSWORD } });
    const c2 = r2.headers.getSetCookie().find((s) => s.startsWith("console_session="))!;
    expect(c2).toMatch(/; Secure/);
    expect(c2).toMatch(/HttpOnly/);
  });

  it("only a hash of the session id is stored", async () => {
    const a = await createAccount();
    const { client, email } = await signedIn(a.accountId);
    const [row] = await sessionOf(email);
    expect(row!.idHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.idHash).not.toBe(client.cookies.get("console_session"));
  });

  it("ends after 12 h idle and after 7 days whatever the activity", async () => {
    const a = await createAccount();
    const idle = await signedIn(a.accountId);
    await env.DB.prepare(
      "update console_sessions set last_seen_at = ? where user_id = (select id from console_users where email = ?)",
    )
      .bind(Date.now() - 12 * 3600_000 - 1000, idle.email)
      .run();
    expect((await idle.client.fetch("/console/avatars")).status).toBe(303);

    const old = await signedIn(a.accountId);
    await env.DB.prepare(
      "update console_sessions set expires_at = ? where user_id = (select id from console_users where email = ?)",
    )
      .bind(Date.now() - 1, old.email)
      .run();
    expect((await old.client.fetch("/console/avatars")).status).toBe(303);

    const active = await signedIn(a.accountId);
    await env.DB.prepare(
      "update console_sessions set last_seen_at = ? where user_id = (select id from console_users where email = ?)",
    )
      .bind(Date.now() - 11 * 3600_000, active.email)
      .run();
    expect((await active.client.fetch("/console/avatars")).status).toBe(200);
  });

  it("sign-out revokes the session on the server (the old cookie no longer works)", async () => {
    const a = await createAccount();
    const { client, email } = await signedIn(a.accountId);
    const cookie = client.cookies.get("console_session")!;
    const res = await client.fetch("/console/sign-out", { form: {} });
    expect(res.status).toBe(303);
    expect(await sessionOf(email)).toHaveLength(0);
    const replay = new ConsoleClient();
    replay.cookies.set("console_session", cookie);
    expect((await replay.fetch("/console/avatars")).status).toBe(303);
  });

  it("a password change ends every other session of the person", async () => {
    const a = await createAccount();
    const { client, email } = await signedIn(a.accountId);
    const other = new ConsoleClient();
    await other.page("/console/sign-in");
    expect((await other.fetch("/console/sign-in", { form: { email, password: PASSWORD } })).status).toBe(303);
    expect((await other.fetch("/console/avatars")).status).toBe(200);
    await client.page("/console/password");
    const next = "another long passphrase";
    const res = await client.fetch("/console/password", { form: { current: PASSWORD, password: next, confirm: next } });
    expect(res.status).toBe(303);
    expect((await other.fetch("/console/avatars")).status).toBe(303);
    expect((await client.fetch("/console/avatars")).status).toBe(200);
  });

  it("an inactive account's people are signed out", async () => {
    const a = await createAccount();
    const { client } = await signedIn(a.accountId);
    await env.DB.prepare("update accounts set active = 0 where id = ?").bind(a.accountId).run();
    expect((await client.fetch("/console/avatars")).status).toBe(303);
  });
});
