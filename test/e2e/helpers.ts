import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

export const baseUrl = inject("baseUrl");
export const mediaUrl = inject("mediaUrl");
const adminToken = inject("adminToken");
const mediaDir = inject("mediaDir");

export async function admin<T = any>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${baseUrl}/v1/admin${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export interface TestAccount {
  accountId: string;
  appId: string;
  headers: Record<string, string>;
}

/** A fresh account with every access flag on, explicit video limits and `avatarUnits` Avatar Creations. */
export async function createAccount(avatarUnits = 20): Promise<TestAccount> {
  const ceilings = { perMinute: 20, perHour: 200, perDay: 2000, readsPerSecond: 20, readBurst: 40, readsPerMinute: 1200 };
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

export async function api<T = any>(account: TestAccount, path: string, body?: unknown): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(`${baseUrl}/v1/open${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...account.headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

/** Publishes bytes on the local media server; returns the URL the stack may fetch. */
export function publish(name: string, bytes: Buffer | Uint8Array, contentType?: string): string {
  writeFileSync(join(mediaDir, name), bytes);
  return `${mediaUrl}/files/${name}${contentType ? `?type=${encodeURIComponent(contentType)}` : ""}`;
}

const terminal = new Set(["succeeded", "failed", "expired"]);

/** Polls a job read until it reaches a terminal state (or the timeout). */
export async function waitForJob(account: TestAccount, path: string, timeoutMs = 150_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api(account, path);
    if (status !== 200) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
    if (terminal.has(body.job.status) || Date.now() > deadline) return body;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function control(name: "restart-renderer" | "kill-renderer" | "pause-renderer" | "sweep") {
  await fetch(`${mediaUrl}/control/${name}`, { method: "POST" });
}
