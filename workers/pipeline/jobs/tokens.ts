import type { Env } from "../../platform/env";
import { sign, verify } from "../../platform/crypto/hmac";

export type JobKind = "avatar" | "video";

// The renderer's credential for one run of one job: HMAC(SIGNING_SECRET, kind:jobId:attempt). It
// authenticates events and object transfers and says which job (and so which keys) they may touch.
const message = (kind: JobKind, jobId: string, attempt: number) => `renderer-job-v1:${kind}:${jobId}:${attempt}`;

export function jobToken(
  env: Pick<Env, "SIGNING_SECRET">,
  kind: JobKind,
  jobId: string,
  attempt: number,
): Promise<string> {
  return sign(env.SIGNING_SECRET, message(kind, jobId, attempt));
}

/** The job kind the Bearer token was issued for, or null when it is not a token of this job and attempt. */
export async function verifyJobToken(
  env: Pick<Env, "SIGNING_SECRET">,
  authorization: string | undefined,
  jobId: string,
  attempt: number,
): Promise<JobKind | null> {
  const match = /^Bearer ([A-Za-z0-9_-]{1,128})$/.exec(authorization ?? "");
  if (!match) return null;
  for (const kind of ["avatar", "video"] as const) {
    if (await verify(env.SIGNING_SECRET, message(kind, jobId, attempt), match[1])) return kind;
  }
  return null;
}
