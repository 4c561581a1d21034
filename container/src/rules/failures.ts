/**
 * How a renderer job fails, in one module: JobFailure (a job ends `failed` with a code of the shared table,
 * @avatar-video/contract job-failures.ts, and `retryable` from it unless the thrower knows better) and the
 * builders that turn what went wrong into a code, a message that names the input and the rule, and an honest
 * `retryable`: Avatar image refusals (with their reason), Avatar failures after the image was accepted,
 * download errors of the Avatar's source and of a video's media, and Avatar files the Worker cannot serve.
 * A one-off failure is thrown where it happens: `new JobFailure("code", "What happened and the rule.")`.
 */
import {
  AVATAR_FAILURES,
  AVATAR_REASONS,
  type AvatarReason,
  failureEntry,
  type JobKind,
  UNEXPECTED_FAILURE_CODE,
} from "@avatar-video/contract";
import { type FetchError, LinkError, type RendererConfig, transientStatus } from "../io/public";
import * as R from "./image-rules";

/** The table's `retryable` for a code of either kind (the codes of the two kinds are distinct). */
const defaultRetryable = (code: string) =>
  (failureEntry("avatar", code) ?? failureEntry("video", code))?.retryable ?? false;

export interface JobFailureOptions {
  /** Only where this failure differs from the table's default for its code (e.g. a 404 from a source). */
  retryable?: boolean;
  /** Internal detail for logs only; never sent to API clients. */
  detail?: string;
  /**
   * What the client is told beyond the code: `reason` (Avatar jobs: a code of @avatar-video/contract's
   * AVATAR_REASONS) and `clientDetail`, one sentence with the measured value and the rule.
   */
  explain?: { reason?: string; clientDetail?: string };
}

/**
 * A job ends in `failed` with a spec failure code. Thrown anywhere in the renderer; the job runner
 * turns it into the `failed` event. `retryable` is the failure table's value for the code unless the
 * thrower knows better (true only where resubmitting may succeed).
 */
export class JobFailure extends Error {
  readonly retryable: boolean;
  readonly detail?: string;
  readonly explain?: { reason?: string; clientDetail?: string };

  constructor(
    readonly code: string,
    message: string,
    options: JobFailureOptions = {},
  ) {
    super(message);
    this.name = "JobFailure";
    this.retryable = options.retryable ?? defaultRetryable(code);
    this.detail = options.detail;
    this.explain = options.explain;
  }

  get reason(): string | undefined {
    return this.explain?.reason;
  }

  get clientDetail(): string | undefined {
    return this.explain?.clientDetail;
  }

  /** The `error` of the `failed` event (docs/architecture.md). */
  toEventError(): { code: string; message: string; retryable: boolean; reason?: string; detail?: string } {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.clientDetail ? { detail: this.clientDetail } : {}),
    };
  }
}

/**
 * Something broke on our side (an exception, an upload that kept failing): the kind's code for unexpected
 * failures with the shared table's message, retryable. `detail` goes to the logs only.
 */
export function unexpectedFailure(kind: JobKind, detail: string): JobFailure {
  const code = UNEXPECTED_FAILURE_CODE[kind];
  return new JobFailure(code, failureEntry(kind, code)!.message, { detail });
}

// ── Avatar refusals: the image breaks a rule ───────────────────────────────────────────────────────────
/** A refusal or failure with its reason and client sentence; `log` is for the renderer's logs only. */
export function refusal(reason: AvatarReason, clientDetail: string, log?: string, retryable = false): JobFailure {
  const code = AVATAR_REASONS[reason].code;
  return new JobFailure(code, AVATAR_FAILURES[code].message, {
    retryable,
    detail: log ?? `${reason}: ${clientDetail}`,
    explain: { reason, clientDetail },
  });
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const deg = (n: number) => `${Math.round(Math.abs(n))}°`;

// ── file ───────────────────────────────────────────────────────────────────────────────────────────────
export const fileTooLarge = (bytes?: number) =>
  refusal(
    "file_too_large",
    bytes === undefined
      ? `The file is larger than ${int(R.MAX_SOURCE_BYTES)} bytes (5 MiB), the most accepted.`
      : `The file is ${int(bytes)} bytes; at most ${int(R.MAX_SOURCE_BYTES)} bytes (5 MiB) is accepted.`,
  );
export const fileEmpty = () => refusal("file_empty", "The image URL returned an empty file.");
export const unsupportedFormat = (seen: string) =>
  refusal("unsupported_format", `The file is ${seen}; only JPEG and PNG are accepted.`);
export const imageUnreadable = (format: string, log: string) =>
  refusal(
    "image_unreadable",
    `The file starts like a ${format.toUpperCase()} but cannot be decoded; it may be truncated or corrupt.`,
    log,
  );
export const imageTooSmall = (width: number, height: number) =>
  refusal(
    "image_too_small",
    `The image is ${width}×${height} px; its shorter side must be at least ${R.MIN_SHORT_SIDE} px. Use a larger photo.`,
  );
export const imageTooManyPixels = (width: number, height: number) =>
  refusal(
    "image_too_many_pixels",
    `The image is ${width}×${height} px (${((width * height) / 1e6).toFixed(0)} MP); at most ${R.MAX_SOURCE_PIXELS / 1e6} MP is accepted.`,
  );
export const imageTransparent = (pixels: number) =>
  refusal(
    "image_transparent",
    `The PNG has ${int(pixels)} transparent or translucent pixel${pixels === 1 ? "" : "s"}; it must be fully opaque.`,
  );

// ── faces ──────────────────────────────────────────────────────────────────────────────────────────────
export const noFace = (smallestFindablePx: number) =>
  refusal(
    "no_face",
    smallestFindablePx > R.CLEAR_MIN_FACE_WIDTH_PX
      ? `No face was found; in a photo this large only faces at least ${int(smallestFindablePx)} px wide can be found. Use a photo of one face looking at the camera.`
      : "No face was found. Use a photo of one face looking at the camera.",
  );
export const multipleFaces = (n: number) =>
  refusal("multiple_faces", `${n} faces were found; exactly one is needed. Crop the photo to one person.`);
export const faceTooSmall = (widthPx: number) =>
  refusal(
    "face_too_small",
    `The face is ${int(widthPx)} px wide; at least ${R.CLEAR_MIN_FACE_WIDTH_PX} px is needed. Use a closer or larger photo.`,
  );
export const faceBlurred = (sharpness: number) =>
  refusal(
    "face_blurred",
    `The face is blurred (sharpness ${sharpness.toFixed(3)}; at least ${R.CLEAR_MIN_SHARPNESS.toFixed(3)} is needed). Use a sharp, in-focus photo.`,
  );
export const faceTurned = (axis: "yaw" | "pitch", angle: number) =>
  refusal(
    "face_turned",
    axis === "yaw"
      ? `The head is turned ${deg(angle)} to the side; at most ${R.CLEAR_MAX_YAW}° is accepted. Use a photo looking at the camera.`
      : `The head is tilted ${deg(angle)} ${angle > 0 ? "up" : "down"}; at most ${R.CLEAR_MAX_PITCH}° is accepted. Use a photo looking at the camera.`,
  );
export const faceTilted = (roll: number) =>
  refusal(
    "face_tilted",
    `The head is tilted ${deg(roll)} sideways; at most ${R.CLEAR_MAX_ROLL}° is accepted. Straighten the photo.`,
  );
export const faceOccluded = (what: "mesh" | "detector", score: number) =>
  refusal(
    "face_occluded",
    what === "mesh"
      ? `A face was found but its features could not be traced (landmark confidence ${score.toFixed(2)}; at least ${R.CLEAR_MIN_MESH_SCORE.toFixed(2)} is needed). Make sure nothing covers the face and it is well lit.`
      : `The face is unclear (detector confidence ${score.toFixed(2)}; at least ${R.CLEAR_MIN_DETECTOR_SCORE.toFixed(2)} is needed). Make sure nothing covers the face and it is well lit.`,
  );
export const faceCutOff = (side: string, px: number) =>
  refusal(
    "face_cut_off",
    `The face reaches ${int(Math.max(1, px))} px past the ${side} edge of the image; the whole face must be inside the photo.`,
  );

// ── Avatar failures after the image was accepted ───────────────────────────────────────────────────────
/** After validation: resubmitting helps only when the cause was plausibly transient (e.g. memory). */
export function preprocessFailed(detail: string, retryable: boolean): JobFailure {
  return refusal(
    "preprocess_error",
    retryable
      ? "The image passed every check but the renderer ran short of resources while cropping it; submit it again."
      : "The image passed every check but could not be cropped or encoded.",
    detail,
    retryable,
  );
}

export function avatarGenerationFailed(detail: string): JobFailure {
  return refusal("generation_error", "The face was found but could not be turned into an animatable Avatar.", detail);
}

/** Our fault (e.g. the face models did not load): the same request may well succeed later. */
export function internalError(detail: string): JobFailure {
  return refusal("internal", "An unexpected error occurred on our side; submit the request again.", detail, true);
}

/** Out-of-memory style errors: another attempt on a less busy renderer may succeed. */
export function looksTransient(err: unknown): boolean {
  const text =
    err instanceof Error ? `${err.name} ${err.message} ${(err as NodeJS.ErrnoException).code ?? ""}` : String(err);
  return /ENOMEM|EMFILE|ENFILE|EAGAIN|out of memory|allocation failed|Cannot allocate/i.test(text);
}

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
