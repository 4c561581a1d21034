import { sha256Hex } from "../platform/crypto/digest";
import type { Env } from "../platform/env";

/**
 * Per-email and per-client-address sign-in throttle (10 failures per 15 minutes each), held by SignInThrottle
 * objects named for the hashed key (sign-in-throttle.ts). Unknown emails are throttled exactly like known ones.
 */
export interface SignInGate {
  ok: boolean;
  retryAfterSeconds: number;
  /** Call after a correct password: the attempts taken out do not count as failures. */
  forgive(): Promise<void>;
}

/** The client address as Cloudflare reports it; requests without one (local tools) share one bucket. */
export const clientAddress = (headers: { header(name: string): string | undefined }) =>
  headers.header("CF-Connecting-IP") ?? "unknown";

export async function enterSignIn(env: Env, email: string, address: string, now = Date.now()): Promise<SignInGate> {
  const names = [`email:${await sha256Hex(email)}`, `address:${await sha256Hex(address)}`];
  const stubs = names.map((n) => env.SIGN_IN_THROTTLE.getByName(n));
  const results = await Promise.all(stubs.map((s) => s.attempt(now)));
  const taken = results.flatMap((r, i) => (r.ok ? [{ stub: stubs[i]!, id: r.attemptId }] : []));
  const forgive = async () => {
    await Promise.all(taken.map((t) => t.stub.forgive(t.id)));
  };
  const refused = results.filter((r) => !r.ok);
  if (refused.length > 0) {
    // A refused attempt is no guess at all: give back what the other key counted.
    await forgive();
    return {
      ok: false,
      retryAfterSeconds: Math.max(...refused.map((r) => (r.ok ? 0 : r.retryAfterSeconds))),
      forgive: async () => {},
    };
  }
  return { ok: true, retryAfterSeconds: 0, forgive };
}
