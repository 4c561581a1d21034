import { z } from "zod";
import {
  AVATAR_UNSUPPORTED_FIELDS,
  AvatarDetail,
  AvatarJobDetail,
  AvatarJobList,
  AvatarJobPath,
  AvatarList,
  AvatarPath,
  CreateAvatarRequest,
  CreateAvatarResponse,
  ListAvatarJobsQuery,
  ListAvatarsQuery,
} from "../schemas/avatars";
import { AvatarCheck } from "../avatar-checks/check";
import { AVATAR_CHECK_DESCRIPTION, AvatarCheckRequest } from "../routes/open/avatar-checks";
import { SessionTokenRequest, SessionTokenResponse } from "../schemas/session-token";
import {
  CreateVideoRequest,
  CreateVideoResponse,
  ListVideoJobsQuery,
  VIDEO_UNSUPPORTED_FIELDS,
  VideoJobDetail,
  VideoJobList,
  VideoJobPath,
} from "../schemas/videos";

/**
 * The one list of public routes with their request and response schemas. Route modules validate with
 * these schemas and the OpenAPI document is generated from them; a test checks that the mounted
 * routes and this list are the same set, so the document cannot drift from the code.
 */
export interface Operation {
  operationId: string;
  method: "get" | "post";
  /** Full path in OpenAPI form ({param}). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** app: X-App-ID + X-API-Key; apiKey: X-API-Key only; none: public. */
  auth: "app" | "apiKey" | "none";
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Known-but-unsupported body fields (501). */
  unsupported?: Record<string, string>;
  response: { status: 200; description: string; schema?: z.ZodType; contentType?: string };
  /** Error statuses this route can answer (besides 404/405 for unknown routes and 500). */
  errors: number[];
  /** GET routes: the read-rate family whose RateLimit headers they carry. */
  readFamily?: "avatar" | "video";
}

const READ_ERRORS = [400, 401, 403, 429, 503];

export const operations = {
  createAvatar: {
    operationId: "createAvatar",
    method: "post",
    path: "/v1/open/avatars",
    tag: "Avatars",
    summary: "Queue an Avatar creation job from a source image URL",
    description:
      "Reserves one Avatar Creation on acceptance. The image is downloaded and checked asynchronously (JPEG or PNG, at most 5 MiB, shorter side ≥ 340 px, opaque, exactly one face); a violation ends the job in failed.",
    auth: "app",
    body: CreateAvatarRequest,
    unsupported: AVATAR_UNSUPPORTED_FIELDS,
    response: { status: 200, description: "Job accepted", schema: CreateAvatarResponse },
    errors: [400, 401, 402, 403, 429, 501, 503],
  },
  // Declared with @hono/zod-openapi in its route module; listed here so the document and the drift test see it.
  checkAvatarImage: {
    operationId: "checkAvatarImage",
    method: "post",
    path: "/v1/open/avatar-checks",
    tag: "Avatars",
    summary: "Check whether an image would become an Avatar (pre-flight, synchronous)",
    description: AVATAR_CHECK_DESCRIPTION,
    auth: "app",
    body: AvatarCheckRequest,
    response: { status: 200, description: "The verdict: acceptable, or the reason and a sentence with the measured value", schema: AvatarCheck },
    errors: [400, 401, 403, 429, 503],
  },
  listAvatarJobs: {
    operationId: "listAvatarJobs",
    method: "get",
    path: "/v1/open/avatar-jobs",
    tag: "Avatars",
    summary: "List Avatar creation jobs, newest first",
    auth: "app",
    query: ListAvatarJobsQuery,
    response: { status: 200, description: "One page of jobs", schema: AvatarJobList },
    errors: READ_ERRORS,
    readFamily: "avatar",
  },
  getAvatarJob: {
    operationId: "getAvatarJob",
    method: "get",
    path: "/v1/open/avatar-jobs/{jobId}",
    tag: "Avatars",
    summary: "Get an Avatar creation job (poll every 5 to 10 seconds)",
    auth: "app",
    params: AvatarJobPath,
    response: { status: 200, description: "The job", schema: AvatarJobDetail },
    errors: [...READ_ERRORS, 404],
    readFamily: "avatar",
  },
  listAvatars: {
    operationId: "listAvatars",
    method: "get",
    path: "/v1/open/avatars",
    tag: "Avatars",
    summary: "List the Avatars owned by the account (API and console), newest first",
    auth: "app",
    query: ListAvatarsQuery,
    response: { status: 200, description: "One page of Avatars", schema: AvatarList },
    errors: READ_ERRORS,
    readFamily: "avatar",
  },
  getAvatar: {
    operationId: "getAvatar",
    method: "get",
    path: "/v1/open/avatars/{avatarId}",
    tag: "Avatars",
    summary: "Get an Avatar owned by the account",
    auth: "app",
    params: AvatarPath,
    response: { status: 200, description: "The Avatar", schema: AvatarDetail },
    errors: [...READ_ERRORS, 404],
    readFamily: "avatar",
  },
  createVideo: {
    operationId: "createVideo",
    method: "post",
    path: "/v1/open/videos",
    tag: "Videos",
    summary: "Accept a video job (render an Avatar speaking an audio file)",
    description:
      "Returns at once; media work is asynchronous. With a requestId, a retry with the same normalized input returns the existing job (current status, original createdAt) without counting again; different input gives 409. An omitted setting equals its explicit default; colour case does not matter.",
    auth: "app",
    body: CreateVideoRequest,
    unsupported: VIDEO_UNSUPPORTED_FIELDS,
    response: { status: 200, description: "New job, or the existing job for a retry", schema: CreateVideoResponse },
    errors: [400, 401, 403, 409, 429, 501, 503],
  },
  getVideoJob: {
    operationId: "getVideoJob",
    method: "get",
    path: "/v1/open/video-jobs/{jobId}",
    tag: "Videos",
    summary: "Get a video job; succeeded and unexpired jobs include a fresh 15-minute download link",
    description: "Poll every 15 seconds. Download the link without the App headers. If the link cannot be refreshed: 503, retry.",
    auth: "app",
    params: VideoJobPath,
    response: { status: 200, description: "The job and, when available, its download link", schema: VideoJobDetail },
    errors: [...READ_ERRORS, 404],
    readFamily: "video",
  },
  listVideoJobs: {
    operationId: "listVideoJobs",
    method: "get",
    path: "/v1/open/video-jobs",
    tag: "Videos",
    summary: "List video jobs, newest first (summaries without download links)",
    auth: "app",
    query: ListVideoJobsQuery,
    response: { status: 200, description: "One page of jobs", schema: VideoJobList },
    errors: READ_ERRORS,
    readFamily: "video",
  },
  createSessionToken: {
    operationId: "createSessionToken",
    method: "post",
    path: "/v1/console/session-tokens",
    tag: "Session tokens",
    summary: "Issue a short-lived session token for a motion service connection",
    description:
      "Authenticated with X-API-Key only. The token is a compact JWS signed with Ed25519 (EdDSA) carrying the account, App, region, model version and expiry; motion services verify it offline with the published public key.",
    auth: "apiKey",
    body: SessionTokenRequest,
    response: { status: 200, description: "The token", schema: SessionTokenResponse },
    errors: [400, 401],
  },
  getOpenApiDocument: {
    operationId: "getOpenApiDocument",
    method: "get",
    path: "/v1/open/openapi.json",
    tag: "Reference",
    summary: "This OpenAPI 3.1 document (public, no authentication)",
    auth: "none",
    response: { status: 200, description: "OpenAPI 3.1 document", contentType: "application/json" },
    errors: [],
  },
  getApiReference: {
    operationId: "getApiReference",
    method: "get",
    path: "/v1/open/docs",
    tag: "Reference",
    summary: "Human-readable API reference generated from this document (public, no authentication)",
    auth: "none",
    response: { status: 200, description: "HTML page", contentType: "text/html" },
    errors: [],
  },
} satisfies Record<string, Operation>;

export type OperationName = keyof typeof operations;

/** OpenAPI path → Hono path relative to a mount ("/v1/open/avatars/{id}" under "/v1/open" → "/avatars/:id"). */
export function honoPath(op: Operation, mount: string): string {
  if (!op.path.startsWith(`${mount}/`)) throw new Error(`${op.path} is not under ${mount}`);
  return op.path.slice(mount.length).replace(/\{(\w+)\}/g, ":$1");
}
