/**
 * What a failed fetch of a job's input becomes: the Avatar source download (a refusal with its reason),
 * a video's media downloads (the input named in every message), and the Avatar's own files read back
 * from the Worker by a video run.
 */
import { type FetchError, LinkError, type RendererConfig, transientStatus } from "../io/public";
import { fileEmpty, fileTooLarge, refusal } from "./avatar-refusals";
import { JobFailure, unexpectedFailure } from "./failures";

// ── Downloads: the Avatar's source image, a video's media ──────────────────────────────────────────────
const seconds = (ms: number) => `${+(ms / 1000).toFixed(1)} s`;

/**
 * The Avatar source download's error as a refusal; retryable where the cause can go away by itself
 * (timeouts, 5xx, DNS, dropped connections).
 */
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

/** A video's media downloads: the input named in every message (spec "Video job failure codes"). */
export type MediaInput = "audio" | "background image";

export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

function formatBytes(n: number): string {
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

// ── The Avatar's files, read back by a video run ───────────────────────────────────────────────────────
const INVALID_MANIFEST = "The Avatar's stored data is missing or invalid.";

/** The Avatar's stored data is missing or cannot be used. */
export const invalidManifest = (detail: string) => new JobFailure("invalid_manifest", INVALID_MANIFEST, { detail });

/** Failures reading the Avatar's own artifacts back from the Worker. */
export function objectFailure(what: string) {
  return (err: unknown): never => {
    if (err instanceof LinkError && err.status === 404) {
      throw invalidManifest(`${what} is missing (404)`);
    }
    if (err instanceof LinkError && err.permanent) {
      throw invalidManifest(`${what}: ${err.message}`);
    }
    if (err instanceof LinkError) throw unexpectedFailure("video", `${what}: ${err.message}`);
    throw err;
  };
}
