import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "./page-params";
import { decodePageToken, type ListKind, type Position, type TokenScope } from "./token";

/** Effective page size: omitted → 20; above 99 → 20 (the spec's fallback; not capped). Input is pre-validated digits. */
export function effectivePageSize(raw: string | undefined): number {
  if (raw === undefined) return PAGE_SIZE_DEFAULT;
  const n = Number(raw);
  return n > PAGE_SIZE_MAX ? PAGE_SIZE_DEFAULT : n;
}

/** Canonical filter: sorted, deduplicated ("statuses=failed&statuses=queued" ≡ "queued,failed"). */
export function canonicalStatuses(statuses: readonly string[] | undefined): string[] {
  return [...new Set(statuses ?? [])].sort();
}

export interface PageRequest {
  scope: TokenScope;
  /** Where to continue (exclusive); undefined for the first page. */
  after?: Position;
}

/** Turns validated list query parameters into a page request, verifying the token against its scope. */
export async function pageRequest(
  secret: string,
  kind: ListKind,
  accountId: string,
  query: { "pagination.pageSize"?: string; "pagination.pageToken"?: string },
  statuses: readonly string[] = [],
): Promise<PageRequest> {
  const scope: TokenScope = {
    kind,
    accountId,
    pageSize: effectivePageSize(query["pagination.pageSize"]),
    filter: statuses.join(","),
  };
  const token = query["pagination.pageToken"];
  // An empty token means "first page" (AIP-158); a client that loops on "" gets page one, as documented.
  if (!token) return { scope };
  return { scope, after: await decodePageToken(secret, scope, token) };
}
