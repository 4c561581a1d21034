import { app } from "./app";
import { sweepConsoleUploads } from "./console/public";
import { MotionSession } from "./motion/session-object";
import { consumeDeadLetters, consumeJobs, isDeadLetterQueue, type JobMessage, runSweep } from "./pipeline/public";
import { RendererContainer } from "./pipeline/renderer/container";
import { RendererPool } from "./pipeline/renderer/pool-object";
import { workerConfig } from "./platform/config";
import type { Env } from "./platform/env";
import { AccountLimiter } from "./accounts/account-limiter";
import { logEvent } from "./platform/logging/log-event";
import { SignInThrottle } from "./console/sign-in-throttle";

// Durable Object classes, each from its own module (they load `cloudflare:` modules; public.ts files stay
// loadable in Node for the scripts that build the OpenAPI document).
export { AccountLimiter, MotionSession, RendererContainer, RendererPool, SignInThrottle };

export default {
  fetch: app.fetch,
  // By queue name: the jobs queue, or its dead-letter queue (every environment names it "<queue>-dlq").
  // A bad setting (platform/config.ts) fails the batch and the cron run before any work.
  queue: async (batch: MessageBatch<JobMessage>, env: Env, ctx: ExecutionContext) => {
    workerConfig(env);
    return isDeadLetterQueue(batch.queue) ? consumeDeadLetters(batch) : consumeJobs(batch, env, ctx);
  },
  // Every minute: the job pipeline's sweep, and the console's upload retention beside it.
  scheduled: (controller: ScheduledController, env: Env, ctx: ExecutionContext) => {
    workerConfig(env);
    ctx.waitUntil(runSweep(env, controller.scheduledTime));
    ctx.waitUntil(
      sweepConsoleUploads(env, controller.scheduledTime).then(
        () => undefined,
        (error: unknown) => logEvent("sweep_step_failed", { step: "console_uploads", error }, "error"),
      ),
    );
  },
} satisfies ExportedHandler<Env, JobMessage>;
