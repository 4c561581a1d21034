/** What a session token says (docs/session-tokens.md). */
export const SESSION_TOKEN_ISSUER = "avatar-video";
export const REGIONS = ["us-west", "ap-northeast", "cn-beijing"] as const;
export type Region = (typeof REGIONS)[number];

export interface SessionClaims {
  /** Issuer: always "avatar-video". */
  iss: typeof SESSION_TOKEN_ISSUER;
  /** The App ID that requested the token, or `person:<userId>` for a console person's (personSubject). */
  sub: string;
  /** The App's owner account. */
  acct: string;
  /** Region of the issuing deployment. */
  region: Region;
  /** Model version override, when the request named one. */
  mv?: string;
  /** Issued at, Unix seconds. */
  iat: number;
  /** Expiry, Unix seconds (the request's expireAt): new connections are refused from this second on. */
  exp: number;
  /** Unique token ID (UUID). */
  jti: string;
}

/** Subject of a token minted from a console session: the motion service checks the person is still in the account. */
export const PERSON_SUBJECT_PREFIX = "person:";
export const personSubject = (userId: string) => `${PERSON_SUBJECT_PREFIX}${userId}`;
