import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../platform/env";
import { apiError } from "../../platform/http/errors";
import { LIMIT_CEILINGS } from "../limits";
import { limiterFor } from "../limiter-client";
import type { ReadDecision, ReadFamily, ReadLimits } from "./read-bucket";

declare module "hono" {
  interface ContextVariableMap {
    /** Read figures a creation handler already got from the limiter (readRateLimitHeaders `fromHandler`). */
    readStatus?: ReadDecision;
  }
}

const FAMILY_LABEL = { avatar: "Avatar", video: "Video" } as const;

/**
 * IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-09 structured-field form) for the family's
 * read policies: "burst" is the token bucket (q = capacity, w = seconds to refill it from empty), "minute"
 * the per-minute cap. RateLimit gives, per policy, r = units left and t = seconds until fully restored.
 */
export function rateLimitHeaders(limits: ReadLimits, d: ReadDecision): Record<string, string> {
  const refillWindow =
    limits.readsPerSecond > 0 ? Math.max(1, Math.ceil(limits.readBurst / limits.readsPerSecond)) : 60;
  return {
    "RateLimit-Policy": `"burst";q=${limits.readBurst};w=${refillWindow}, "minute";q=${limits.readsPerMinute};w=60`,
    RateLimit: `"burst";r=${d.burst.remaining};t=${d.burst.resetSeconds}, "minute";r=${d.minute.remaining};t=${d.minute.resetSeconds}`,
  };
}

const limitsOf = (account: AppEnv["Variables"]["caller"]["account"], family: ReadFamily): ReadLimits =>
  // Video routes need video access, which needs explicit limits; the ceilings are only a safety net.
  account.limits[family] ?? LIMIT_CEILINGS[family];

/**
 * GET routes: counts the read against the account's bucket for the family (Avatar family: /avatars,
 * /avatar-jobs*; video family: /video-jobs*). Runs after appAuth and the access checks.
 * Refused: 429 rate_limit_exceeded with Retry-After; both outcomes carry the RateLimit headers.
 */
export const readRateLimit = (family: ReadFamily) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const account = c.get("caller").account;
    const limits = limitsOf(account, family);
    const decision = await limiterFor(c.env, account.id).admitRead(family, limits, Date.now());
    const headers = rateLimitHeaders(limits, decision);
    if (!decision.ok) {
      const retry = decision.retryAfterSeconds ?? 1;
      throw apiError(
        "rate_limit_exceeded",
        `${FAMILY_LABEL[family]} read rate limit exceeded: ${limits.readsPerSecond} per second with burst ${limits.readBurst}, ${limits.readsPerMinute} per minute. Retry after ${retry} seconds.`,
        { headers: { ...headers, "Retry-After": String(retry) } },
      );
    }
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  });

/**
 * Non-read routes of a family (POST /avatars, POST /videos): adds the family's RateLimit headers to the answer,
 * success or error, without counting a read. By default the limiter is asked while the handler runs (no added
 * latency). `fromHandler`: the handler's own limiter round trip brings the figures (c.set("readStatus"),
 * POST /videos's admission), which saves a Durable Object call per creation; answers that end before that
 * round trip (validation, Avatar access, a stored retry) ask the limiter afterwards.
 */
export const readRateLimitHeaders = (family: ReadFamily, opts: { fromHandler?: boolean } = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const account = c.get("caller").account;
    const limits = limitsOf(account, family);
    // Headers are advisory: never fail the request over them.
    const ask = () =>
      limiterFor(c.env, account.id)
        .readStatus(family, limits, Date.now())
        .catch(() => null);
    const early = opts.fromHandler ? undefined : ask();
    await next();
    const decision = early ? await early : (c.get("readStatus") ?? (await ask()));
    if (decision) for (const [k, v] of Object.entries(rateLimitHeaders(limits, decision))) c.res.headers.set(k, v);
  });
