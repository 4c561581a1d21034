import { AwsClient } from "aws4fetch";
import type { Env } from "../env";

type S3Env = Pick<Env, "R2_ACCESS_KEY_ID" | "R2_SECRET_ACCESS_KEY" | "R2_S3_ENDPOINT" | "R2_BUCKET_NAME">;

/** True when all four R2 S3 settings are present: video links are then S3 presigned URLs. */
export function s3PresignConfigured(env: S3Env): boolean {
  return Boolean(env.R2_ACCESS_KEY_ID && env.R2_SECRET_ACCESS_KEY && env.R2_S3_ENDPOINT && env.R2_BUCKET_NAME);
}

/** AWS SigV4 datetime: YYYYMMDDTHHMMSSZ. */
const amzDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/**
 * Presigned GET for `key` on the R2 S3 endpoint (path-style), valid from `nowMs` until `expiresAtSec`
 * (X-Amz-Date + X-Amz-Expires). S3 accepts 1 s to 7 days.
 */
export async function presignGet(env: S3Env, key: string, nowMs: number, expiresAtSec: number): Promise<string> {
  const signedAtSec = Math.floor(nowMs / 1000);
  const lifetime = expiresAtSec - signedAtSec;
  if (lifetime < 1 || lifetime > 604_800) throw new Error(`presign lifetime ${lifetime}s is outside 1 s..7 days`);
  const client = new AwsClient({
    accessKeyId: env.R2_ACCESS_KEY_ID!,
    secretAccessKey: env.R2_SECRET_ACCESS_KEY!,
    service: "s3",
    region: "auto",
  });
  const url = new URL(`${env.R2_S3_ENDPOINT!.replace(/\/+$/, "")}/${env.R2_BUCKET_NAME}/${key}`);
  url.searchParams.set("X-Amz-Expires", String(lifetime));
  const signed = await client.sign(url.toString(), {
    method: "GET",
    aws: { signQuery: true, datetime: amzDate(signedAtSec * 1000) },
  });
  return signed.url;
}
