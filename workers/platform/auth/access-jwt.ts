import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import type { Env } from "../env";

/**
 * Cloudflare Access in front of the admin API (docs/security.md, "The admin door"). With ADMIN_ACCESS_AUD set,
 * every admin request must carry the Access JWT (`Cf-Access-Jwt-Assertion`) of the application with that
 * audience, signed by a key of the team's JWKS (`https://<ADMIN_ACCESS_TEAM_DOMAIN>/cdn-cgi/access/certs`,
 * fetched and cached by jose), issued by the team and unexpired — in addition to the admin token.
 */
export const ACCESS_JWT_HEADER = "Cf-Access-Jwt-Assertion";

type AccessEnv = Pick<Env, "ADMIN_ACCESS_AUD" | "ADMIN_ACCESS_TEAM_DOMAIN">;
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** The team's origin: `https://<team>.cloudflareaccess.com` (a bare host name is given https). */
const teamOrigin = (domain: string) => (/^https:\/\//.test(domain) ? domain : `https://${domain}`).replace(/\/+$/, "");

/** Is the admin API behind Access in this deployment? */
export const accessRequired = (env: AccessEnv) => !!env.ADMIN_ACCESS_AUD?.trim();

/** The person (email, else subject) of a valid Access JWT, or null: missing, forged, expired, other audience. */
export async function accessIdentity(env: AccessEnv, jwt: string | undefined): Promise<string | null> {
  const audience = env.ADMIN_ACCESS_AUD?.trim();
  const domain = env.ADMIN_ACCESS_TEAM_DOMAIN?.trim();
  if (!audience || !domain || !jwt) return null; // Access required but not configured: fail closed
  const issuer = teamOrigin(domain);
  let keys = keySets.get(issuer);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(`${issuer}/cdn-cgi/access/certs`));
    keySets.set(issuer, keys);
  }
  try {
    // A header that does not even parse is refused here, synchronously, before any key is fetched.
    if (decodeProtectedHeader(jwt).alg !== "RS256") return null;
    const { payload } = await jwtVerify(jwt, keys, { issuer, audience, algorithms: ["RS256"] });
    const who = typeof payload.email === "string" ? payload.email : payload.sub;
    return who ? `access:${who}` : null;
  } catch {
    return null;
  }
}
