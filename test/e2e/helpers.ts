import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import type { components } from "../../client/src/openapi";

export const baseUrl = inject("baseUrl");
export const mediaUrl = inject("mediaUrl");
const adminToken = inject("adminToken");
const mediaDir = inject("mediaDir");

/** The Open API's schemas (client/src/openapi.ts, generated from the Worker's document). */
export type Schemas = components["schemas"];
export type ErrorBody = Schemas["Error"];

/** An account as the admin API shows it: the fields the tests read. */
export interface AdminAccount {
  id: string;
  avatarUnits: number;
  reservedAvatarUnits: number;
  availableAvatarUnits: number;
  [field: string]: unknown;
}

/** The admin API's JSON answer to a request on `P`. */
type AdminAnswer<P extends string> = P extends `/accounts/${string}/apps`
  ? { app: { id: string; accountId: string; name: string }; apiKey: string }
  : P extends `/accounts${string}`
    ? { account: AdminAccount }
    : Record<string, unknown>;

/** The Open API's JSON answer on success to a GET of `P` (with `Posted`: to a POST). Tests check the status first. */
type OpenAnswer<P extends string, Posted extends boolean> = P extends `/avatar-jobs/${string}`
  ? Schemas["AvatarJobDetail"]
  : P extends `/avatar-jobs${string}`
    ? Schemas["AvatarJobList"]
    : P extends `/video-jobs/${string}`
      ? Schemas["VideoJobDetail"]
      : P extends `/video-jobs${string}`
        ? Schemas["VideoJobList"]
        : P extends `/avatars/${string}`
          ? Schemas["AvatarDetail"]
          : P extends `/avatars${string}`
            ? Posted extends true
              ? Schemas["CreateAvatarResponse"]
              : Schemas["AvatarList"]
            : P extends "/videos"
              ? Schemas["CreateVideoResponse"]
              : P extends "/avatar-checks"
                ? Schemas["AvatarCheck"]
                : Record<string, unknown>;

/** The error of a refused request (its body is the error envelope). */
export const errorOf = (res: { body: unknown }) => (res.body as ErrorBody).error;

export async function admin<P extends string>(
  path: P,
  init: { method?: string; body?: unknown } = {},
): Promise<AdminAnswer<P>> {
  const res = await fetch(`${baseUrl}/v1/admin${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as AdminAnswer<P>;
}

export interface TestAccount {
  accountId: string;
  appId: string;
  headers: Record<string, string>;
}

/** A fresh account with every access flag on, explicit video limits and `avatarUnits` Avatar Creations. */
export async function createAccount(avatarUnits = 20): Promise<TestAccount> {
  const ceilings = {
    perMinute: 20,
    perHour: 200,
    perDay: 2000,
    readsPerSecond: 20,
    readBurst: 40,
    readsPerMinute: 1200,
  };
  const { account } = await admin("/accounts", {
    body: {
      name: `e2e ${Date.now()}`,
      openApiAccess: true,
      avatarCreationEnabled: true,
      videoAccess: true,
      videoCreationEnabled: true,
      avatarUnits,
      limits: { avatar: { ...ceilings, concurrent: 10 }, video: ceilings },
    },
  });
  const { app, apiKey } = await admin(`/accounts/${account.id}/apps`, { body: { name: "e2e" } });
  return { accountId: account.id, appId: app.id, headers: { "X-App-ID": app.id, "X-API-Key": apiKey } };
}

export function api<P extends string>(
  account: TestAccount,
  path: P,
): Promise<{ status: number; body: OpenAnswer<P, false>; headers: Headers }>;
export function api<P extends string>(
  account: TestAccount,
  path: P,
  body: unknown,
): Promise<{ status: number; body: OpenAnswer<P, true>; headers: Headers }>;
export async function api(
  account: TestAccount,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(`${baseUrl}/v1/open${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...account.headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Publishes bytes on the local media server; returns the URL the stack may fetch. */
export function publish(name: string, bytes: Buffer | Uint8Array, contentType?: string): string {
  writeFileSync(join(mediaDir, name), bytes);
  return `${mediaUrl}/files/${name}${contentType ? `?type=${encodeURIComponent(contentType)}` : ""}`;
}

const terminal = new Set(["succeeded", "failed", "expired"]);

/** Polls a job read until it reaches a terminal state (or the timeout). */
export async function waitForJob<P extends `/avatar-jobs/${string}` | `/video-jobs/${string}`>(
  account: TestAccount,
  path: P,
  timeoutMs = 150_000,
): Promise<OpenAnswer<P, false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api(account, path);
    if (status !== 200) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
    if (terminal.has(body.job.status) || Date.now() > deadline) return body;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A fresh account and an Avatar made from `portrait` by the whole pipeline (its job must succeed). */
export async function accountWithAvatar(name: string, portrait: Buffer) {
  const account = await createAccount(3);
  const job = await api(account, "/avatars", { imageUrl: publish(name, portrait) });
  if (job.status !== 200) throw new Error(`POST /avatars: ${job.status} ${JSON.stringify(job.body)}`);
  const { job: done } = await waitForJob(account, `/avatar-jobs/${job.body.jobId}`);
  if (done.status !== "succeeded" || !done.avatarId)
    throw new Error(`Avatar job ${done.status}: ${done.error?.message}`);
  return { account, avatarId: done.avatarId };
}

export async function control(name: "restart-renderer" | "kill-renderer" | "pause-renderer" | "sweep") {
  await fetch(`${mediaUrl}/control/${name}`, { method: "POST" });
}

/** The operator CLI's `invite-user` run against the stack: its exit status, stdout (the link) and stderr. */
export function inviteUser(accountId: string, email: string, role?: "owner" | "member") {
  return spawnSync(
    "node_modules/.bin/tsx",
    [
      "scripts/admin.ts",
      "invite-user",
      accountId,
      "--email",
      email,
      ...(role ? ["--role", role] : []),
      "--base-url",
      baseUrl,
      "--token",
      inject("adminToken"),
    ],
    { encoding: "utf8" },
  );
}

/** Chromium for the tests that animate an Avatar in a page: software WebGL (SwiftShader), sound without a gesture. */
export function motionChromium(...extraArgs: string[]) {
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--autoplay-policy=no-user-gesture-required",
  ];
  return { executablePath: "/usr/bin/chromium", headless: true, args: [...args, ...extraArgs] };
}
