/**
 * How the Avatar performs (`video.performance`, the live `start` and `perform` messages): an expression with
 * its intensity, a timeline of expression cues on the audio's time axis, head motion, speech emphasis and the
 * blink rate. Defined once: the Worker's request schema, the dispatch check, the motion model and the live
 * protocol read these values (docs/performance.md). Pure TypeScript, no imports.
 */
export const EXPRESSIONS = ["neutral", "happy", "serious", "surprised", "sad"] as const;
export type Expression = (typeof EXPRESSIONS)[number];
/** The expressions drawn on the photo's face (`neutral` is the photo's own). */
export type DrawnExpression = Exclude<Expression, "neutral">;
export const DRAWN_EXPRESSIONS = ["happy", "serious", "surprised", "sad"] as const satisfies readonly DrawnExpression[];

/** Inclusive ranges of the numeric controls. */
export const PERFORMANCE_RANGES = {
  intensity: { min: 0, max: 1 },
  headMotion: { min: 0, max: 3 },
  emphasis: { min: 0, max: 2 },
  blinksPerMinute: { min: 0, max: 40 },
  /** A cue's time on the audio's axis: at most the longest audio a video takes (one hour). */
  atSeconds: { min: 0, max: 3600 },
} as const;

export const MAX_TIMELINE_CUES = 100;
/** Each cue (and each live `perform`) eases in over this long; cues must be at least this far apart. */
export const CUE_EASE_SECONDS = 0.3;

/**
 * Whether a cue at `at` may follow one at `before`: later by at least the ease (a microsecond of slack, so
 * times written as decimal steps such as 0.3 × i pass).
 */
export function cueOrder(before: number, at: number): "ok" | "unsorted" | "overlapping" {
  if (at < before) return "unsorted";
  return at - before >= CUE_EASE_SECONDS - 1e-6 ? "ok" : "overlapping";
}

export interface ExpressionCue {
  /** Seconds on the audio's time axis (0 = the audio's first sample). */
  atSeconds: number;
  expression: Expression;
  intensity: number;
}

export interface Performance {
  /** Held from the start until the first cue. */
  expression: Expression;
  intensity: number;
  /** Sorted by atSeconds, each at least CUE_EASE_SECONDS after the one before. */
  timeline: ExpressionCue[];
  /** Multiplier of the head's movement: 0 still, 1 as before this control, 3 a lively presenter. */
  headMotion: number;
  /** Multiplier of the speech-driven nods and brow raises on stressed syllables. */
  emphasis: number;
  blinksPerMinute: number;
}

/**
 * The defaults: today's animation. `blinksPerMinute` 19 is the mean of the random blink schedule that videos
 * have always had (intervals 1.2–7 s, an occasional double blink); that schedule is kept for the default, any
 * other rate is met evenly (docs/performance.md, "Blinks").
 */
export const PERFORMANCE_DEFAULTS = {
  expression: "neutral",
  intensity: 0.6,
  timeline: [],
  headMotion: 1,
  emphasis: 1,
  blinksPerMinute: 19,
} as const satisfies Performance;

/** What a caller may leave out: every field of the performance, a cue's intensity. */
export interface PerformanceFields {
  expression?: Expression;
  intensity?: number;
  timeline?: { atSeconds: number; expression: Expression; intensity?: number }[];
  headMotion?: number;
  emphasis?: number;
  blinksPerMinute?: number;
}

/**
 * Defaults filled in and equivalent inputs made equal: an expression at intensity 0 is `neutral`, and
 * `neutral` (the photo's own expression) has no intensity of its own (stored as the default). Undefined when
 * the result changes nothing, so an omitted performance and the explicit defaults are the same input.
 */
export function normalizePerformance(input: PerformanceFields | undefined): Performance | undefined {
  const given = Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined));
  const p = { ...PERFORMANCE_DEFAULTS, ...given } as Performance;
  const pose = (expression: Expression, intensity: number) =>
    expression === "neutral" || intensity === 0
      ? { expression: "neutral" as const, intensity: PERFORMANCE_DEFAULTS.intensity }
      : { expression, intensity };
  const out: Performance = {
    ...pose(p.expression, p.intensity),
    timeline: p.timeline.map((c) => ({
      atSeconds: c.atSeconds,
      ...pose(c.expression, c.intensity ?? PERFORMANCE_DEFAULTS.intensity),
    })),
    headMotion: p.headMotion,
    emphasis: p.emphasis,
    blinksPerMinute: p.blinksPerMinute,
  };
  return isDefaultPerformance(out) ? undefined : out;
}

/** A performance that changes nothing: the animation as it was before the control existed. */
export function isDefaultPerformance(p: Performance): boolean {
  const d = PERFORMANCE_DEFAULTS;
  return (
    p.timeline.length === 0 &&
    (p.expression === "neutral" || p.intensity === 0) &&
    p.headMotion === d.headMotion &&
    p.emphasis === d.emphasis &&
    p.blinksPerMinute === d.blinksPerMinute
  );
}
