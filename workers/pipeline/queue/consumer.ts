import type { Env } from "../../platform/env";
import { backgroundBaseUrlProblem } from "../../platform/http/base-url";
import { dispatchJob } from "../jobs/dispatch";
import { dispatchRetryDelaySeconds } from "../jobs/constants";
import type { JobMessage } from "./messages";
import { logEvent } from "../../platform/logging/log-event";

const isJobMessage = (body: unknown): body is JobMessage =>
  typeof body === "object" &&
  body !== null &&
  ((body as JobMessage).kind === "avatar" || (body as JobMessage).kind === "video") &&
  typeof (body as JobMessage).jobId === "string" &&
  ((body as JobMessage).segment === undefined || Number.isSafeInteger((body as JobMessage).segment));

/**
 * Queue consumer: each message names a job; the D1 row says what to do. Acked once handled (including
 * "nothing to do"); retried with backoff when the renderer could not take the job or D1 failed. Messages
 * are handled concurrently; each one's outcome is independent.
 */
export async function consumeJobs(batch: MessageBatch<JobMessage>, env: Env, _ctx?: ExecutionContext): Promise<void> {
  // Without PUBLIC_BASE_URL (production) no dispatch could call back: keep every message until it is set.
  const problem = backgroundBaseUrlProblem(env);
  if (problem) {
    logEvent("public_base_url_missing", { work: "queue", messages: batch.messages.length, error: problem }, "error");
    return batch.retryAll({ delaySeconds: 60 });
  }
  await Promise.all(
    batch.messages.map(async (msg) => {
      if (!isJobMessage(msg.body)) {
        logEvent("queue_bad_message", { messageId: msg.id }, "error");
        return msg.ack();
      }
      try {
        const outcome = await dispatchJob(env, msg.body, Date.now());
        if (outcome.done) return msg.ack();
        msg.retry({ delaySeconds: dispatchRetryDelaySeconds(msg.attempts) });
      } catch (err) {
        logEvent(
          "queue_dispatch_error",
          {
            kind: msg.body.kind,
            jobId: msg.body.jobId,
            segment: msg.body.segment,
            deliveries: msg.attempts,
            error: err,
          },
          "error",
        );
        msg.retry({ delaySeconds: dispatchRetryDelaySeconds(msg.attempts) });
      }
    }),
  );
}
