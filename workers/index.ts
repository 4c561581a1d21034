import { app } from "./app";
import type { Env } from "./platform/env";
import { consumeJobs } from "./pipeline/queue/consumer";
import type { JobMessage } from "./pipeline/queue/messages";
import { runSweep } from "./pipeline/queue/sweep";

export { AccountLimiter } from "./platform/limiter/account-limiter";
export { RendererContainer } from "./pipeline/renderer/container";
export { MotionSession } from "./motion/session-object";

export default {
  fetch: app.fetch,
  queue: (batch: MessageBatch<JobMessage>, env: Env, ctx: ExecutionContext) => consumeJobs(batch, env, ctx),
  scheduled: (controller: ScheduledController, env: Env, ctx: ExecutionContext) => {
    ctx.waitUntil(runSweep(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env, JobMessage>;
