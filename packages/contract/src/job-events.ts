/**
 * The events a renderer run posts to its callback URL, and the Worker's answers (docs/architecture.md,
 * "Renderer contract"). The renderer builds them with these types; the Worker validates them with this schema.
 */
import { z } from "zod";
import { MAX_SEGMENTS } from "./dispatch";

/** Stage names: lower-case words joined by underscores (documented in docs/pipeline.md). */
export const STAGE_RE = /^[a-z][a-z0-9_]{0,47}$/;

/** Stage at which Avatar preprocessing is complete: the Worker captures the reserved unit. */
export const PREPROCESSED_STAGE = "preprocessed";
/** Stage a video run reports before rendering frames: the Worker checks access again there. */
export const RENDERING_STAGE = "rendering";

export const ProgressEvent = z.object({
  type: z.literal("progress"),
  stage: z.string().regex(STAGE_RE, "stage must be lower_snake_case, at most 48 characters"),
});

export const SucceededEvent = z.object({ type: z.literal("succeeded"), result: z.unknown().optional() });

/** `error` of a failed event. `reason`/`detail` are kept by the Worker only when valid, so they never fail the event. */
export const ReportedError = z.object({
  code: z.string().min(1).max(64),
  message: z.string().max(2000).optional(),
  retryable: z.boolean().optional(),
  /** Avatar jobs: a code of AVATAR_REASONS. */
  reason: z.string().max(64).optional(),
  /** One sentence for the client: the measured value and the rule. */
  detail: z.string().max(2000).optional(),
});

export const FailedEvent = z.object({ type: z.literal("failed"), error: ReportedError });

/**
 * A run dispatched with `split` ends here instead of rendering: its audio is long, the video is rendered in
 * `segments` segments on runs of their own (dispatch.ts). Terminal for the run, not for the job.
 */
export const SplitEvent = z.object({
  type: z.literal("split"),
  segments: z.number().int().min(2).max(MAX_SEGMENTS),
});

export const JobEvent = z.discriminatedUnion("type", [ProgressEvent, SucceededEvent, FailedEvent, SplitEvent]);
export type JobEvent = z.infer<typeof JobEvent>;
export type ReportedError = z.infer<typeof ReportedError>;

/** The error the Worker stores and tells a run to stop with. */
export interface JobErrorBody {
  code: string;
  message: string;
  retryable: boolean;
  reason?: string;
  detail?: string;
}

/** Answer to an event; `abort` tells the renderer to stop this run and report nothing more. */
export type EventAnswer = { ok: true } | { ignored: true; abort?: JobErrorBody } | { abort: JobErrorBody };
