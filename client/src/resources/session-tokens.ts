import type { ApiPromise } from "../api-promise.js";
import { request } from "../api-promise.js";
import type { RequestOptions, Transport } from "../api.js";

/** Default lifetime of a session token: long enough to connect, short as the spec asks (one per connection). */
export const SESSION_TOKEN_TTL_SECONDS = 600;

export interface CreateSessionTokenOptions extends RequestOptions {
  /** Expiry as Unix time in seconds, under 24 hours ahead (default: now + `ttlSeconds`). */
  expireAt?: number;
  /** Lifetime when `expireAt` is not given (default 600 s). */
  ttlSeconds?: number;
  /** Model version stamped into the token (default: the current one). */
  modelVersion?: string;
}

export interface SessionToken {
  /** Give it to the page that connects to the live motion service (`GET /v1/motion?token=…`). */
  sessionToken: string;
  /** Unix time in seconds after which new connections with it are refused. */
  expireAt: number;
}

/** Session tokens: short-lived tokens a browser connects to the live motion service with, instead of the key. */
export class SessionTokens {
  constructor(private readonly transport: Transport) {}

  /** Mints one token (POST /v1/console/session-tokens); mint one per new connection. */
  create(options: CreateSessionTokenOptions = {}): ApiPromise<SessionToken> {
    const { expireAt: given, ttlSeconds = SESSION_TOKEN_TTL_SECONDS, modelVersion, ...rest } = options;
    const expireAt = given ?? Math.floor(Date.now() / 1000) + ttlSeconds;
    const call = this.transport.api.POST("/v1/console/session-tokens", {
      body: { expireAt, modelVersion },
      ...this.transport.init(rest),
    });
    return request(call, ({ sessionToken }) => ({ sessionToken, expireAt }));
  }
}
