import type { Env } from "../env";
import { apiError } from "../http/errors";

/** Session tokens an account may be issued per minute, however they are asked for (SESSION_TOKEN_RATE binding). */
export const SESSION_TOKENS_PER_MINUTE = 60;

/** Counts one token for the account; past the rate, 429 with Retry-After. */
export async function meterSessionToken(env: Pick<Env, "SESSION_TOKEN_RATE">, accountId: string): Promise<void> {
  if ((await env.SESSION_TOKEN_RATE.limit({ key: accountId })).success) return;
  throw apiError(
    "rate_limit_exceeded",
    `At most ${SESSION_TOKENS_PER_MINUTE} session tokens per minute per account; retry later.`,
    { headers: { "Retry-After": "60" } },
  );
}
