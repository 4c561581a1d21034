import { z } from "zod";

/** Spec: Limits → Pagination. */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 99;

/**
 * `pagination.pageSize` as it arrives in the query: digits only, at least 1. Values above 99 are valid
 * and fall back to the default (the spec: "falls back to 20; it is not capped").
 */
export const PageSizeParam = z
  .string({ error: (iss) => (Array.isArray(iss.input) ? "must be given once" : undefined) })
  .refine(
    (s) => /^\d+$/.test(s) && !/^0+$/.test(s),
    `must be an integer from 1 to ${PAGE_SIZE_MAX} (larger values fall back to ${PAGE_SIZE_DEFAULT})`,
  )
  .meta({
    type: "integer",
    minimum: 1,
    default: PAGE_SIZE_DEFAULT,
    description: `Items per page, 1 to ${PAGE_SIZE_MAX}; default ${PAGE_SIZE_DEFAULT}. A value above ${PAGE_SIZE_MAX} falls back to ${PAGE_SIZE_DEFAULT}; 0, negative or non-integer values are rejected.`,
  } as Record<string, unknown>);

/** Opaque; omit (or send empty) for the first page, then pass back exactly the previous nextPageToken. */
export const PageTokenParam = z
  .string({ error: (iss) => (Array.isArray(iss.input) ? "must be given once" : undefined) })
  .max(2048, "is not a valid page token")
  .meta({
    description:
      "Opaque token from the previous page's nextPageToken. Valid only with the pageSize, statuses filter and account it was issued for.",
  });

/** `statuses=queued&statuses=processing`: one value arrives as a string, several as an array. */
export const statusesParam = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .preprocess(
      (v) => (typeof v === "string" ? [v] : v),
      z.array(
        z.enum(values, { error: (iss) => `must be one of ${values.join(", ")} (got ${JSON.stringify(iss.input)})` }),
      ),
    )
    .meta({ description: `Repeatable status filter: ${values.join(", ")}` });

export const PaginationQuery = {
  "pagination.pageSize": PageSizeParam.optional(),
  "pagination.pageToken": PageTokenParam.optional(),
};

export const Pagination = z
  .object({
    nextPageToken: z.string().meta({ description: "Token of the next page; empty when there are no more pages" }),
    totalCount: z.number().int().meta({ description: "Number of items matching the query across all pages" }),
  })
  .meta({ id: "Pagination" });
