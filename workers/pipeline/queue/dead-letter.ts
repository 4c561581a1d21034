import { logEvent } from "../../platform/logging/log-event";
import type { JobMessage } from "./messages";

/** Dead-letter queues are named after the queue they catch, with this suffix (wrangler.toml). */
export const DEAD_LETTER_SUFFIX = "-dlq";

export const isDeadLetterQueue = (queue: string): boolean => queue.endsWith(DEAD_LETTER_SUFFIX);

/**
 * A message that ran out of retries. The job itself is not lost (D1 is the record and the sweep re-sends a job
 * left queued), but the operator must see it: one error line per message, then ack so the queue is drained.
 */
export function consumeDeadLetters(batch: MessageBatch<unknown>): void {
  for (const msg of batch.messages) {
    const body = msg.body as Partial<JobMessage> | null;
    logEvent(
      "queue_dead_letter",
      {
        queue: batch.queue,
        messageId: msg.id,
        kind: typeof body?.kind === "string" ? body.kind : undefined,
        jobId: typeof body?.jobId === "string" ? body.jobId : undefined,
        deliveries: msg.attempts,
      },
      "error",
    );
    msg.ack();
  }
}
