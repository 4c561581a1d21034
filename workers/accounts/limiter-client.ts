import type { Env } from "../platform/env";

/** The account's limiter object (account-limiter.ts): one per account, addressed by the account ID. */
export const limiterFor = (env: Env, accountId: string) => env.ACCOUNT_LIMITER.getByName(accountId);
