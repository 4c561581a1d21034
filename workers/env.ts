import type { AccountLimiter } from "./limiter/account-limiter";
import type { JobMessage } from "./queue/messages";

/** Bindings and settings of the Worker, as declared in wrangler.toml (+ secrets from .dev.vars). */
export interface Env {
  DB: D1Database;
  ACCOUNT_LIMITER: DurableObjectNamespace<AccountLimiter>;
  /** Production renderer: the Cloudflare Container Durable Object. */
  RENDERER: DurableObjectNamespace;
  /** One object per live motion connection (workers/motion/session-object.ts). */
  MOTION_SESSION: DurableObjectNamespace<import("./motion/session-object").MotionSession>;
  JOBS: Queue<JobMessage>;
  MEDIA: R2Bucket;

  REGION: string;
  /** Local/test renderer adapter (.dev.vars); unset in production (the RENDERER binding is used). */
  RENDERER_URL?: string;
  /** Local media servers admitted despite the address checks (.dev.vars, tests); unset in production. */
  SOURCE_ALLOWLIST?: string;
  /** "development" only in .dev.vars, the local stack and the tests; unset (production) otherwise. */
  ENVIRONMENT?: string;
  PUBLIC_BASE_URL: string;
  /** Optional stall threshold in seconds (5–60, default 30): tests that kill renderers shorten it. */
  STALL_AFTER_SECONDS?: string;

  // Secrets
  ADMIN_TOKEN: string;
  /** HMAC key for page tokens, signed links and renderer callback tokens. */
  SIGNING_SECRET: string;
  /** Bearer the Worker presents to the renderer. */
  RENDERER_TOKEN: string;
  /** Ed25519 private key (PKCS#8, base64) that signs session tokens. */
  SESSION_TOKEN_PRIVATE_KEY: string;
  /** Ed25519 public key (SPKI, base64) matching SESSION_TOKEN_PRIVATE_KEY, for motion services. */
  SESSION_TOKEN_PUBLIC_KEY: string;
  /** Optional R2 S3 credentials: when set, video links are S3 presigned URLs (aws4fetch). */
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
  R2_S3_ENDPOINT?: string;
  R2_BUCKET_NAME?: string;
}

/** Hono environment: bindings plus what middleware stores on the context. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** Set by the App authentication middleware on /v1/open and /v1/console. */
    caller: Caller;
  };
}

export interface Caller {
  appId: string;
  account: import("./db/schema").Account;
}
