import { createExecutionContext, env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canUseAvatar } from "../../../workers/accounts/avatar-use-check";
import { sha256Hex } from "../../../workers/platform/crypto/digest";
import { LIMIT_CEILINGS } from "../../../workers/accounts/limits";
import { adminFetch, createAccount, getAccount } from "../helpers/accounts";
import { PLACES, requestWithHeaders, WHITESPACE } from "../helpers/whitespace";
import { app as worker } from "../../../workers/app";
import * as pipeline from "../helpers/pipeline";
import type { Envelope } from "../helpers/open-fixtures";
import type { serializeAccount } from "../../../workers/api/admin/accounts";

type Json = Record<string, unknown>;
/** The admin API's answers, as these tests read them. */
type Account = ReturnType<typeof serializeAccount>;
type App = { id: string; accountId: string; name: string; createdAt: string; revokedAt?: string | null };
type AvatarAccess = { id: string; accountId: string; public: boolean; allowAccountIds: string[] };
const json = async <T = Json>(res: Response) => (await res.json()) as T;
const accountOf = async (res: Response) => (await json<{ account: Account }>(res)).account;
const avatarOf = async (res: Response) => (await json<{ avatar: AvatarAccess }>(res)).avatar;

async function expectError(res: Response, status: number, code: string, message?: string | RegExp) {
  expect(res.status).toBe(status);
  const body = await json<Envelope>(res);
  expect(body.error.code).toBe(code);
  expect(body.error.requestId).toBe(res.headers.get("X-Request-ID"));
  if (typeof message === "string") expect(body.error.message).toContain(message);
  else if (message) expect(body.error.message).toMatch(message);
  return body.error.message;
}

const newAccount = async (body: Json = { name: "Acme" }) => {
  const res = await adminFetch("/accounts", { method: "POST", body });
  expect(res.status, await res.clone().text()).toBe(201);
  return accountOf(res);
};

async function insertAvatar(accountId: string) {
  const id = crypto.randomUUID();
  const now = Date.now();
  await env.DB.prepare(
    "insert into avatars (id, account_id, name, origin, is_public, portrait_key, rig_key, cover_key, created_at, updated_at) values (?, ?, 'A', 'api', 0, 'p', 'r', 'c', ?, ?)",
  )
    .bind(id, accountId, now, now)
    .run();
  return id;
}

describe("admin authorisation", () => {
  const routes: [string, string, Json?][] = [
    ["POST", "/accounts", { name: "x" }],
    ["GET", `/accounts/${crypto.randomUUID()}`],
    ["PATCH", `/accounts/${crypto.randomUUID()}`, { name: "y" }],
    ["POST", `/accounts/${crypto.randomUUID()}/apps`, {}],
    ["DELETE", `/apps/${crypto.randomUUID()}`],
    ["PUT", `/avatars/${crypto.randomUUID()}/access`, { public: true }],
  ];
  const badHeaders: Record<string, Record<string, string>> = {
    missing: { Authorization: "" },
    wrong: { Authorization: "Bearer not-the-token" },
    "wrong scheme": { Authorization: "Basic test-admin-token" },
    prefix: { Authorization: "Bearer test-admin-toke" },
  };
  for (const [method, path, body] of routes) {
    for (const [what, headers] of Object.entries(badHeaders)) {
      it(`${method} ${path.replace(/[0-9a-f-]{36}/, "{id}")} with a ${what} token → 401`, async () => {
        await expectError(await adminFetch(path, { method, body, headers }), 401, "unauthorized", "Unauthorized.");
      });
    }
  }

  it("the token is byte-exact: SP/HTAB around it and any case of `Bearer` pass, every other whitespace → 401", async () => {
    const send = (authorization: string) =>
      worker.fetch(
        requestWithHeaders(`http://x/v1/admin/accounts/${crypto.randomUUID()}`, { Authorization: authorization }),
        env,
        createExecutionContext(),
      );
    // 404: authenticated, the account just does not exist.
    for (const ok of ["Bearer test-admin-token", " \tbearer \t test-admin-token\t ", "BEARER\ttest-admin-token"]) {
      expect((await send(ok)).status, JSON.stringify(ok)).toBe(404);
    }
    for (const ch of Object.values(WHITESPACE)) {
      for (const wrap of Object.values(PLACES)) {
        await expectError(await send(`Bearer ${wrap("test-admin-token", ch)}`), 401, "unauthorized", "Unauthorized.");
      }
      // As the separator after the scheme: only SP/HTAB separate.
      await expectError(await send(`Bearer${ch}test-admin-token`), 401, "unauthorized", "Unauthorized.");
    }
  });

  it("no account is created without the token", async () => {
    const before = await env.DB.prepare("select count(*) as n from accounts").first<{ n: number }>();
    await adminFetch("/accounts", {
      method: "POST",
      body: { name: "sneaky" },
      headers: { Authorization: "Bearer nope" },
    });
    const after = await env.DB.prepare("select count(*) as n from accounts").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });
});

describe("accounts", () => {
  it("a new account: active, every access flag off, 0 units, Avatar limits at the ceilings, no video limits", async () => {
    const account = await newAccount();
    expect(account).toMatchObject({
      name: "Acme",
      active: true,
      openApiAccess: false,
      avatarCreationEnabled: false,
      videoAccess: false,
      videoCreationEnabled: false,
      avatarUnits: 0,
      reservedAvatarUnits: 0,
      availableAvatarUnits: 0,
      limits: { avatar: LIMIT_CEILINGS.avatar, video: null },
    });
    expect(account.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(account.createdAt).toISOString()).toBe(account.createdAt);
    const got = await getAccount(account.id as string);
    expect(got).toEqual(account);
  });

  it("creates with every field given", async () => {
    const limits = {
      avatar: {
        perMinute: 5,
        perHour: 50,
        perDay: 500,
        concurrent: 2,
        readsPerSecond: 5,
        readBurst: 10,
        readsPerMinute: 300,
      },
      video: { perMinute: 1, perHour: 10, perDay: 100, readsPerSecond: 2, readBurst: 4, readsPerMinute: 60 },
    };
    const account = await newAccount({
      name: "Full",
      active: false,
      openApiAccess: true,
      avatarCreationEnabled: true,
      videoAccess: true,
      videoCreationEnabled: true,
      avatarUnits: 7,
      limits,
    });
    expect(account).toMatchObject({ active: false, openApiAccess: true, videoAccess: true, avatarUnits: 7, limits });
  });

  it("omitted Avatar limit fields default to the ceilings", async () => {
    const account = await newAccount({ name: "P", limits: { avatar: { concurrent: 3 } } });
    expect(account.limits.avatar).toEqual({ ...LIMIT_CEILINGS.avatar, concurrent: 3 });
  });

  describe("validation → 400 invalid_request naming the field and the rule", () => {
    const cases: [string, unknown, RegExp][] = [
      ["missing name", {}, /name is required/],
      ["empty name", { name: "" }, /name must be 1 to 128 characters/],
      ["long name", { name: "x".repeat(129) }, /name must be 1 to 128 characters/],
      ["non-boolean flag", { name: "a", openApiAccess: "yes" }, /openApiAccess must be a boolean/],
      ["unknown field", { name: "a", superuser: true }, /superuser is not a known field/],
      ["negative units", { name: "a", avatarUnits: -1 }, /avatarUnits must be at least 0/],
      ["fractional units", { name: "a", avatarUnits: 1.5 }, /avatarUnits must be an integer/],
      [
        "avatar perMinute over the ceiling",
        { name: "a", limits: { avatar: { perMinute: 21 } } },
        /limits\.avatar\.perMinute must be at most 20 \(the hard ceiling\)/,
      ],
      [
        "avatar concurrent over the ceiling",
        { name: "a", limits: { avatar: { concurrent: 11 } } },
        /limits\.avatar\.concurrent must be at most 10/,
      ],
      [
        "avatar perDay over the ceiling",
        { name: "a", limits: { avatar: { perDay: 2001 } } },
        /limits\.avatar\.perDay must be at most 2000/,
      ],
      [
        "avatar readBurst over the ceiling",
        { name: "a", limits: { avatar: { readBurst: 41 } } },
        /limits\.avatar\.readBurst must be at most 40/,
      ],
      [
        "video readsPerMinute over the ceiling",
        { name: "a", limits: { video: { ...LIMIT_CEILINGS.video, readsPerMinute: 1201 } } },
        /limits\.video\.readsPerMinute must be at most 1200/,
      ],
      [
        "video perHour over the ceiling",
        { name: "a", limits: { video: { ...LIMIT_CEILINGS.video, perHour: 201 } } },
        /limits\.video\.perHour must be at most 200/,
      ],
      [
        "negative limit",
        { name: "a", limits: { avatar: { perHour: -1 } } },
        /limits\.avatar\.perHour must be at least 0/,
      ],
      [
        "fractional limit",
        { name: "a", limits: { avatar: { readsPerSecond: 2.5 } } },
        /limits\.avatar\.readsPerSecond must be an integer/,
      ],
      [
        "unknown limit",
        { name: "a", limits: { avatar: { perWeek: 1 } } },
        /limits\.avatar\.perWeek is not a known field/,
      ],
      [
        "concurrent on video",
        { name: "a", limits: { video: { ...LIMIT_CEILINGS.video, concurrent: 1 } } },
        /limits\.video\.concurrent is not a known field/,
      ],
      [
        "incomplete first video limits",
        { name: "a", limits: { video: { perMinute: 1 } } },
        /limits\.video\.perHour is required/,
      ],
    ];
    for (const [what, body, message] of cases) {
      it(what, async () => {
        await expectError(await adminFetch("/accounts", { method: "POST", body }), 400, "invalid_request", message);
      });
    }

    it("malformed JSON", async () => {
      await expectError(
        await adminFetch("/accounts", { method: "POST", body: "{name:" }),
        400,
        "invalid_request",
        "valid JSON",
      );
    });

    it("wrong content type", async () => {
      const res = await adminFetch("/accounts", {
        method: "POST",
        body: '{"name":"a"}',
        headers: { "Content-Type": "text/plain" },
      });
      await expectError(res, 400, "invalid_request", "Content-Type must be application/json");
    });

    it("invalid UUID in the path", async () => {
      await expectError(await adminFetch("/accounts/not-a-uuid"), 400, "invalid_request", /accountId must be a UUID/);
      await expectError(
        await adminFetch("/apps/123", { method: "DELETE" }),
        400,
        "invalid_request",
        /appId must be a UUID/,
      );
    });

    it("unknown account → 404", async () => {
      await expectError(await adminFetch(`/accounts/${crypto.randomUUID()}`), 404, "not_found");
      await expectError(
        await adminFetch(`/accounts/${crypto.randomUUID()}`, { method: "PATCH", body: { name: "z" } }),
        404,
        "not_found",
      );
    });
  });

  describe("video access requires explicit video limits", () => {
    it("create with videoAccess and no limits.video → 400", async () => {
      await expectError(
        await adminFetch("/accounts", { method: "POST", body: { name: "v", videoAccess: true } }),
        400,
        "invalid_request",
        "Video access requires explicit account limits",
      );
    });

    it("create with videoAccess and limits.video in the same request → 201", async () => {
      const account = await newAccount({ name: "v", videoAccess: true, limits: { video: LIMIT_CEILINGS.video } });
      expect(account.videoAccess).toBe(true);
      expect(account.limits.video).toEqual(LIMIT_CEILINGS.video);
    });

    it("PATCH enabling videoAccess without limits → 400, with limits in the same request → 200", async () => {
      const account = await newAccount();
      await expectError(
        await adminFetch(`/accounts/${account.id}`, { method: "PATCH", body: { videoAccess: true } }),
        400,
        "invalid_request",
        "Video access requires explicit account limits",
      );
      expect((await getAccount(account.id)).videoAccess).toBe(false);
      const ok = await adminFetch(`/accounts/${account.id}`, {
        method: "PATCH",
        body: { videoAccess: true, limits: { video: { ...LIMIT_CEILINGS.video, perMinute: 3 } } },
      });
      expect(ok.status).toBe(200);
      expect(await accountOf(ok)).toMatchObject({ videoAccess: true, limits: { video: { perMinute: 3 } } });
    });

    it("video limits set earlier allow enabling later; a partial video patch merges", async () => {
      const account = await newAccount({ name: "v", limits: { video: LIMIT_CEILINGS.video } });
      const res = await adminFetch(`/accounts/${account.id}`, {
        method: "PATCH",
        body: { videoAccess: true, limits: { video: { perDay: 10 } } },
      });
      expect(res.status).toBe(200);
      expect((await accountOf(res)).limits.video).toEqual({ ...LIMIT_CEILINGS.video, perDay: 10 });
    });

    it("removing the video limits while video access is on → 400", async () => {
      const account = await newAccount({ name: "v", videoAccess: true, limits: { video: LIMIT_CEILINGS.video } });
      await expectError(
        await adminFetch(`/accounts/${account.id}`, { method: "PATCH", body: { limits: { video: null } } }),
        400,
        "invalid_request",
        "Video access requires explicit account limits",
      );
      const off = await adminFetch(`/accounts/${account.id}`, {
        method: "PATCH",
        body: { videoAccess: false, limits: { video: null } },
      });
      expect(await accountOf(off)).toMatchObject({ videoAccess: false, limits: { video: null } });
    });
  });

  it("PATCH changes only the given fields and bumps updatedAt", async () => {
    const account = await newAccount({ name: "before", limits: { avatar: { perMinute: 4 } } });
    await new Promise((r) => setTimeout(r, 5));
    const res = await adminFetch(`/accounts/${account.id}`, {
      method: "PATCH",
      body: { name: "after", openApiAccess: true, limits: { avatar: { perHour: 40 } } },
    });
    expect(res.status).toBe(200);
    const patched = await accountOf(res);
    expect(patched).toMatchObject({ name: "after", openApiAccess: true, avatarCreationEnabled: false, active: true });
    expect(patched.limits.avatar).toEqual({ ...LIMIT_CEILINGS.avatar, perMinute: 4, perHour: 40 });
    expect(patched.createdAt).toBe(account.createdAt);
    expect(Date.parse(patched.updatedAt)).toBeGreaterThan(Date.parse(account.updatedAt));
    expect(await getAccount(account.id)).toEqual(patched);
  });

  it("PATCH validates like create (ceilings)", async () => {
    const account = await newAccount();
    await expectError(
      await adminFetch(`/accounts/${account.id}`, {
        method: "PATCH",
        body: { limits: { avatar: { readsPerSecond: 21 } } },
      }),
      400,
      "invalid_request",
      /limits\.avatar\.readsPerSecond must be at most 20/,
    );
  });
});

describe("Avatar Creation units", () => {
  it("create sets, PATCH sets the absolute balance, avatar-units adds a delta", async () => {
    const account = await newAccount({ name: "u", avatarUnits: 5 });
    expect(account.avatarUnits).toBe(5);
    const patched = await adminFetch(`/accounts/${account.id}`, { method: "PATCH", body: { avatarUnits: 12 } });
    expect((await accountOf(patched)).avatarUnits).toBe(12);
    const granted = await adminFetch(`/accounts/${account.id}/avatar-units`, { method: "POST", body: { delta: 8 } });
    expect(granted.status).toBe(200);
    expect(await accountOf(granted)).toMatchObject({
      avatarUnits: 20,
      reservedAvatarUnits: 0,
      availableAvatarUnits: 20,
    });
    const withdrawn = await adminFetch(`/accounts/${account.id}/avatar-units`, {
      method: "POST",
      body: { delta: -20 },
    });
    expect((await accountOf(withdrawn)).avatarUnits).toBe(0);
    await expectError(
      await adminFetch(`/accounts/${account.id}/avatar-units`, { method: "POST", body: { delta: -1 } }),
      400,
      "invalid_request",
      /delta would make the balance -1/,
    );
    await expectError(
      await adminFetch(`/accounts/${account.id}/avatar-units`, { method: "POST", body: { delta: 0.5 } }),
      400,
      "invalid_request",
      /delta must be an integer/,
    );
  });

  it("parallel grants add up exactly", async () => {
    const account = await newAccount({ name: "g" });
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        adminFetch(`/accounts/${account.id}/avatar-units`, { method: "POST", body: { delta: 2 } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await getAccount(account.id)).avatarUnits).toBe(50);
  });

  it("the balance cannot be set below the units reserved by jobs in progress", async () => {
    const account = await newAccount({ name: "r", avatarUnits: 3 });
    const limiter = env.ACCOUNT_LIMITER.getByName(account.id);
    expect((await limiter.admitAvatarCreation(crypto.randomUUID(), LIMIT_CEILINGS.avatar, Date.now())).ok).toBe(true);
    expect((await limiter.admitAvatarCreation(crypto.randomUUID(), LIMIT_CEILINGS.avatar, Date.now())).ok).toBe(true);
    expect(await getAccount(account.id)).toMatchObject({
      avatarUnits: 3,
      reservedAvatarUnits: 2,
      availableAvatarUnits: 1,
    });
    await expectError(
      await adminFetch(`/accounts/${account.id}`, { method: "PATCH", body: { avatarUnits: 1 } }),
      400,
      "invalid_request",
      /avatarUnits must be an integer from 2/,
    );
    const ok = await adminFetch(`/accounts/${account.id}`, { method: "PATCH", body: { avatarUnits: 2 } });
    expect(await accountOf(ok)).toMatchObject({ avatarUnits: 2, reservedAvatarUnits: 2, availableAvatarUnits: 0 });
  });
});

describe("apps", () => {
  it("creates an App: key shown once, stored only as its SHA-256", async () => {
    const account = await newAccount();
    const res = await adminFetch(`/accounts/${account.id}/apps`, { method: "POST", body: { name: "Backend" } });
    expect(res.status).toBe(201);
    const body = await json<{ app: App; apiKey: string }>(res);
    expect(Object.keys(body).sort()).toEqual(["apiKey", "app"]);
    expect(Object.keys(body.app).sort()).toEqual(["accountId", "createdAt", "id", "name"]);
    expect(body.app).toMatchObject({ accountId: account.id, name: "Backend" });
    const row = await env.DB.prepare("select * from apps where id = ?").bind(body.app.id).first<Json>();
    expect(row!.key_hash).toBe(await sha256Hex(body.apiKey));
    expect(JSON.stringify(row)).not.toContain(body.apiKey);
    // Never shown again.
    const listed = await adminFetch(`/accounts/${account.id}/apps`);
    expect(await listed.text()).not.toContain(body.apiKey);
    expect(JSON.stringify(await getAccount(account.id))).not.toContain(body.apiKey);
  });

  it("a body is optional; the name defaults; each App gets its own key", async () => {
    const account = await newAccount();
    const a = await json<{ app: App; apiKey: string }>(
      await adminFetch(`/accounts/${account.id}/apps`, { method: "POST" }),
    );
    const b = await json<{ app: App; apiKey: string }>(
      await adminFetch(`/accounts/${account.id}/apps`, { method: "POST", body: {} }),
    );
    expect(a.app.name).toMatch(/^App /);
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.app.id).not.toBe(b.app.id);
  });

  it("unknown account → 404; invalid name → 400", async () => {
    await expectError(
      await adminFetch(`/accounts/${crypto.randomUUID()}/apps`, { method: "POST", body: {} }),
      404,
      "not_found",
    );
    const account = await newAccount();
    await expectError(
      await adminFetch(`/accounts/${account.id}/apps`, { method: "POST", body: { name: 5 } }),
      400,
      "invalid_request",
      /name/,
    );
  });

  it("DELETE revokes: 204, revokedAt set, repeat is 204, unknown 404", async () => {
    const app = await createAccount();
    const res = await adminFetch(`/apps/${app.appId}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    const row = await env.DB.prepare("select revoked_at from apps where id = ?").bind(app.appId).first<Json>();
    expect(row!.revoked_at).toBeGreaterThan(0);
    expect((await adminFetch(`/apps/${app.appId}`, { method: "DELETE" })).status).toBe(204);
    await expectError(await adminFetch(`/apps/${crypto.randomUUID()}`, { method: "DELETE" }), 404, "not_found");
    const listed = await json<{ apps: App[] }>(await adminFetch(`/accounts/${app.accountId}/apps`));
    expect(listed.apps[0].revokedAt).toBeDefined();
  });
});

describe("Avatar access", () => {
  it("public flag and the allowed-account set (replaced as a whole)", async () => {
    const owner = await newAccount({ name: "owner" });
    const other = await newAccount({ name: "other" });
    const third = await newAccount({ name: "third" });
    const avatarId = await insertAvatar(owner.id);
    expect(await canUseAvatar(env.DB, owner.id, avatarId)).toBe("ok");
    expect(await canUseAvatar(env.DB, other.id, avatarId)).toBe("forbidden");
    expect(await canUseAvatar(env.DB, other.id, crypto.randomUUID())).toBe("not_found");

    let res = await adminFetch(`/avatars/${avatarId}/access`, {
      method: "PUT",
      body: { allowAccountIds: [other.id, third.id] },
    });
    expect(res.status).toBe(200);
    expect(await avatarOf(res)).toEqual({
      id: avatarId,
      accountId: owner.id,
      public: false,
      allowAccountIds: [other.id, third.id].sort(),
    });
    expect(await canUseAvatar(env.DB, other.id, avatarId)).toBe("ok");
    expect(await canUseAvatar(env.DB, third.id, avatarId)).toBe("ok");

    res = await adminFetch(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds: [third.id] } });
    expect((await avatarOf(res)).allowAccountIds).toEqual([third.id]);
    expect(await canUseAvatar(env.DB, other.id, avatarId)).toBe("forbidden");

    res = await adminFetch(`/avatars/${avatarId}/access`, { method: "PUT", body: { public: true } });
    expect(await avatarOf(res)).toMatchObject({ public: true, allowAccountIds: [third.id] });
    expect(await canUseAvatar(env.DB, other.id, avatarId)).toBe("ok");

    res = await adminFetch(`/avatars/${avatarId}/access`, {
      method: "PUT",
      body: { public: false, allowAccountIds: [] },
    });
    expect(await avatarOf(res)).toMatchObject({ public: false, allowAccountIds: [] });
    expect(await canUseAvatar(env.DB, third.id, avatarId)).toBe("forbidden");
  });

  it("unknown Avatar → 404; invalid UUIDs → 400; unknown account → 400", async () => {
    const owner = await newAccount();
    const avatarId = await insertAvatar(owner.id);
    await expectError(
      await adminFetch(`/avatars/${crypto.randomUUID()}/access`, { method: "PUT", body: { public: true } }),
      404,
      "not_found",
    );
    await expectError(
      await adminFetch(`/avatars/nope/access`, { method: "PUT", body: { public: true } }),
      400,
      "invalid_request",
      /avatarId must be a UUID/,
    );
    await expectError(
      await adminFetch(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds: ["x"] } }),
      400,
      "invalid_request",
      /allowAccountIds\[0\] must be a UUID/,
    );
    await expectError(
      await adminFetch(`/avatars/${avatarId}/access`, { method: "PUT", body: { public: "yes" } }),
      400,
      "invalid_request",
      /public must be a boolean/,
    );
    const ghost = crypto.randomUUID();
    await expectError(
      await adminFetch(`/avatars/${avatarId}/access`, { method: "PUT", body: { allowAccountIds: [ghost] } }),
      400,
      "invalid_request",
      `allowAccountIds: account ${ghost} does not exist`,
    );
  });
});

it("unknown admin route → 404, wrong method → 405 (behind the token)", async () => {
  await expectError(await adminFetch("/nope"), 404, "not_found");
  await expectError(await adminFetch("/accounts", { method: "GET" }), 405, "method_not_allowed");
  void SELF;
});

describe("active jobs (GET /jobs/active, `npm run admin -- jobs --active`)", () => {
  it("lists queued and processing jobs of every kind, oldest first, with age, attempt, stage and last heartbeat", async () => {
    const acct = await pipeline.createAccount();
    const avatarJob = await pipeline.createAvatarJob(acct);
    const videoJob = await pipeline.createVideoJob(acct, await pipeline.insertAvatar(acct.accountId));
    await pipeline.startRun("video", videoJob, 4, 12_000);
    const done = await pipeline.createAvatarJob(acct);
    await env.DB.prepare("update avatar_jobs set status = 'failed' where id = ?").bind(done).run();

    const res = await adminFetch("/jobs/active");
    expect(res.status).toBe(200);
    const body = await json<{ jobs: Json[]; now: string }>(res);
    const mine = body.jobs.filter((j) => j.accountId === acct.accountId);
    expect(mine.map((j) => j.id)).toEqual([avatarJob, videoJob]);
    // The test env's stub renderer answered "busy" and handed the job back (pipeline.createAvatarJob waits for it).
    expect(mine[0]).toMatchObject({
      kind: "avatar",
      status: "queued",
      stage: "waiting_for_renderer",
      attempt: 0,
      heartbeatAt: null,
      heartbeatAgeSeconds: null,
    });
    expect(mine[1]).toMatchObject({ kind: "video", status: "processing", attempt: 4 });
    expect(typeof mine[1].stage).toBe("string");
    expect(mine[1].heartbeatAgeSeconds).toBeGreaterThanOrEqual(12);
    expect(mine[1].heartbeatAgeSeconds).toBeLessThan(60);
    for (const j of mine) expect(j.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(body.now)).toBeGreaterThan(0);
  });

  it("shows an Avatar job waiting for the renderer: handed back by it, or its run silent past the stall threshold", async () => {
    const acct = await pipeline.createAccount();
    // pipeline.createAvatarJob returns once the stub renderer ("busy") handed the job back; its next delivery is
    // ≥ 10 s away. `fresh` is reset to a never-dispatched row.
    const handedBack = await pipeline.createAvatarJob(acct);
    const fresh = await pipeline.createAvatarJob(acct);
    await env.DB.prepare("update avatar_jobs set updated_at = created_at where id = ?").bind(fresh).run();
    const silent = await pipeline.createAvatarJob(acct);
    await pipeline.startRun("avatar", silent, 1, 45_000);
    const alive = await pipeline.createAvatarJob(acct);
    await pipeline.startRun("avatar", alive, 1, 2_000);

    const body = await json<{ jobs: Json[] }>(await adminFetch("/jobs/active"));
    const stage = (id: string) => body.jobs.find((j) => j.id === id)?.stage;
    expect([stage(fresh), stage(handedBack), stage(silent), stage(alive)]).toEqual([
      "queued",
      "waiting_for_renderer",
      "waiting_for_renderer",
      "processing",
    ]);
  });

  it("requires the admin token; limit is 1–500", async () => {
    await expectError(
      await adminFetch("/jobs/active", { headers: { Authorization: "Bearer nope" } }),
      401,
      "unauthorized",
    );
    await expectError(await adminFetch("/jobs/active?limit=0"), 400, "invalid_request", "limit");
    expect((await adminFetch("/jobs/active?limit=500")).status).toBe(200);
  });
});
