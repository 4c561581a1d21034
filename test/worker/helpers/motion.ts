import { env, SELF } from "cloudflare:test";
import { issueSessionToken } from "../../../workers/platform/session-token/issue";
import type { Region } from "../../../workers/platform/session-token/claims";
import { createAccount, type TestAccount } from "./accounts";
import { insertAvatar } from "./open-fixtures";
import type { ServiceMessage } from "../../../packages/motion-client/src/types";

export const nowS = () => Math.floor(Date.now() / 1000);

/** A rig that passes as the renderer's (478 landmarks); the portrait bytes only need to exist. */
export async function readyAvatar(accountId: string, o: { isPublic?: boolean } = {}) {
  const id = await insertAvatar(accountId, o);
  const landmarks = Array.from({ length: 478 }, (_, i) => [100 + (i % 30), 100 + Math.floor(i / 30), 0]);
  await env.MEDIA.put(
    `avatars/${id}/rig.json`,
    JSON.stringify({ version: 1, portrait: { width: 256, height: 256 }, landmarks }),
  );
  await env.MEDIA.put(`avatars/${id}/portrait.png`, new Uint8Array([137, 80, 78, 71]));
  return id;
}

/** A token as the console endpoint would issue it, with any claim overridden. */
export function token(
  a: Pick<TestAccount, "appId" | "accountId">,
  o: { region?: Region; expireAt?: number; modelVersion?: string } = {},
) {
  return issueSessionToken(env.SESSION_TOKEN_PRIVATE_KEY, {
    appId: a.appId,
    accountId: a.accountId,
    region: o.region ?? "us-west",
    expireAt: o.expireAt ?? nowS() + 300,
    modelVersion: o.modelVersion,
    now: Date.now(),
  });
}

export function upgrade(query: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return SELF.fetch(`http://x/v1/motion?${qs}`, { headers: { Upgrade: "websocket", ...headers } });
}

export interface Received {
  messages: ServiceMessage[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Accepts the client end of an upgrade and records everything the service sends. */
export function accept(res: Response): { ws: WebSocket } & Received {
  const ws = res.webSocket;
  if (!ws) throw new Error(`expected 101, got ${res.status}`);
  ws.accept();
  const messages: ServiceMessage[] = [];
  ws.addEventListener("message", (e) => {
    // The service sends JSON text only (motion.v1); anything else is kept as it came, to fail the checks.
    messages.push(typeof e.data === "string" ? JSON.parse(e.data) : e.data);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })),
  );
  return { ws, messages, closed };
}

export async function motionAccount() {
  const a = await createAccount();
  return { ...a, avatarId: await readyAvatar(a.accountId) };
}

/** PCM16LE of a tone burst pattern (speech-like loudness changes) at `rate`. */
export function pcm16(seconds: number, rate: number, loud = true): Uint8Array {
  const n = Math.round(seconds * rate);
  const out = new Uint8Array(n * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const env = loud ? (Math.sin(2 * Math.PI * 3 * t) > 0 ? 0.4 : 0.02) : 0;
    const x = env * (Math.sin(2 * Math.PI * 700 * t) + 0.5 * Math.sin(2 * Math.PI * 1200 * t));
    view.setInt16(i * 2, Math.max(-32768, Math.min(32767, Math.round(x * 20000))), true);
  }
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
