import { type ApiClient, createTransport } from "./api.js";
import type { ClientOptions } from "./config.js";
import { AvatarJobs } from "./resources/avatar-jobs.js";
import { Avatars } from "./resources/avatars.js";
import { SessionTokens } from "./resources/session-tokens.js";
import type { AvatarJob, VideoJobDetail } from "./resources/types.js";
import { Videos } from "./resources/videos.js";
import { AVATAR_POLL_MS, VIDEO_POLL_MS, waitForJob, type WaitOptions } from "./wait.js";

/**
 * The Avatar Video Open API. Every method resolves with the answer's resource and throws AvatarVideoError on
 * a non-2xx answer; 408, 429, 500, 502, 503, 504 and lost connections are retried (see ClientOptions).
 * Options left out come from AVATAR_VIDEO_BASE_URL, AVATAR_VIDEO_APP_ID and AVATAR_VIDEO_API_KEY.
 */
export class AvatarVideo {
  readonly avatars: Avatars;
  readonly avatarJobs: AvatarJobs;
  readonly videos: Videos;
  readonly sessionTokens: SessionTokens;
  /** The typed low-level client for any path, e.g. `av.api.GET("/v1/open/avatars", { params })`. */
  readonly api: ApiClient;

  constructor(options: ClientOptions = {}) {
    const transport = createTransport(options);
    this.api = transport.api;
    this.avatars = new Avatars(transport);
    this.avatarJobs = new AvatarJobs(transport);
    this.videos = new Videos(transport);
    this.sessionTokens = new SessionTokens(transport);
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
