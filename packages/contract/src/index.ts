// What the Worker (workers/) and the renderer (container/) both speak: neither imports the other's source.
// Pure TypeScript with no Node or Workers APIs (zod and ipaddr.js only).
export * from "./address-policy";
export * from "./avatar-reasons";
export * from "./dispatch";
export * from "./env-vars";
export * from "./job-events";
export * from "./job-failures";
export * from "./matte-format";
export * from "./media-rules";
export * from "./performance";
export * from "./performance-input";
export * from "./rig-format";
export * from "./video-settings";
