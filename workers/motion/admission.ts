import { CURRENT_MOTION_MODEL_VERSION, isMotionModelVersion, MOTION_MODEL_VERSIONS } from "@avatar-video/motion-model";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { canUseAvatar, admissionError, limiterFor, rememberCoolDown, rememberedCoolDown } from "../accounts/public";
import { accounts, apps, avatars, consoleUsers } from "../platform/db/schema";
import type { Env } from "../platform/env";
import { apiError, forbidden, invalid, notFound } from "../platform/http/errors";
import { isUuid } from "../platform/http/uuid";
import { avatarCoverUrl } from "../platform/storage/links";
import { workerConfig } from "../platform/config";
import { SessionTokenError, verifySessionToken } from "../platform/session-token/verify";
import { PERSON_SUBJECT_PREFIX, type SessionClaims } from "../platform/session-token/claims";
import { MOTION_PROTOCOL } from "./protocol";
import { signedRigUrl } from "./rig-links";
import type { SessionSetup } from "./session-setup";

const TOKEN_PREFIX = "token.";

const tokenRefused = (message: string) => apiError("unauthorized", message);

const TOKEN_MESSAGES: Record<SessionTokenError["reason"], string> = {
  malformed: "The session token is malformed.",
  unsupported_algorithm: "The session token is not an EdDSA token of this service.",
  bad_signature: "The session token's signature does not verify.",
  invalid_claims: "The session token's claims are not those of this service.",
  expired: "The session token has expired: request a new one for each new connection.",
};

/** The offered subprotocols: `motion.v1` and optionally `token.<sessionToken>` (browsers cannot set headers). */
export function readOffer(request: Request): { token: string | undefined; subprotocol: boolean } {
  const offered = (request.headers.get("Sec-WebSocket-Protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (offered.length && !offered.includes(MOTION_PROTOCOL)) {
    throw invalid(`Sec-WebSocket-Protocol must include ${MOTION_PROTOCOL} (and may carry token.<sessionToken>)`);
  }
  const fromProtocol = offered.find((p) => p.startsWith(TOKEN_PREFIX))?.slice(TOKEN_PREFIX.length);
  const fromQuery = new URL(request.url).searchParams.get("token") ?? undefined;
  return { token: fromProtocol || fromQuery, subprotocol: offered.length > 0 };
}

async function verifiedClaims(env: Env, token: string | undefined): Promise<SessionClaims> {
  if (!token) throw tokenRefused("A session token is required: ?token=… or the subprotocol token.<sessionToken>.");
  try {
    return await verifySessionToken(token, env.SESSION_TOKEN_PUBLIC_KEY);
  } catch (err) {
    if (err instanceof SessionTokenError) throw tokenRefused(TOKEN_MESSAGES[err.reason]);
    throw err;
  }
}

/** Who asked for the token, with their account: an App (revoked or not), or a console person still in the account. */
function issuerOf(db: ReturnType<typeof drizzle>, claims: SessionClaims) {
  if (claims.sub.startsWith(PERSON_SUBJECT_PREFIX))
    return db
      .select({ account: accounts, revokedAt: sql<null>`null` })
      .from(consoleUsers)
      .innerJoin(accounts, eq(accounts.id, consoleUsers.accountId))
      .where(eq(consoleUsers.id, claims.sub.slice(PERSON_SUBJECT_PREFIX.length)))
      .get();
  return db
    .select({ account: accounts, revokedAt: apps.revokedAt })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.accountId))
    .where(eq(apps.id, claims.sub))
    .get();
}

/**
 * Every refusal before the upgrade, in order: token (401), region (401), a flood cool-down this isolate
 * already heard of (429), model version (400), avatarId (400), App and account (401 / 403), Avatar (404),
 * then — atomically in the account's object — single use of the token (401), the flood cool-down and the
 * concurrent-connection limit (429). Only an admitted connection spends its token.
 */
export async function admitConnection(env: Env, request: Request, baseUrl: string): Promise<SessionSetup> {
  const { token, subprotocol } = readOffer(request);
  const claims = await verifiedClaims(env, token);
  const region = workerConfig(env).REGION;
  if (claims.region !== region)
    throw tokenRefused(
      `The session token was issued for region ${claims.region}; this is ${region}. Connect to the motion service of ${claims.region}.`,
    );
  // An account in its flood cool-down is refused here, before any read (cool-down-memory.ts).
  const cooling = rememberedCoolDown(claims.acct, Date.now());
  if (cooling) throw admissionError(cooling);
  const modelVersion = claims.mv ?? CURRENT_MOTION_MODEL_VERSION;
  if (!isMotionModelVersion(modelVersion)) {
    throw invalid(
      `modelVersion ${JSON.stringify(modelVersion)} is not served: known model versions are ${MOTION_MODEL_VERSIONS.join(", ")}`,
    );
  }
  const avatarId = new URL(request.url).searchParams.get("avatarId") ?? "";
  if (!avatarId) throw invalid("avatarId is required");
  if (!isUuid(avatarId)) throw invalid("avatarId must be a UUID");

  const db = drizzle(env.DB);
  const row = await issuerOf(db, claims);
  if (!row || row.account.id !== claims.acct || row.revokedAt)
    throw tokenRefused(
      claims.sub.startsWith(PERSON_SUBJECT_PREFIX)
        ? "The console person who requested this session token was removed from the account."
        : "The App that requested this session token no longer exists or was revoked.",
    );
  if (!row.account.active) throw forbidden("The account is inactive.");
  if (!row.account.openApiAccess) throw forbidden("Open API access is not configured");

  const id = avatarId.toLowerCase();
  const missing = () => notFound(`Avatar ${id} does not exist, is not ready, or belongs to another account.`);
  if ((await canUseAvatar(env.DB, claims.acct, id)) !== "ok") throw missing();
  const avatar = await db.select().from(avatars).where(eq(avatars.id, id)).get();
  if (!avatar || !(await env.MEDIA.head(avatar.rigKey)) || !(await env.MEDIA.head(avatar.portraitKey))) throw missing();

  const connectionId = crypto.randomUUID();
  const admission = await limiterFor(env, claims.acct).admitMotionConnection({
    connectionId,
    jti: claims.jti,
    exp: claims.exp,
  });
  if (!admission.ok) {
    if (admission.coolingDownUntil) rememberCoolDown(claims.acct, admission.coolingDownUntil, Date.now());
    throw admission.code === "unauthorized"
      ? tokenRefused(admission.message)
      : admissionError({ ...admission, code: "rate_limit_exceeded" });
  }
  return {
    connectionId,
    accountId: claims.acct,
    modelVersion,
    avatar: {
      id,
      coverUrl: avatarCoverUrl(env, baseUrl, avatar, { accountId: claims.acct, use: "preview" }),
      rigUrl: signedRigUrl(env, baseUrl, id, "rig.json", claims.acct),
    },
    limits: admission.limits,
    subprotocol,
  };
}
