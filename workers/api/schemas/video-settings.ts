import { z } from "zod";
import {
  DIMENSION,
  FITS,
  HEX_COLOUR,
  LEAD_SECONDS,
  MAX_PIXEL_AREA,
  normalizePerformance,
  PerformanceInput,
  VIDEO_DEFAULTS,
  VIDEO_SWITCHES,
  type VideoSettings,
} from "@avatar-video/contract";

export { MAX_PIXEL_AREA, VIDEO_DEFAULTS, type VideoSettings };

const dimension = (field: string) =>
  z
    .number({ error: `video.${field} must be an integer` })
    .int(`video.${field} must be an integer`)
    .min(DIMENSION.min, `video.${field} must be between ${DIMENSION.min} and ${DIMENSION.max}`)
    .max(DIMENSION.max, `video.${field} must be between ${DIMENSION.min} and ${DIMENSION.max}`)
    // multipleOf (not a refine) so the OpenAPI document states the rule too.
    .multipleOf(2, `video.${field} must be even`)
    .meta({ default: VIDEO_DEFAULTS[field as "width" | "height"] });

const leadSeconds = (field: string) =>
  z
    .number({ error: `video.${field} must be a finite number` })
    .refine(Number.isFinite, `video.${field} must be a finite number`)
    .min(LEAD_SECONDS.min, `video.${field} must be between ${LEAD_SECONDS.min} and ${LEAD_SECONDS.max}`)
    .max(LEAD_SECONDS.max, `video.${field} must be between ${LEAD_SECONDS.min} and ${LEAD_SECONDS.max}`)
    .meta({
      default: 0,
      description: `Additional idle time ${field === "leadInSeconds" ? "before the opening" : "after the closing"} transition, seconds`,
    });

/** The `video` field of POST /videos, as the caller sends it (every field optional). */
export const VideoSettingsInput = z
  .strictObject(
    {
      width: dimension("width").optional(),
      height: dimension("height").optional(),
      fit: z
        .enum(FITS, { error: `video.fit must be one of ${FITS.join(", ")}` })
        .meta({ default: "crop" })
        .optional(),
      backgroundColor: z
        .string({ error: "video.backgroundColor must be a string" })
        .regex(HEX_COLOUR, "video.backgroundColor must be a six-digit hex colour like #1A2B3C")
        .meta({ default: "#000000", description: "Six-digit RGB hex colour with leading #, either case" })
        .optional(),
      backgroundFit: z
        .enum(["cover", "contain", "stretch"], { error: "video.backgroundFit must be one of cover, contain, stretch" })
        .meta({ default: "cover" })
        .optional(),
      leadInSeconds: leadSeconds("leadInSeconds").optional(),
      leadOutSeconds: leadSeconds("leadOutSeconds").optional(),
      replaceBackground: z
        .boolean({ error: "video.replaceBackground must be a boolean" })
        .meta({
          default: false,
          description:
            "Put the person on backgroundColor instead of the photo's own backdrop when no background image is in effect (with a background image, from backgroundUrl or saved on the Avatar, the person is always in front of it)",
        })
        .optional(),
      alpha: z
        .boolean({ error: "video.alpha must be a boolean" })
        .meta({
          default: false,
          description:
            "Also render the person alone on a transparent background: a WebM with alpha (VP9, yuva420p, Opus audio) of the same frames and audio, linked as alphaVideoUrl, kept and deleted with the MP4",
        })
        .optional(),
      performance: PerformanceInput.optional(),
    },
    {
      error: (iss) =>
        iss.code === "unrecognized_keys"
          ? `video has unknown field(s): ${iss.keys.join(", ")}`
          : "video must be an object",
    },
  )
  .refine((v) => (v.width ?? VIDEO_DEFAULTS.width) * (v.height ?? VIDEO_DEFAULTS.height) <= MAX_PIXEL_AREA, {
    message: `video.width × video.height must be at most ${MAX_PIXEL_AREA} pixels (defaults count for an omitted dimension)`,
    path: ["width"],
  })
  .meta({
    id: "VideoSettings",
    description: `Presentation settings of a video; every field optional. The effective width × height (defaults count for an omitted dimension) must be at most ${MAX_PIXEL_AREA} pixels. Encoding is managed by the service and cannot be set.`,
  });

/**
 * Every default filled in and the colour lower-cased: an omitted setting equals its explicit default. The
 * switches are kept only when true, so `false` and omitted are the same stored input (and retry key); so is
 * a performance that changes nothing (contract `normalizePerformance`).
 */
export function normalizeVideoSettings(input: z.infer<typeof VideoSettingsInput> | undefined): VideoSettings {
  // A field present but undefined (a console form without it) is omitted, not a value over the default.
  const given = Object.fromEntries(Object.entries(input ?? {}).filter(([, value]) => value !== undefined));
  const v = { ...VIDEO_DEFAULTS, ...given } as VideoSettings;
  const settings = { ...v, backgroundColor: v.backgroundColor.toLowerCase() };
  for (const key of VIDEO_SWITCHES) if (settings[key] !== true) delete settings[key];
  const performance = normalizePerformance(input?.performance);
  if (performance) settings.performance = performance;
  else delete settings.performance;
  return settings;
}
