import { toHex } from "../../platform/crypto/hex";

/**
 * The Avatar id of an Avatar creation job, derived from the job id: every attempt writes to the same
 * `avatars/{id}/…` keys and a replayed or repeated success inserts the same primary key, so a re-run can
 * never create a second Avatar. Formatted as a version-4-style UUID (the bits are a SHA-256 digest).
 */
export async function avatarIdForJob(jobId: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`avatar-of-job:${jobId.toLowerCase()}`)),
  );
  const b = digest.slice(0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = toHex(b);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
