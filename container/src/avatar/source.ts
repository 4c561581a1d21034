/**
 * Downloads an Avatar source image through the SSRF-safe fetcher with the spec's limits (answer within
 * 3 s, at most 5 MiB) and turns every fetch error into a refusal with its reason. Used by Avatar jobs and
 * by the synchronous pre-flight check (POST /checks), so both judge a URL the same way.
 */
import { type RendererConfig, FetchError, safeFetch, transientStatus } from "../io/public";
import type { JobFailure } from "../job-failure";
import { fileEmpty, fileTooLarge, refusal } from "./rejections";

export type SourceImage = Awaited<ReturnType<typeof safeFetch>>;

export async function downloadSource(
  url: string,
  config: Pick<RendererConfig, "avatar" | "allowlist">,
  signal?: AbortSignal,
): Promise<SourceImage> {
  const started = performance.now();
  try {
    return await safeFetch(url, {
      // The spec's 5 MiB: one byte more is caught while streaming (too_large → invalid_image).
      maxBytes: config.avatar.maxImageBytes,
      firstByteTimeoutMs: config.avatar.firstByteMs,
      totalTimeoutMs: config.avatar.transferDeadlineMs,
      maxRedirects: 5,
      allowlist: config.allowlist,
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (err instanceof FetchError) throw downloadRefusal(err, config.avatar, performance.now() - started);
    throw err;
  }
}

const seconds = (ms: number) => `${+(ms / 1000).toFixed(1)} s`;

/** Retryable where the cause can go away by itself (timeouts, 5xx, DNS, dropped connections). */
export function downloadRefusal(err: FetchError, limits: RendererConfig["avatar"], elapsedMs: number): JobFailure {
  const log = `${err.kind}: ${err.message}`;
  switch (err.kind) {
    case "too_large":
      return fileTooLarge();
    case "empty":
      return fileEmpty();
    case "timeout":
      return elapsedMs >= limits.transferDeadlineMs - 25
        ? refusal(
            "source_timeout",
            `The image download did not finish within ${seconds(limits.transferDeadlineMs)}.`,
            log,
            true,
          )
        : refusal("source_timeout", `The image host did not answer within ${seconds(limits.firstByteMs)}.`, log, true);
    case "http_status": {
      return refusal(
        "source_http_error",
        `The image URL answered HTTP ${err.status}; it must answer 200 with the image.`,
        log,
        transientStatus(err.status),
      );
    }
    case "refused_destination":
      return refusal(
        "source_refused",
        "The image URL (or a redirect it led to) points to a private or otherwise non-public address.",
        log,
      );
    case "bad_url":
      return refusal("source_refused", "A redirect led to a URL that is not an acceptable public HTTP(S) URL.", log);
    case "too_many_redirects":
      return refusal("source_refused", "The image URL redirected more than 5 times.", log);
    case "dns_failed":
      return refusal("source_unreachable", "The image host name could not be resolved.", log, true);
    default:
      return refusal("source_unreachable", "The connection to the image host failed or was cut off.", log, true);
  }
}
