/**
 * The renderer's edges, the ground floor: its configuration (the environment), its log lines, downloads from
 * callers' URLs (the SSRF-safe fetcher) and the Worker link (events, objects). It imports no other layer.
 */
export { loadConfig, type RendererConfig } from "./config";
export type { ResolveAll } from "./fetch/checked-lookup";
export { FetchError, transientStatus } from "./fetch/fetch-error";
export { USER_AGENT, safeFetch, type SafeFetchOptions } from "./fetch/safe-fetch";
export { MULTIPART } from "./link/object-client";
export { JobStop, LinkError } from "./link/stops";
export { WorkerLink } from "./link/worker-link";
export { createLogger, logEvent, redactUrl, redactedSources, type Logger } from "./log-event";
