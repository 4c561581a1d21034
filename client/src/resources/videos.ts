import type { ApiPromise } from "../api-promise.js";
import { request } from "../api-promise.js";
import type { RequestOptions, Transport } from "../api.js";
import { pageQuery, paginate, type ListOptions } from "../pages.js";
import type { CreateVideoRequest, CreateVideoResponse, VideoJob, VideoJobDetail } from "./types.js";

export interface CreateVideoOptions extends RequestOptions {
  /** The retry key (a UUID); default: the body's, else a new one. Every retry of this call sends the same key. */
  requestId?: string;
}

export interface VideoJobListOptions extends ListOptions {
  statuses?: VideoJob["status"][];
}

/** Video jobs: render an Avatar speaking an audio URL, read the jobs (a succeeded one with its MP4 link). */
export class Videos {
  constructor(private readonly transport: Transport) {}

  /**
   * Accepts a video job; resolves with `{ jobId, status, createdAt, requestId }`. Calling again with the same
   * `requestId` and body answers with the same job instead of rendering twice.
   */
  create(
    body: CreateVideoRequest,
    options: CreateVideoOptions = {},
  ): ApiPromise<CreateVideoResponse & { requestId: string }> {
    const requestId = options.requestId ?? body.requestId ?? crypto.randomUUID();
    const call = this.transport.api.POST("/v1/open/videos", {
      body: { ...body, requestId },
      ...this.transport.init(options),
    });
    return request(call, (created) => ({ ...created, requestId }));
  }

  /** The job and, once it succeeded (and until it expires), a fresh 15-minute `videoUrl`. */
  get(jobId: string, options: RequestOptions = {}): ApiPromise<VideoJobDetail> {
    const params = { path: { jobId } };
    return request(this.transport.api.GET("/v1/open/video-jobs/{jobId}", { params, ...this.transport.init(options) }));
  }

  /** Video jobs, newest first, across all pages (summaries without download links). */
  list(options: VideoJobListOptions = {}): AsyncGenerator<VideoJob> {
    return paginate(async (pageToken) => {
      const params = { query: { statuses: options.statuses, ...pageQuery(options, pageToken) } };
      const init = this.transport.init(options);
      const page = await request(this.transport.api.GET("/v1/open/video-jobs", { params, ...init }));
      return { items: page.jobs, pagination: page.pagination };
    });
  }
}
