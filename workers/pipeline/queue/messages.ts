/** The only message on the jobs queue: which job to dispatch. The job row in D1 holds everything else. */
export interface JobMessage {
  kind: "avatar" | "video";
  jobId: string;
}
