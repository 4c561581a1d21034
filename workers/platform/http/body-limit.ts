import { bodyLimit } from "hono/body-limit";
import { invalid } from "./errors";

/**
 * Largest accepted request body. The spec leaves it "not shown"; every body of this API is a few
 * hundred bytes (URLs are at most 4096 characters each), so 64 KiB leaves ample room.
 */
export const MAX_BODY_BYTES = 64 * 1024;

/** Over the limit → 400 invalid_request naming the limit. Declared length and streamed bodies both count. */
export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw invalid(`Request body must be at most ${MAX_BODY_BYTES} bytes (64 KiB)`);
  },
});
