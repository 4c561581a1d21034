/**
 * How a failed media download becomes a video job failure (spec "Video job failure codes", "Media rules"),
 * with a message naming the input and the rule. Codes, default messages and the accepted types:
 * @avatar-video/contract (job-failures.ts, media-rules.ts).
 */
import { JobFailure } from "../job-failure";
import { FetchError, transientStatus } from "../io/public";

export type MediaInput = "audio" | "background image";

export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

export function formatBytes(n: number): string {
  const MiB = 1024 * 1024;
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  return `${n} bytes`;
}

export interface MediaLimits {
  maxBytes: number;
  transferDeadlineMs: number;
}

/**
 * Video media download failures. `elapsedMs` tells the whole-transfer deadline (preparation_timeout)
 * from a source that never answered (first-byte timeout: source_unavailable).
 */
export function mediaFetchFailure(
  input: MediaInput,
  err: FetchError,
  limits: MediaLimits,
  elapsedMs: number,
): JobFailure {
  const detail = `${input}: ${err.kind}: ${err.message}`;
  const The = input === "audio" ? "The audio" : "The background image";
  switch (err.kind) {
    case "too_large":
      return new JobFailure("media_too_large", `${The} is larger than the ${formatBytes(limits.maxBytes)} limit.`, {
        detail,
      });
    case "empty":
      return new JobFailure("empty_media", `${The} source returned an empty file.`, { detail });
    case "timeout":
      if (elapsedMs >= limits.transferDeadlineMs - 25) {
        return new JobFailure(
          "preparation_timeout",
          `${The} download did not finish within the ${formatDuration(limits.transferDeadlineMs)} transfer deadline.`,
          { detail },
        );
      }
      return new JobFailure("source_unavailable", `${The} source did not respond.`, { detail });
    case "http_status":
      return new JobFailure("source_unavailable", `${The} source answered HTTP ${err.status}.`, {
        retryable: transientStatus(err.status),
        detail,
      });
    case "refused_destination":
      return new JobFailure("source_unavailable", `${The} URL points to a destination that is not allowed.`, {
        retryable: false,
        detail,
      });
    case "bad_url":
      return new JobFailure(
        "source_unavailable",
        `${The} URL (or a redirect it led to) is not an acceptable public HTTP(S) URL.`,
        { retryable: false, detail },
      );
    case "too_many_redirects":
      return new JobFailure("source_unavailable", `${The} source redirected too many times.`, {
        retryable: false,
        detail,
      });
    case "dns_failed":
      return new JobFailure("source_unavailable", `${The} source host could not be resolved.`, { detail });
    default:
      return new JobFailure("source_unavailable", `${The} source could not be downloaded.`, { detail });
  }
}

/** A Content-Type as received, made safe to quote in a message. */
function quoteType(t: string | null): string {
  if (!t) return "no Content-Type";
  return `Content-Type "${t.replace(/[^\x20-\x7e]/g, "").slice(0, 100)}"`;
}

export function unsupportedType(
  input: MediaInput,
  contentType: string | null,
  accepted: ReadonlySet<string>,
): JobFailure {
  const The = input === "audio" ? "The audio" : "The background image";
  return new JobFailure(
    "unsupported_media_type",
    `${The} source has ${quoteType(contentType)}; accepted: ${[...accepted].join(", ")}.`,
    { detail: `${input}: content-type ${contentType}` },
  );
}

export function asFetchError(err: unknown): FetchError | undefined {
  return err instanceof FetchError ? err : undefined;
}
