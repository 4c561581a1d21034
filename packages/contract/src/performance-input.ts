/**
 * The performance as a caller writes it — `video.performance` of POST /videos (with its OpenAPI
 * description) and the live protocol's `start.performance` and `perform` — every field optional, the
 * messages naming the rule (the caller's validator prefixes the field's path).
 */
import { z } from "zod";
import {
  CUE_EASE_SECONDS,
  cueOrder,
  EXPRESSIONS,
  MAX_TIMELINE_CUES,
  PERFORMANCE_DEFAULTS,
  PERFORMANCE_RANGES,
} from "./performance";

type Ranged = keyof typeof PERFORMANCE_RANGES;

/** A finite number in its range; the message names the rule (the path is prefixed by the validator). */
const ranged = (field: Ranged) => {
  const { min, max } = PERFORMANCE_RANGES[field];
  return z
    .number({ error: "must be a finite number" })
    .refine(Number.isFinite, "must be a finite number")
    .min(min, `must be between ${min} and ${max}`)
    .max(max, `must be between ${min} and ${max}`);
};

const expression = z.enum(EXPRESSIONS, { error: `must be one of ${EXPRESSIONS.join(", ")}` });

const intensity = ranged("intensity").meta({
  default: PERFORMANCE_DEFAULTS.intensity,
  description: "How strongly the expression is drawn, 0 (none) to 1",
});

const ExpressionCue = z
  .strictObject(
    {
      atSeconds: ranged("atSeconds").meta({
        description: "When the expression starts to change, in seconds of the audio (0 = its first sample)",
      }),
      expression: expression.meta({ description: "The expression from this cue on" }),
      intensity: intensity.optional(),
    },
    {
      error: (iss) =>
        iss.code === "unrecognized_keys" ? undefined : "must be an object with atSeconds, expression and intensity",
    },
  )
  .meta({
    id: "ExpressionCue",
    description: `An expression change on the audio's time axis, eased in over ${CUE_EASE_SECONDS} s`,
  });

/** Cues in time order, each after the previous one's ease: a cue never interrupts another. */
const timeline = z
  .array(ExpressionCue, { error: "must be an array of cues" })
  .max(MAX_TIMELINE_CUES, `must have at most ${MAX_TIMELINE_CUES} cues`)
  .superRefine((cues, ctx) => {
    for (let i = 1; i < cues.length; i++) {
      const order = cueOrder(cues[i - 1].atSeconds, cues[i].atSeconds);
      if (order === "ok") continue;
      ctx.addIssue({
        code: "custom",
        path: [i, "atSeconds"],
        message:
          order === "unsorted"
            ? `must not be earlier than timeline[${i - 1}].atSeconds (cues are sorted by time)`
            : `must be at least ${CUE_EASE_SECONDS} s after timeline[${i - 1}].atSeconds (each cue eases in over ${CUE_EASE_SECONDS} s; cues must not overlap)`,
      });
    }
  })
  .meta({
    description: `Up to ${MAX_TIMELINE_CUES} expression changes, sorted by atSeconds and at least ${CUE_EASE_SECONDS} s apart`,
  });

/** The performance: every field optional; omitted or all defaults = the animation without this control. */
export const PerformanceInput = z
  .strictObject(
    {
      expression: expression
        .meta({
          default: PERFORMANCE_DEFAULTS.expression,
          description:
            "The expression held until the first cue. neutral is the photo's own; happy lifts the mouth corners and cheeks and narrows the eyes a little; serious levels the corners and lowers the brows slightly; surprised raises the brows and opens the eyes wider; sad lowers the corners and raises the inner brows. Speech moves the mouth on top.",
        })
        .optional(),
      intensity: intensity.optional(),
      timeline: timeline.optional(),
      headMotion: ranged("headMotion")
        .meta({
          default: PERFORMANCE_DEFAULTS.headMotion,
          description:
            "How much the head moves: 0 still, 1 a calm speaker (about ±1°), 2 at least 2.5× that, 3 a lively presenter (about ±3° with nods)",
        })
        .optional(),
      emphasis: ranged("emphasis")
        .meta({
          default: PERFORMANCE_DEFAULTS.emphasis,
          description: "Strength of the nods and brow raises on stressed syllables: 0 none, 1 subtle, 2 marked",
        })
        .optional(),
      blinksPerMinute: ranged("blinksPerMinute")
        .meta({
          default: PERFORMANCE_DEFAULTS.blinksPerMinute,
          description:
            "Blinks per minute, independent of head motion (0 none). The default keeps a natural, irregular rhythm; any other rate is met within a blink or two over each minute",
        })
        .optional(),
    },
    { error: (iss) => (iss.code === "unrecognized_keys" ? undefined : "must be an object") },
  )
  .meta({
    id: "Performance",
    description:
      "How the Avatar performs: its expression (changing on a timeline), head motion, emphasis and blinks. Omitted, or every field at its default, is the same input as before this field existed.",
  });

/** A live `perform` message's fields: the performance without a timeline (each message is a cue, now). */
export const PerformChange = PerformanceInput.omit({ timeline: true });
