import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../../workers/index";
import type { JobMessage } from "../../../workers/pipeline/queue/messages";

afterEach(() => vi.restoreAllMocks());

describe("dead-letter queue", () => {
  it("the Worker's queue handler logs each dead letter as an error and acks it (no message dies silently)", async () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void errors.push(String(line)));
    const jobId = crypto.randomUUID();
    const batch = createMessageBatch<JobMessage>("avatar-video-jobs-dlq", [
      { id: "dl1", timestamp: new Date(), attempts: 1, body: { kind: "video", jobId } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["dl1"]);
    expect(result.retryMessages).toEqual([]);
    const logged = errors
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.event === "queue_dead_letter");
    expect(logged).toMatchObject({
      level: "error",
      queue: "avatar-video-jobs-dlq",
      kind: "video",
      jobId,
      messageId: "dl1",
    });
  });
});
