/**
 * What the other wings and the Worker's entry use of the pipeline wing: the queue consumer and sweep, the
 * renderer's internal routes, enqueueing a created job, the renderer's synchronous check and health.
 * The RendererContainer class is exported by the entry from its own module (it loads `cloudflare:` modules,
 * which scripts that build the OpenAPI document in Node cannot).
 */
export { internalRoutes } from "./internal/routes";
export { staleHeartbeatMs, WAITING_FOR_RENDERER } from "./jobs/constants";
export { consumeJobs } from "./queue/consumer";
export { consumeDeadLetters, isDeadLetterQueue } from "./queue/dead-letter";
export { enqueueJob } from "./queue/enqueue";
export type { JobMessage } from "./queue/messages";
export { runSweep } from "./queue/sweep";
export { checkOnRenderer } from "./renderer/check-client";
export { RendererUnavailable } from "./renderer/client";
export { rendererHealth } from "./renderer/health";
export { viewRendererPool } from "./renderer/pool";
