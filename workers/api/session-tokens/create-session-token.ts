import { createRoute } from "@hono/zod-openapi";
import { apiKeyAuth } from "../../platform/auth/app-auth";
import { floodCoolDown } from "./flood-cool-down";
import { limitBody } from "../../platform/http/body-limit";
import { OPEN_API_ACCESS_MESSAGE } from "../../platform/auth/access";
import { forbidden, invalid } from "../../platform/http/errors";
import { jsonBody, openApiApp } from "../../platform/http/openapi-app";
import { jsonInput } from "../../platform/http/validation";
import { API_KEY_AUTH, errors, okJson } from "../../platform/http/route-parts";
import { SESSION_TOKEN_MAX_SECONDS, SessionTokenRequest, SessionTokenResponse } from "../schemas/session-token";
import { issueSessionToken } from "../../platform/session-token/issue";
import { meterSessionToken } from "../../platform/session-token/rate";
import { workerConfig } from "../../platform/config";

const route = createRoute({
  method: "post",
  path: "/session-tokens",
  operationId: "createSessionToken",
  tags: ["Session tokens"],
  summary: "Issue a short-lived session token for a motion service connection",
  description:
    "Authenticated with X-API-Key only. The token is a compact JWS signed with Ed25519 (EdDSA) carrying the account, App, region, model version and expiry; motion services verify it offline with the published public key. The account needs Open API access (else 403). At most 60 tokens per minute per account (429 with Retry-After). While a live connection of the account is held off for sending audio faster than real time (docs/motion.md), its keys get 429 with Retry-After. Failed keys are metered per client address: past 20 a minute the address gets 429 before its keys are looked up.",
  security: API_KEY_AUTH,
  middleware: [floodCoolDown, apiKeyAuth, limitBody, jsonInput()] as const,
  request: { body: jsonBody(SessionTokenRequest) },
  responses: { 200: okJson("The token", SessionTokenResponse), ...errors(400, 401, 403, 429, 500) },
});

/** POST /v1/console/session-tokens: X-API-Key only (the console host of a region). Token logic: workers/platform/session-token/. */
export const createSessionTokenRoute = openApiApp().openapi(route, async (c) => {
  const { expireAt, modelVersion } = c.req.valid("json");
  const now = Date.now();
  const nowSeconds = Math.floor(now / 1000);
  if (expireAt <= nowSeconds) throw invalid(`expireAt must be later than now (${nowSeconds})`);
  if (expireAt >= nowSeconds + SESSION_TOKEN_MAX_SECONDS) {
    throw invalid(`expireAt must be earlier than now plus 24 hours (${nowSeconds + SESSION_TOKEN_MAX_SECONDS})`);
  }
  const { appId, account } = c.get("caller");
  if (!account.openApiAccess) throw forbidden(OPEN_API_ACCESS_MESSAGE);
  await meterSessionToken(c.env, account.id);
  const sessionToken = await issueSessionToken(c.env.SESSION_TOKEN_PRIVATE_KEY, {
    appId,
    accountId: account.id,
    region: workerConfig(c.env).REGION,
    expireAt,
    modelVersion,
    now,
  });
  return c.json({ sessionToken }, 200);
});
