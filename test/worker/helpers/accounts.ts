import { SELF } from "cloudflare:test";
import { LIMIT_CEILINGS } from "../../../workers/accounts/limits";

export const ADMIN_TOKEN = "test-admin-token";
const BASE = "http://x";

export interface TestAccount {
  accountId: string;
  appId: string;
  apiKey: string;
  /** X-App-ID + X-API-Key for /v1/open requests. */
  headers: Record<string, string>;
}

/** Fields of POST /v1/admin/accounts (see docs/admin-api.md). */
export interface AccountOverrides {
  name?: string;
  active?: boolean;
  openApiAccess?: boolean;
  avatarCreationEnabled?: boolean;
  videoAccess?: boolean;
  videoCreationEnabled?: boolean;
  avatarUnits?: number;
  limits?: {
    avatar?: Partial<Record<keyof typeof LIMIT_CEILINGS.avatar, number>>;
    video?: Partial<Record<keyof typeof LIMIT_CEILINGS.video, number>> | null;
  };
}

/** Calls the admin API with the test ADMIN_TOKEN. A JSON `body` object is serialised for you. */
export function adminFetch(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { Authorization: `Bearer ${ADMIN_TOKEN}`, ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["Content-Type"] ??= "application/json";
  }
  return SELF.fetch(`${BASE}/v1/admin${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
}

async function expectStatus(res: Response, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${await res.text()}`);
}

/** A new App (with its one-time API key) for an existing account. */
export async function createApp(accountId: string, name?: string): Promise<TestAccount> {
  const res = await adminFetch(`/accounts/${accountId}/apps`, {
    method: "POST",
    body: name === undefined ? {} : { name },
  });
  await expectStatus(res, 201, "create app");
  const { app, apiKey } = (await res.json()) as { app: { id: string }; apiKey: string };
  return { accountId, appId: app.id, apiKey, headers: { "X-App-ID": app.id, "X-API-Key": apiKey } };
}

/**
 * A new account with one App. Default: active, every access flag on, explicit video limits at the ceilings,
 * Avatar limits at the ceilings, 100 Avatar Creations. `overrides` replace any of these (limits merge per family).
 */
export async function createAccount(overrides: AccountOverrides = {}): Promise<TestAccount> {
  const body = {
    name: "Test account",
    openApiAccess: true,
    avatarCreationEnabled: true,
    videoAccess: true,
    videoCreationEnabled: true,
    avatarUnits: 100,
    ...overrides,
    limits: {
      avatar: { ...LIMIT_CEILINGS.avatar, ...overrides.limits?.avatar },
      video: overrides.limits?.video === null ? null : { ...LIMIT_CEILINGS.video, ...overrides.limits?.video },
    },
  };
  const res = await adminFetch("/accounts", { method: "POST", body });
  await expectStatus(res, 201, "create account");
  const { account } = (await res.json()) as { account: { id: string } };
  return createApp(account.id);
}

/** PATCH an account (flags, limits, avatarUnits); throws unless 200. */
export async function patchAccount(accountId: string, body: AccountOverrides) {
  const res = await adminFetch(`/accounts/${accountId}`, { method: "PATCH", body });
  await expectStatus(res, 200, "patch account");
  return ((await res.json()) as { account: Record<string, unknown> }).account;
}

/** GET an account as the admin API shows it (includes avatarUnits / reservedAvatarUnits). */
export async function getAccount(accountId: string) {
  const res = await adminFetch(`/accounts/${accountId}`);
  await expectStatus(res, 200, "get account");
  return (
    (await res.json()) as { account: Record<string, unknown> & { avatarUnits: number; reservedAvatarUnits: number } }
  ).account;
}

/** A /v1/open request: `path` is relative to /v1/open (e.g. "/avatars"); a JSON `body` object is serialised. */
export function openFetch(
  path: string,
  init: { headers?: Record<string, string>; method?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["Content-Type"] ??= "application/json";
  }
  return SELF.fetch(`${BASE}/v1/open${path}`, {
    method: init.method ?? (body !== undefined ? "POST" : "GET"),
    headers,
    body,
  });
}
