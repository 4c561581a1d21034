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

export const VideoDispatchSchema = z
  .object({
    kind: z.literal("video"),
    ...base,
    /** `matte`: the Avatar's stored matte; a 404 there (an Avatar made before mattes) has it computed, and stored at `outputs.matte`. */
    avatar: z.object(
      { portrait: endpointUrl, rig: endpointUrl, background: optional(endpointUrl), matte: optional(endpointUrl) },
      { error: "must be an object" },
    ),
    audioUrl: sourceUrl,
    backgroundUrl: optional(sourceUrl),
    settings: VideoSettingsSchema,
    /** `alphaVideo`: the WebM with alpha, required when `settings.alpha` is true. */
    outputs: z.object(
      { video: endpointUrl, alphaVideo: optional(endpointUrl), matte: optional(endpointUrl) },
      { error: "must be an object" },
    ),
  })
  .refine((d) => !d.settings.alpha || d.outputs.alphaVideo !== undefined, {
    path: ["outputs", "alphaVideo"],
    message: "is required when settings.alpha is true",
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
