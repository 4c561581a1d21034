import type { ApiClient } from "../api.js";
import { unwrap } from "../errors.js";
import { pageQuery, paginate, type ListOptions } from "../pages.js";
import type {
  Avatar,
  AvatarCheck,
  AvatarCheckRequest,
  CreateAvatarRequest,
  CreateAvatarResponse,
  RequestOptions,
} from "./types.js";

/** Avatars: create one from a portrait URL, check a portrait first, read them. */
export class Avatars {
  constructor(private readonly api: ApiClient) {}

  /** Queues an Avatar creation job (one Avatar Creation is reserved); wait for it with `waitForAvatar(jobId)`. */
  create(body: CreateAvatarRequest, options: RequestOptions = {}): Promise<CreateAvatarResponse> {
    return unwrap(this.api.POST("/v1/open/avatars", { body, signal: options.signal }));
  }

  /** Whether the image would become an Avatar, and if not why; creates nothing. */
  check(body: AvatarCheckRequest, options: RequestOptions = {}): Promise<AvatarCheck> {
    return unwrap(this.api.POST("/v1/open/avatar-checks", { body, signal: options.signal }));
  }

  async get(avatarId: string, options: RequestOptions = {}): Promise<Avatar> {
    const params = { path: { avatarId } };
    return (await unwrap(this.api.GET("/v1/open/avatars/{avatarId}", { params, signal: options.signal }))).avatar;
  }

  /** The account's Avatars, newest first, across all pages. */
  list(options: ListOptions = {}): AsyncGenerator<Avatar> {
    return paginate(async (pageToken) => {
      const params = { query: pageQuery(options, pageToken) };
      const page = await unwrap(this.api.GET("/v1/open/avatars", { params, signal: options.signal }));
      return { items: page.avatars, pagination: page.pagination };
    });
  }
}
