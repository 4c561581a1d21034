import { conflict } from "../../platform/http/errors";

/** Same requestId, different normalized input: the caller must resend the original body or use a new key. */
export function retryConflict(requestId: string) {
  return conflict(
    `requestId ${requestId} already identifies a different request (other normalized input). Retry the original body or use a new requestId.`,
  );
}
