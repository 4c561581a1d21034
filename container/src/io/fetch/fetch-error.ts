/** Why a source download failed: callers map `kind` to their job failure codes. */
export type FetchErrorKind =
  | "refused_destination" // non-public address (literal, DNS answer or redirect target)
  | "dns_failed" // name did not resolve
  | "timeout" // first-byte or whole-transfer deadline passed
  | "http_status" // final response not 2xx (status set)
  | "too_large" // declared or streamed size over maxBytes
  | "empty" // 2xx with a zero-byte body
  | "transfer_failed" // connection refused/reset, TLS or protocol error, truncated body, disk error
  | "too_many_redirects"
  | "bad_url"; // the URL or a redirect Location breaks the URL rules (scheme, credentials, length, …)

/** Callers map `kind` to their job failure codes; `message` is internal detail for logs. */
export class FetchError extends Error {
  constructor(
    readonly kind: FetchErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "FetchError";
  }
}

/** Status codes after which the same request may well succeed later (no status: a network failure). */
export function transientStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 425 || status === 429 || status >= 500;
}
