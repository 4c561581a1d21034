import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { encodePageToken, type Position } from "./token";
import type { PageRequest } from "./page-request";

/**
 * Keyset paging, newest first: ORDER BY created_at DESC, id DESC, continuing strictly after the last
 * item of the previous page. Rows inserted while a client pages are newer than its position, so they
 * never shift later pages (no duplicates, no gaps), unlike OFFSET.
 */
export function afterPosition(createdAt: SQLiteColumn, id: SQLiteColumn, after: Position | undefined): SQL | undefined {
  if (!after) return undefined;
  const t = new Date(after.createdAt);
  return or(lt(createdAt, t), and(eq(createdAt, t), lt(id, after.id)));
}

export const newestFirst = (createdAt: SQLiteColumn, id: SQLiteColumn) => [desc(createdAt), desc(id)];

/** Fetch pageSize + 1 rows; the extra one only says whether another page exists. */
export async function finishPage<T extends { createdAt: Date; id: string }>(
  secret: string,
  req: PageRequest,
  rows: T[],
  totalCount: number,
): Promise<{ items: T[]; pagination: { nextPageToken: string; totalCount: number } }> {
  const items = rows.slice(0, req.scope.pageSize);
  const last = items[items.length - 1];
  const nextPageToken =
    rows.length > req.scope.pageSize && last
      ? await encodePageToken(secret, req.scope, { createdAt: last.createdAt.getTime(), id: last.id })
      : "";
  return { items, pagination: { nextPageToken, totalCount } };
}
