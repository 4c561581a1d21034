import type { components } from "../openapi.js";

type Schemas = components["schemas"];

export type Avatar = Schemas["Avatar"];
export type AvatarCheck = Schemas["AvatarCheck"];
export type AvatarCheckRequest = Schemas["AvatarCheckRequest"];
export type AvatarJob = Schemas["AvatarJob"];
export type CreateAvatarRequest = Schemas["CreateAvatarRequest"];
export type CreateAvatarResponse = Schemas["CreateAvatarResponse"];
export type CreateVideoRequest = Schemas["CreateVideoRequest"];
export type CreateVideoResponse = Schemas["CreateVideoResponse"];
export type SessionTokenRequest = Schemas["SessionTokenRequest"];
export type VideoJob = Schemas["VideoJob"];
export type VideoJobDetail = Schemas["VideoJobDetail"];
