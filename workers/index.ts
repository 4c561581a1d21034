import { app } from "./app";
import type { Env } from "./env";
import { consumeJobs } from "./queue/consumer";
import type { JobMessage } from "./queue/messages";
import { runSweep } from "./queue/sweep";

export { AccountLimiter } from "./limiter/account-limiter";
export { RendererContainer } from "./renderer/container";
export { MotionSession } from "./motion/session-object";

export default {
  fetch: app.fetch,
  queue: (batch: MessageBatch<JobMessage>, env: Env, ctx: ExecutionContext) => consumeJobs(batch, env, ctx),
  scheduled: (controller: ScheduledController, env: Env, ctx: ExecutionContext) => {
    ctx.waitUntil(runSweep(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env, JobMessage>;
