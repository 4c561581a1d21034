import ipaddr from "ipaddr.js";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { type ApiError, apiError } from "../http/errors";

/**
 * The edge meter of unauthenticated traffic (docs/security.md, "Doors"). Every refused credential (401 on the
 * Open API, the session-token route, the admin API) and every bad link signature (media, rig) counts against
 * the client address in the EDGE_FAILURES rate limiter (Workers Rate Limiting; 20 a minute). Past it, the
 * refusal becomes 429 and this isolate refuses the address for a minute before reading anything: doors call
 * `refuseMeteredAddress` before their first D1 read, so a flood of bad keys costs one D1 read per isolate, not
 * one per request. Callers on other addresses are unaffected. A request without CF-Connecting-IP (only off
 * Cloudflare: tests, local tools) is not metered.
 */
export const BLOCK_SECONDS = 60;
const MAX_BLOCKED = 10_000;
const blockedUntil = new Map<string, number>();

/** The client address as metered: an IPv6 address counts as its /64 (one subscriber's whole range). */
export function meteredAddress(c: Context<AppEnv>): string | undefined {
  const raw = c.req.header("CF-Connecting-IP");
  if (!raw) return undefined;
  if (!ipaddr.IPv6.isValid(raw)) return raw;
  return `${ipaddr.IPv6.parse(raw)
    .parts.slice(0, 4)
    .map((p) => p.toString(16))
    .join(":")}::/64`;
}

const throttled = (seconds: number) =>
  apiError(
    "rate_limit_exceeded",
    `Too many failed credentials or link signatures from this address; retry in ${seconds} s.`,
    { headers: { "Retry-After": String(seconds) } },
  );

/** Before any D1 read of a door: an address this isolate saw exceed the meter waits out its minute (429). */
export function refuseMeteredAddress(c: Context<AppEnv>, now = Date.now()): void {
  const address = meteredAddress(c);
  const until = address === undefined ? undefined : blockedUntil.get(address);
  if (until === undefined) return;
  if (now < until) throw throttled(Math.ceil((until - now) / 1000));
  blockedUntil.delete(address!);
}

/** A refused credential or signature: counts it and returns the answer to give (`refusal`, or 429 past the meter). */
export async function meteredRefusal(c: Context<AppEnv>, refusal: ApiError, now = Date.now()): Promise<ApiError> {
  const address = meteredAddress(c);
  if (address === undefined) return refusal;
  const { success } = await c.env.EDGE_FAILURES.limit({ key: address });
  if (success) return refusal;
  if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.delete(blockedUntil.keys().next().value!);
  blockedUntil.set(address, now + BLOCK_SECONDS * 1000);
  return throttled(BLOCK_SECONDS);
}
