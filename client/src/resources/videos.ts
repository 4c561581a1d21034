import type { ApiClient } from "../api.js";
import { unwrap } from "../errors.js";
import { pageQuery, paginate, type ListOptions } from "../pages.js";
import type { CreateVideoRequest, CreateVideoResponse, RequestOptions, VideoJob, VideoJobDetail } from "./types.js";

export interface CreateVideoOptions extends RequestOptions {
  /** The retry key (a UUID); default: the body's, else a new one. Every retry of this call sends the same key. */
  requestId?: string;
}

export interface VideoJobListOptions extends ListOptions {
  statuses?: VideoJob["status"][];
}

/** Video jobs: render an Avatar speaking an audio URL, read the jobs (a succeeded one with its MP4 link). */
export class Videos {
  constructor(private readonly api: ApiClient) {}

  /**
   * Accepts a video job; resolves with `{ jobId, status, createdAt, requestId }`. Calling again with the same
   * `requestId` and body answers with the same job instead of rendering twice.
   */
  async create(
    body: CreateVideoRequest,
    options: CreateVideoOptions = {},
  ): Promise<CreateVideoResponse & { requestId: string }> {
    const requestId = options.requestId ?? body.requestId ?? crypto.randomUUID();
    const created = await unwrap(
      this.api.POST("/v1/open/videos", { body: { ...body, requestId }, signal: options.signal }),
    );
    return { ...created, requestId };
  }

  /** The job and, once it succeeded (and until it expires), a fresh 15-minute `videoUrl`. */
  get(jobId: string, options: RequestOptions = {}): Promise<VideoJobDetail> {
    const params = { path: { jobId } };
    return unwrap(this.api.GET("/v1/open/video-jobs/{jobId}", { params, signal: options.signal }));
  }

  /** Video jobs, newest first, across all pages (summaries without download links). */
  list(options: VideoJobListOptions = {}): AsyncGenerator<VideoJob> {
    return paginate(async (pageToken) => {
      const params = { query: { statuses: options.statuses, ...pageQuery(options, pageToken) } };
      const page = await unwrap(this.api.GET("/v1/open/video-jobs", { params, signal: options.signal }));
      return { items: page.jobs, pagination: page.pagination };
    });
  }
}
