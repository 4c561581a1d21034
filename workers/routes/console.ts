import { Hono } from "hono";
import { apiKeyAuth } from "../auth/app-auth";
import type { AppEnv } from "../env";
import { limitBody } from "../http/body-limit";
import { invalid } from "../http/errors";
import { validate } from "../http/validation";
import { operations as ops, honoPath } from "../openapi/contract";
import { SESSION_TOKEN_MAX_SECONDS } from "../schemas/session-token";
import { issueSessionToken, regionOf } from "../session-token/issue";

const MOUNT = "/v1/console";

/** POST /v1/console/session-tokens: X-API-Key only (the console host of a region). */
export const consoleRoutes = new Hono<AppEnv>().post(
  honoPath(ops.createSessionToken, MOUNT),
  apiKeyAuth,
  limitBody,
  validate("json", ops.createSessionToken.body),
  async (c) => {
    const { expireAt, modelVersion } = c.req.valid("json");
    const now = Date.now();
    const nowSeconds = Math.floor(now / 1000);
    if (expireAt <= nowSeconds) throw invalid(`expireAt must be later than now (${nowSeconds})`);
    if (expireAt >= nowSeconds + SESSION_TOKEN_MAX_SECONDS) {
      throw invalid(`expireAt must be earlier than now plus 24 hours (${nowSeconds + SESSION_TOKEN_MAX_SECONDS})`);
    }
    const { appId, account } = c.get("caller");
    const sessionToken = await issueSessionToken(c.env.SESSION_TOKEN_PRIVATE_KEY, {
      appId,
      accountId: account.id,
      region: regionOf(c.env.REGION),
      expireAt,
      modelVersion,
      now,
    });
    return c.json({ sessionToken }, 200);
  },
);
