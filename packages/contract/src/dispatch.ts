/**
 * The dispatch body of `POST {renderer}/jobs` (docs/architecture.md, "Renderer contract"): the Worker builds
 * it (workers/pipeline/renderer/payload.ts), the renderer validates it with `parseDispatch` before accepting the run.
 */
import { z } from "zod";
import { CUE_EASE_SECONDS, cueOrder, EXPRESSIONS, MAX_TIMELINE_CUES, PERFORMANCE_RANGES } from "./performance";
import {
  BACKGROUND_FITS,
  DIMENSION,
  FITS,
  HEX_COLOUR,
  LEAD_SECONDS,
  MAX_PIXEL_AREA,
  VIDEO_DEFAULTS,
} from "./video-settings";

const MAX_URL = 8192;

/** A URL the renderer itself calls (callback, object routes): absolute http(s). */
const endpointUrl = z
  .string({ error: "must be a URL" })
  .min(1, "must be a URL")
  .max(MAX_URL, `must be at most ${MAX_URL} characters`)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return void ctx.addIssue({ code: "custom", message: "must be an absolute URL" });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      ctx.addIssue({ code: "custom", message: "must be http or https" });
  });

/**
 * A caller's source URL: only "a string" here. Its rules (scheme, credentials, address policy) are applied
 * by the renderer's safe fetch when the job runs, so a bad URL ends the job with its failure code instead of
 * making the dispatch itself fail again and again.
 */
const sourceUrl = z
  .string({ error: "must be a URL string" })
  .min(1, "must be a URL string")
  .max(MAX_URL, "must be a URL string");

/** Absent and null both mean "none". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v), schema.optional());

const dimension = z
  .number({ error: `must be an even integer from ${DIMENSION.min} to ${DIMENSION.max}` })
  .int(`must be an even integer from ${DIMENSION.min} to ${DIMENSION.max}`)
  .min(DIMENSION.min, `must be an even integer from ${DIMENSION.min} to ${DIMENSION.max}`)
  .max(DIMENSION.max, `must be an even integer from ${DIMENSION.min} to ${DIMENSION.max}`)
  .refine((n) => n % 2 === 0, `must be an even integer from ${DIMENSION.min} to ${DIMENSION.max}`);

const leadSeconds = z
  .number({ error: `must be ${LEAD_SECONDS.min} to ${LEAD_SECONDS.max}` })
  .min(LEAD_SECONDS.min, `must be ${LEAD_SECONDS.min} to ${LEAD_SECONDS.max}`)
  .max(LEAD_SECONDS.max, `must be ${LEAD_SECONDS.min} to ${LEAD_SECONDS.max}`);

/** A switch of the settings: absent (stored when false, and by jobs made before it existed) is false. */
const flag = z.boolean({ error: "must be a boolean" }).optional();

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

const ranged = (field: keyof typeof PERFORMANCE_RANGES) => {
  const { min, max } = PERFORMANCE_RANGES[field];
  return z
    .number({ error: `must be ${min} to ${max}` })
    .min(min, `must be ${min} to ${max}`)
    .max(max, `must be ${min} to ${max}`);
};

/** A normalised performance (contract performance.ts): every field present, cues sorted and apart. */
const PerformanceSchema = z.object(
  {
    expression: oneOf(EXPRESSIONS),
    intensity: ranged("intensity"),
    timeline: z
      .array(
        z.object(
          { atSeconds: ranged("atSeconds"), expression: oneOf(EXPRESSIONS), intensity: ranged("intensity") },
          { error: "must be an object" },
        ),
        { error: "must be an array" },
      )
      .max(MAX_TIMELINE_CUES, `must have at most ${MAX_TIMELINE_CUES} cues`)
      .refine(
        (cues) => cues.every((c, i) => i === 0 || cueOrder(cues[i - 1].atSeconds, c.atSeconds) === "ok"),
        `must be sorted by atSeconds, at least ${CUE_EASE_SECONDS} s apart`,
      ),
    headMotion: ranged("headMotion"),
    emphasis: ranged("emphasis"),
    blinksPerMinute: ranged("blinksPerMinute"),
  },
  { error: "must be an object" },
);

/** Validated video settings; omitted fields take the defaults, the colour is stored lower-case. */
export const VideoSettingsSchema = z.preprocess(
  (v) => (v === undefined || v === null ? {} : v),
  z
    .object(
      {
        width: dimension.default(VIDEO_DEFAULTS.width),
        height: dimension.default(VIDEO_DEFAULTS.height),
        fit: oneOf(FITS).default(VIDEO_DEFAULTS.fit),
        backgroundColor: z
          .string({ error: "must be #rrggbb" })
          .regex(HEX_COLOUR, "must be #rrggbb")
          .transform((c) => c.toLowerCase())
          .default(VIDEO_DEFAULTS.backgroundColor),
        backgroundFit: oneOf(BACKGROUND_FITS).default(VIDEO_DEFAULTS.backgroundFit),
        leadInSeconds: leadSeconds.default(VIDEO_DEFAULTS.leadInSeconds),
        leadOutSeconds: leadSeconds.default(VIDEO_DEFAULTS.leadOutSeconds),
        replaceBackground: flag,
        alpha: flag,
        performance: PerformanceSchema.optional(),
      },
      { error: "must be an object" },
    )
    .refine((s) => s.width * s.height <= MAX_PIXEL_AREA, {
      path: ["width"],
      message: `× settings.height must be at most ${MAX_PIXEL_AREA} pixels`,
    }),
);

const base = {
  jobId: z.uuid({ error: "must be a UUID" }).transform((id) => id.toLowerCase()),
  attempt: z
    .number({ error: "must be a positive integer" })
    .int("must be a positive integer")
    .min(1, "must be a positive integer"),
  callbackUrl: endpointUrl,
  /** Per job+attempt HMAC: Bearer on every callback and object request. */
  token: z.string({ error: "must be a string" }).min(1, "must be a string").max(4096, "must be a string"),
};

export const AvatarDispatchSchema = z.object({
  kind: z.literal("avatar"),
  ...base,
  imageUrl: sourceUrl,
  /** `matte`: where the person matte goes (packages/contract/src/matte-format.ts); without it none is stored. */
  outputs: z.object(
    { portrait: endpointUrl, rig: endpointUrl, cover: endpointUrl, matte: optional(endpointUrl) },
    { error: "must be an object" },
  ),
});

/** A split render's most segments (docs/renderer.md "Split renders"). */
export const MAX_SEGMENTS = 8;

/** The segments a `split` dispatch makes of audio this long: 1 (whole) at or under the threshold, else ceil(audio / threshold), capped. */
export function segmentCount(audioSeconds: number, rule: { thresholdSeconds: number; maxSegments: number }): number {
  if (!(audioSeconds > rule.thresholdSeconds)) return 1;
  return Math.max(1, Math.min(Math.ceil(audioSeconds / rule.thresholdSeconds), Math.floor(rule.maxSegments)));
}

const int = (min: number, max: number) =>
  z
    .number({ error: `must be an integer from ${min} to ${max}` })
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, `must be an integer from ${min} to ${max}`)
    .max(max, `must be an integer from ${min} to ${max}`);

/**
 * Split renders (docs/pipeline.md "Split renders"). At most one of them; none: the whole video on this run.
 * - `split`: the run may split: audio over `thresholdSeconds` becomes ceil(audio / threshold) segments, at most
 *   `maxSegments`, reported in a `split` event instead of rendering.
 * - `segment`: render segment `index` of `count` (its frames only, no audio) to `outputs.video`; segment 0
 *   also encodes the video's one audio track to `outputs.audioTrack`.
 * - `join`: concatenate the segments' files (`parts`, in order) and the audio track into `outputs.video`,
 *   checked to hold `frames` frames.
 */
const splitFields = {
  split: optional(
    z.object({ thresholdSeconds: int(1, 3600), maxSegments: int(2, MAX_SEGMENTS) }, { error: "must be an object" }),
  ),
  segment: optional(
    z
      .object({ index: int(0, MAX_SEGMENTS - 1), count: int(2, MAX_SEGMENTS) }, { error: "must be an object" })
      .refine((s) => s.index < s.count, { path: ["index"], message: "must be below count" }),
  ),
  join: optional(
    z.object(
      {
        parts: z.array(endpointUrl, { error: "must be an array" }).min(2).max(MAX_SEGMENTS),
        audioTrack: endpointUrl,
        frames: int(1, 10_000_000),
      },
      { error: "must be an object" },
    ),
  ),
};

export const VideoDispatchSchema = z
  .object({
    kind: z.literal("video"),
    ...base,
    ...splitFields,
    /** `matte`: the Avatar's stored matte; a 404 there (an Avatar made before mattes) has it computed, and stored at `outputs.matte`. */
    avatar: z.object(
      { portrait: endpointUrl, rig: endpointUrl, background: optional(endpointUrl), matte: optional(endpointUrl) },
      { error: "must be an object" },
    ),
    audioUrl: sourceUrl,
    backgroundUrl: optional(sourceUrl),
    settings: VideoSettingsSchema,
    /** `alphaVideo`: the WebM with alpha, required when `settings.alpha` is true. */
    /** `audioTrack`: segment 0's second output, the video's one audio track. */
    outputs: z.object(
      {
        video: endpointUrl,
        alphaVideo: optional(endpointUrl),
        matte: optional(endpointUrl),
        audioTrack: optional(endpointUrl),
      },
      { error: "must be an object" },
    ),
  })
  .refine((d) => !d.settings.alpha || d.outputs.alphaVideo !== undefined, {
    path: ["outputs", "alphaVideo"],
    message: "is required when settings.alpha is true",
  })
  .refine((d) => [d.split, d.segment, d.join].filter(Boolean).length <= 1, {
    path: ["split"],
    message: "cannot be combined with segment or join",
  })
  .refine((d) => !(d.segment || d.join) || !d.settings.alpha, {
    path: ["settings", "alpha"],
    message: "cannot be true for a segment or a join (a render with the alpha video is not split)",
  })
  .refine((d) => d.segment?.index !== 0 || d.outputs.audioTrack !== undefined, {
    path: ["outputs", "audioTrack"],
    message: "is required for segment 0",
  });

export const DispatchSchema = z.discriminatedUnion("kind", [AvatarDispatchSchema, VideoDispatchSchema], {
  error: "must be avatar or video",
});

export type AvatarDispatch = z.output<typeof AvatarDispatchSchema>;
export type VideoDispatch = z.output<typeof VideoDispatchSchema>;
export type Dispatch = AvatarDispatch | VideoDispatch;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The first problem, as `field: rule` (the field in dotted form), or the validated dispatch. */
export function parseDispatch(body: unknown): Parsed<Dispatch> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, error: "body must be a JSON object" };
  const result = DispatchSchema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const field = issue.path.join(".");
  return { ok: false, error: field ? `${field} ${issue.message}` : issue.message };
}
