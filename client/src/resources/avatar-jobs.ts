import type { ApiPromise } from "../api-promise.js";
import { request } from "../api-promise.js";
import type { RequestOptions, Transport } from "../api.js";
import { pageQuery, paginate, type ListOptions } from "../pages.js";
import type { AvatarJob } from "./types.js";

export interface AvatarJobListOptions extends ListOptions {
  statuses?: AvatarJob["status"][];
}

/** Avatar creation jobs. */
export class AvatarJobs {
  constructor(private readonly transport: Transport) {}

  get(jobId: string, options: RequestOptions = {}): ApiPromise<AvatarJob> {
    const params = { path: { jobId } };
    const init = this.transport.init(options);
    return request(this.transport.api.GET("/v1/open/avatar-jobs/{jobId}", { params, ...init }), (d) => d.job);
  }

  /** Avatar creation jobs, newest first, across all pages. */
  list(options: AvatarJobListOptions = {}): AsyncGenerator<AvatarJob> {
    return paginate(async (pageToken) => {
      const params = { query: { statuses: options.statuses, ...pageQuery(options, pageToken) } };
      const init = this.transport.init(options);
      const page = await request(this.transport.api.GET("/v1/open/avatar-jobs", { params, ...init }));
      return { items: page.jobs, pagination: page.pagination };
    });
  }
}
