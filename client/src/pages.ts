import type { RequestOptions } from "./api.js";
import type { components } from "./openapi.js";

type Pagination = components["schemas"]["Pagination"];

export interface ListOptions extends RequestOptions {
  /** Items per page, 1 to 99 (the API's default is 20); every page is asked with the same size. */
  pageSize?: number;
}

/** The query of one page: the same size on every page, the token of the page before. */
export const pageQuery = (options: ListOptions, pageToken: string | undefined) => ({
  "pagination.pageSize": options.pageSize,
  "pagination.pageToken": pageToken,
});

/** Every item of every page, fetching the next page (by its `nextPageToken`) only when the items run out. */
export async function* paginate<T>(
  fetchPage: (pageToken: string | undefined) => Promise<{ items: T[]; pagination: Pagination }>,
): AsyncGenerator<T> {
  let pageToken: string | undefined;
  do {
    const { items, pagination } = await fetchPage(pageToken);
    yield* items;
    pageToken = pagination.nextPageToken || undefined;
  } while (pageToken);
}
