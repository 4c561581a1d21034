/**
 * The performance over time: expression weights, head motion and emphasis, each change eased in over
 * CUE_EASE_SECONDS (smoothstep). A video builds it from its timeline (on the audio's time axis); a live
 * stream adds changes as `perform` messages arrive (on the stream's). A function of time: a change's starting
 * point is the track's value at its moment, computed once when it is added.
 */
import {
  CUE_EASE_SECONDS,
  DRAWN_EXPRESSIONS,
  type DrawnExpression,
  type Expression,
  PERFORMANCE_DEFAULTS,
  type Performance,
} from "@avatar-video/contract";
import { headGain, type HeadStyle, nodGain } from "./life";
import { smoothstep } from "./smoothstep";

/** How much of each drawn expression shows, 0..1 (all 0: the photo's own expression). */
export type ExpressionWeights = Record<DrawnExpression, number>;

export const NO_EXPRESSION: ExpressionWeights = { happy: 0, serious: 0, surprised: 0, sad: 0 };

/** What a change may set; what it leaves out stays as it was (an expression keeps the current intensity). */
export interface Direction {
  expression?: Expression;
  intensity?: number;
  headMotion?: number;
  emphasis?: number;
}

export interface PerformanceAt {
  expression: ExpressionWeights;
  /** The head's style (life.ts): headGain and nodGain of headMotion, and emphasis. */
  style: HeadStyle;
}

// Channels of a state vector: the four expressions, then headMotion and emphasis.
const HEAD = DRAWN_EXPRESSIONS.length;
const EMPHASIS = HEAD + 1;

/** Changes kept (a video's timeline has at most 100 cues; a live stream keeps its latest). */
const MAX_CHANGES = 128;

interface Change {
  at: number;
  from: number[];
  to: number[];
}

export class PerformanceTrack {
  private readonly base: number[];
  private readonly changes: Change[] = [];
  /** The latest direction in full (what the next partial change starts from). */
  private current: Required<Direction>;

  constructor(p: Performance = PERFORMANCE_DEFAULTS) {
    this.current = { expression: p.expression, intensity: p.intensity, headMotion: p.headMotion, emphasis: p.emphasis };
    this.base = vector(this.current);
    for (const cue of p.timeline) this.change(cue.atSeconds, { expression: cue.expression, intensity: cue.intensity });
  }

  /** From `at` on (not before the last change), ease towards `d`. */
  change(at: number, d: Direction): void {
    const given = Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined));
    this.current = { ...this.current, ...given };
    const last = this.changes[this.changes.length - 1];
    const when = last ? Math.max(at, last.at) : at;
    this.changes.push({ at: when, from: this.vectorAt(when), to: vector(this.current) });
    // A live stream only asks forward in time: the oldest changes are history (a video has at most 100 cues).
    if (this.changes.length > MAX_CHANGES) this.changes.splice(0, this.changes.length - MAX_CHANGES);
  }

  at(t: number): PerformanceAt {
    const v = this.vectorAt(t);
    const expression = { ...NO_EXPRESSION };
    DRAWN_EXPRESSIONS.forEach((name, i) => {
      expression[name] = v[i];
    });
    return { expression, style: { head: headGain(v[HEAD]), nod: nodGain(v[HEAD]), emphasis: v[EMPHASIS] } };
  }

  private vectorAt(t: number): number[] {
    // The last change at or before t (changes are in time order; a live stream asks near the end).
    let i = this.changes.length - 1;
    while (i >= 0 && this.changes[i].at > t) i--;
    if (i < 0) return this.base;
    const c = this.changes[i];
    const k = smoothstep(0, CUE_EASE_SECONDS, t - c.at);
    return k === 1 ? c.to : c.from.map((f, j) => f + (c.to[j] - f) * k);
  }
}

function vector(d: Required<Direction>): number[] {
  const v = DRAWN_EXPRESSIONS.map((name) => (name === d.expression ? d.intensity : 0));
  v.push(d.headMotion, d.emphasis);
  return v;
}
