import type { ApiPromise } from "../api-promise.js";
import { request } from "../api-promise.js";
import type { RequestOptions, Transport } from "../api.js";
import { pageQuery, paginate, type ListOptions } from "../pages.js";
import type { Avatar, AvatarCheck, AvatarCheckRequest, CreateAvatarRequest, CreateAvatarResponse } from "./types.js";

/** Avatars: create one from a portrait URL, check a portrait first, read them. */
export class Avatars {
  constructor(private readonly transport: Transport) {}

  /** Queues an Avatar creation job (one Avatar Creation is reserved); wait for it with `waitForAvatar(jobId)`. */
  create(body: CreateAvatarRequest, options: RequestOptions = {}): ApiPromise<CreateAvatarResponse> {
    return request(this.transport.api.POST("/v1/open/avatars", { body, ...this.transport.init(options) }));
  }

  /** Whether the image would become an Avatar, and if not why; creates nothing. */
  check(body: AvatarCheckRequest, options: RequestOptions = {}): ApiPromise<AvatarCheck> {
    return request(this.transport.api.POST("/v1/open/avatar-checks", { body, ...this.transport.init(options) }));
  }

  get(avatarId: string, options: RequestOptions = {}): ApiPromise<Avatar> {
    const params = { path: { avatarId } };
    const init = this.transport.init(options);
    return request(this.transport.api.GET("/v1/open/avatars/{avatarId}", { params, ...init }), (d) => d.avatar);
  }

  /** The account's Avatars, newest first, across all pages. */
  list(options: ListOptions = {}): AsyncGenerator<Avatar> {
    return paginate(async (pageToken) => {
      const params = { query: pageQuery(options, pageToken) };
      const init = this.transport.init(options);
      const page = await request(this.transport.api.GET("/v1/open/avatars", { params, ...init }));
      return { items: page.avatars, pagination: page.pagination };
    });
  }
}
