import type { Env } from "../env";
import type { JobMessage } from "./messages";

// Placeholder: replaced by the pipeline's owner.
export async function consumeJobs(batch: MessageBatch<JobMessage>, _env: Env, _ctx: ExecutionContext) {
  batch.retryAll();
}
