import { and, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { avatarJobs, videoJobs } from "../platform/db/schema";
import type { Env } from "../platform/env";

/**
 * One page of a job list, newest first, and the "Load older" link to the next one. The cursor is the last
 * row's createdAt and id (ties broken by id), so rows created meanwhile never shift a page.
 */
export const JOB_PAGE_SIZE = 50;

export interface JobPageQuery {
  before?: string;
  pageSize?: string;
}

interface Cursor {
  createdAt: Date;
  id: string;
}

const parseCursor = (before: string | undefined): Cursor | undefined => {
  const m = /^(\d{1,15})_([0-9a-f-]{36})$/.exec(before ?? "");
  return m ? { createdAt: new Date(Number(m[1])), id: m[2] } : undefined;
};

const pageSizeOf = (raw: string | undefined) => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= JOB_PAGE_SIZE ? n : JOB_PAGE_SIZE;
};

/** Rows older than the cursor, in milliseconds as stored (created_at, then id for equal times). */
const olderThan = (table: typeof avatarJobs | typeof videoJobs, c: Cursor | undefined): SQL | undefined =>
  c
    ? sql`(${table.createdAt} < ${c.createdAt.getTime()} or (${table.createdAt} = ${c.createdAt.getTime()} and ${table.id} < ${c.id}))`
    : undefined;

async function page<T extends { createdAt: Date; id: string }>(
  rows: (size: number, cursor: Cursor | undefined) => Promise<T[]>,
  path: string,
  query: JobPageQuery,
): Promise<{ jobs: T[]; olderHref: string | null }> {
  const size = pageSizeOf(query.pageSize);
  const found = await rows(size + 1, parseCursor(query.before));
  const jobs = found.slice(0, size);
  const last = jobs[jobs.length - 1];
  const keep = query.pageSize ? `&pageSize=${size}` : "";
  return {
    jobs,
    olderHref: found.length > size && last ? `${path}?before=${last.createdAt.getTime()}_${last.id}${keep}` : null,
  };
}

/** Avatar jobs still running, and failures: a succeeded one is its Avatar in the grid below the list. */
export const avatarJobPage = (env: Env, accountId: string, query: JobPageQuery) =>
  page(
    (limit, c) =>
      drizzle(env.DB)
        .select()
        .from(avatarJobs)
        .where(and(eq(avatarJobs.accountId, accountId), ne(avatarJobs.status, "succeeded"), olderThan(avatarJobs, c)))
        .orderBy(desc(avatarJobs.createdAt), desc(avatarJobs.id))
        .limit(limit)
        .all(),
    "/console/avatars",
    query,
  );

export const videoJobPage = (env: Env, accountId: string, query: JobPageQuery) =>
  page(
    (limit, c) =>
      drizzle(env.DB)
        .select()
        .from(videoJobs)
        .where(and(eq(videoJobs.accountId, accountId), olderThan(videoJobs, c)))
        .orderBy(desc(videoJobs.createdAt), desc(videoJobs.id))
        .limit(limit)
        .all(),
    "/console/videos",
    query,
  );
