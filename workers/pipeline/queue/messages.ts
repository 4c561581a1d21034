/** The only message on the jobs queue: which job (or which run of a split render) to dispatch. D1 holds the rest. */
export interface JobMessage {
  kind: "avatar" | "video";
  jobId: string;
  /** A split render's run (video_segments.idx): a segment, or the join (idx = the job's segment count). */
  segment?: number;
}

/**
 * A run's name where one job may have several (the renderer pool's leases, the run's token): the job id for
 * the job's own run, `{jobId}/{idx}` for a run of a split render.
 */
export const runId = (m: Pick<JobMessage, "jobId" | "segment">) =>
  m.segment === undefined ? m.jobId : `${m.jobId}/${m.segment}`;

/** The message that dispatches a run named by runId. */
export function runMessage(kind: JobMessage["kind"], run: string): JobMessage {
  const [jobId, segment] = run.split("/");
  return segment === undefined ? { kind, jobId } : { kind, jobId, segment: Number(segment) };
}
