import { sha256Hex } from "../platform/crypto/digest";
import type { Env } from "../platform/env";

/**
 * The sign-in throttle as the console uses it (sign-in and the password-change form): one attempt is counted
 * by the client address's SignInThrottle object (exponential backoff per failing address) and by the email's
 * (refuses only addresses that have been failing for that email). sign-in-throttle.ts holds the rule.
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
  const addressHash = await sha256Hex(address);
  const byAddress = env.SIGN_IN_THROTTLE.getByName(`address:${addressHash}`);
  const byEmail = env.SIGN_IN_THROTTLE.getByName(`email:${await sha256Hex(email)}`);
  const results = await Promise.all([byAddress.attemptFromAddress(now), byEmail.attemptForEmail(addressHash, now)]);
  const stubs = [byAddress, byEmail];
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
