import { invalid } from "../../platform/http/errors";
import { fromBase64Url, toBase64Url } from "../../platform/crypto/base64url";

/**
 * Page tokens (AIP-158 style): opaque, tamper-proof, bound to what they were issued for.
 * Format: base64url(JSON payload) "." base64url(HMAC-SHA256(SIGNING_SECRET, scope + payload)).
 * The payload holds the keyset position and the pageSize/filter (so a mismatch gets a precise
 * message); the account and the list kind are only inside the MAC, so a token used by another
 * account or on another list is simply invalid.
 */

export type ListKind = "avatar-jobs" | "avatars" | "video-jobs";

/** Keyset position: the last item of the previous page (newest first: createdAt desc, id desc). */
export interface Position {
  createdAt: number;
  id: string;
}

export interface TokenScope {
  kind: ListKind;
  accountId: string;
  /** The effective page size (after the >99 → 20 fallback). */
  pageSize: number;
  /** Canonical statuses filter ("" when none). */
  filter: string;
}

interface Payload {
  v: 1;
  s: number;
  f: string;
  t: number;
  i: string;
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string) {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}

const macInput = (scope: TokenScope, payload: string) =>
  encoder.encode(`page-token-v1\n${scope.kind}\n${scope.accountId}\n${payload}`);

export async function encodePageToken(secret: string, scope: TokenScope, position: Position): Promise<string> {
  const body: Payload = { v: 1, s: scope.pageSize, f: scope.filter, t: position.createdAt, i: position.id };
  const payload = toBase64Url(encoder.encode(JSON.stringify(body)));
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), macInput(scope, payload));
  return `${payload}.${toBase64Url(new Uint8Array(mac))}`;
}

const INVALID =
  "pagination.pageToken is invalid: pass back exactly a nextPageToken of this list, or omit it to start from the first page";

/** The position a token points at, or 400 invalid_request saying why it cannot be used here. */
export async function decodePageToken(secret: string, scope: TokenScope, token: string): Promise<Position> {
  const [payload, mac, extra] = token.split(".");
  const macBytes = fromBase64Url(mac ?? "");
  if (!payload || !macBytes || extra !== undefined || macBytes.length !== 32) throw invalid(INVALID);
  // crypto.subtle.verify compares in constant time.
  const ok = await crypto.subtle.verify("HMAC", await hmacKey(secret), macBytes, macInput(scope, payload));
  if (!ok) throw invalid(INVALID);
  let body: Payload;
  try {
    body = JSON.parse(new TextDecoder().decode(fromBase64Url(payload) ?? new Uint8Array()));
  } catch {
    throw invalid(INVALID);
  }
  if (body?.v !== 1 || !Number.isSafeInteger(body.t) || typeof body.i !== "string") throw invalid(INVALID);
  if (body.s !== scope.pageSize) {
    throw invalid(
      `pagination.pageToken was issued for pagination.pageSize ${body.s}, not ${scope.pageSize}; start again from the first page to change the size`,
    );
  }
  if (body.f !== scope.filter) {
    throw invalid(
      "pagination.pageToken was issued for a different statuses filter; start again from the first page to change the filter",
    );
  }
  return { createdAt: body.t, id: body.i };
}
