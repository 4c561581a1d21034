import type { ApiClient } from "../api.js";
import { unwrap } from "../errors.js";
import { pageQuery, paginate, type ListOptions } from "../pages.js";
import type { AvatarJob, RequestOptions } from "./types.js";

export interface AvatarJobListOptions extends ListOptions {
  statuses?: AvatarJob["status"][];
}

/** Avatar creation jobs. */
export class AvatarJobs {
  constructor(private readonly api: ApiClient) {}

  async get(jobId: string, options: RequestOptions = {}): Promise<AvatarJob> {
    const params = { path: { jobId } };
    return (await unwrap(this.api.GET("/v1/open/avatar-jobs/{jobId}", { params, signal: options.signal }))).job;
  }

  /** Avatar creation jobs, newest first, across all pages. */
  list(options: AvatarJobListOptions = {}): AsyncGenerator<AvatarJob> {
    return paginate(async (pageToken) => {
      const params = { query: { statuses: options.statuses, ...pageQuery(options, pageToken) } };
      const page = await unwrap(this.api.GET("/v1/open/avatar-jobs", { params, signal: options.signal }));
      return { items: page.jobs, pagination: page.pagination };
    });
  }
}
