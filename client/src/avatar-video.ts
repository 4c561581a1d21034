import { createApiClient, type ApiClient, type ClientOptions } from "./api.js";
import { AvatarJobs } from "./resources/avatar-jobs.js";
import { Avatars } from "./resources/avatars.js";
import type { AvatarJob, VideoJobDetail } from "./resources/types.js";
import { Videos } from "./resources/videos.js";
import { AVATAR_POLL_MS, VIDEO_POLL_MS, waitForJob, type WaitOptions } from "./wait.js";

/**
 * The Avatar Video Open API. Every method resolves with the answer's resource and throws AvatarVideoError on
 * a non-2xx answer; 429, 500, 503 and lost connections are retried (see ClientOptions).
 */
export class AvatarVideo {
  readonly avatars: Avatars;
  readonly avatarJobs: AvatarJobs;
  readonly videos: Videos;
  /** The typed low-level client for any path, e.g. `av.api.POST("/v1/console/session-tokens", { body })`. */
  readonly api: ApiClient;

  constructor(options: ClientOptions) {
    this.api = createApiClient(options);
    this.avatars = new Avatars(this.api);
    this.avatarJobs = new AvatarJobs(this.api);
    this.videos = new Videos(this.api);
  }

  /** Polls an Avatar creation job until it succeeded or failed; resolves with the final job. */
  waitForAvatar(jobId: string, options: WaitOptions = {}): Promise<AvatarJob> {
    return waitForJob(
      {
        read: (signal) => this.avatarJobs.get(jobId, { signal }),
        stage: (job) => job.status,
        status: (job) => job.status,
        intervalMs: AVATAR_POLL_MS,
      },
      options,
    );
  }

  /** Polls a video job until it ended; resolves with the final detail (with `videoUrl` when it succeeded). */
  waitForVideo(jobId: string, options: WaitOptions = {}): Promise<VideoJobDetail> {
    return waitForJob(
      {
        read: (signal) => this.videos.get(jobId, { signal }),
        stage: (d) => d.job.progress.stage,
        status: (d) => d.job.status,
        intervalMs: VIDEO_POLL_MS,
      },
      options,
    );
  }
}
