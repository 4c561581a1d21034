/**
 * The performance's motion channels (packages/motion-model: life.ts, blink-rate.ts, blink-blocks.ts,
 * performance-track.ts; docs/performance.md): head motion and emphasis as multipliers that leave the default
 * untouched, blinks at the rate asked for, and expression changes eased over 0.3 s — all functions of time.
 */
import { describe, expect, it } from "vitest";
import {
  BLINK,
  BlinkBlocks,
  blinkAmount,
  blinkSchedule,
  blinkStarts,
  DEFAULT_HEAD_STYLE,
  evenBlinkStarts,
  headGain,
  makeHeadMotion,
  nodGain,
  PerformanceTrack,
  prng,
} from "@avatar-video/motion-model";
import { PERFORMANCE_DEFAULTS, type Performance } from "@avatar-video/contract";

const FPS = 25;
const perf = (p: Partial<Performance>): Performance => ({ ...PERFORMANCE_DEFAULTS, timeline: [], ...p });

/** Speech-like energy and emphasis curves (syllables at ~4 Hz, phrases with pauses). */
function speech(t: number): { energy: number; emphasis: number } {
  const phrase = Math.sin(t * 0.9) > -0.3 ? 1 : 0;
  const syllable = Math.max(0, Math.sin(t * 2 * Math.PI * 4));
  const stress = Math.max(0, Math.sin(t * 2 * Math.PI * 0.7)) ** 8;
  return { energy: phrase * (0.4 + 0.6 * syllable), emphasis: phrase * stress };
}

/** Yaw and pitch over 60 s of speech at 25 fps for a style. */
function headOver60s(style = DEFAULT_HEAD_STYLE, seed = 7) {
  const head = makeHeadMotion(seed, 60);
  const yaw: number[] = [];
  const pitch: number[] = [];
  const brow: number[] = [];
  for (let f = 0; f < 60 * FPS; f++) {
    const t = f / FPS;
    const s = speech(t);
    const h = head(t, s.energy, s.emphasis, 1, style);
    yaw.push(h.yaw);
    pitch.push(h.pitch);
    brow.push(h.brow);
  }
  return { yaw, pitch, brow };
}

const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
};
const peak = (xs: number[]) => Math.max(...xs.map(Math.abs));
/** The head's style at a `headMotion` setting (emphasis 1). */
const at = (headMotion: number) => ({ head: headGain(headMotion), nod: nodGain(headMotion), emphasis: 1 });

describe("head motion and emphasis", () => {
  it("at the defaults gives today's numbers, bit for bit", () => {
    const head = makeHeadMotion(99, 40);
    for (let f = 0; f < 500; f++) {
      const t = f / FPS;
      const s = speech(t);
      expect(head(t, s.energy, s.emphasis, 0.7, at(1))).toEqual(head(t, s.energy, s.emphasis, 0.7));
    }
    expect(headGain(1)).toBe(1);
    expect(nodGain(1)).toBe(1);
  });

  it("0 keeps the head still (exactly 0°), 2 moves it ≥ 2.5× as much, 3 about ±3° with nods", () => {
    for (const seed of [1, 7, 1234]) {
      const calm = headOver60s(DEFAULT_HEAD_STYLE, seed);
      const still = headOver60s(at(0), seed);
      const more = headOver60s(at(2), seed);
      const lively = headOver60s(at(3), seed);
      expect(Math.max(peak(still.yaw), peak(still.pitch))).toBe(0);
      expect(sd(more.yaw) / sd(calm.yaw)).toBeGreaterThanOrEqual(2.5);
      expect(sd(more.pitch) / sd(calm.pitch)).toBeGreaterThanOrEqual(2.5);
      expect(peak(calm.yaw)).toBeLessThan(1.5);
      expect(peak(lively.yaw)).toBeGreaterThan(2.5);
      expect(peak(lively.yaw)).toBeLessThan(4.8);
      // A livelier head nods more than it sways: at 2 and 3 its pitch moves about as much as its yaw.
      expect(sd(more.pitch) / sd(more.yaw)).toBeGreaterThan(0.9);
      expect(sd(lively.pitch) / sd(lively.yaw)).toBeGreaterThan(0.9);
      // (This speech stresses a syllable fully every 1.4 s; a rendered voice nods ≈ ±5° at 3.)
      expect(peak(lively.pitch)).toBeLessThan(8.5);
      // The brow raises belong to emphasis, not to the head.
      expect(still.brow).toEqual(calm.brow);
    }
  });

  it("emphasis scales the nods and brow raises: 0 none, 2 twice today's", () => {
    const none = headOver60s({ ...at(1), emphasis: 0 });
    const calm = headOver60s();
    const marked = headOver60s({ ...at(1), emphasis: 2 });
    expect(peak(none.brow)).toBe(0);
    const raised = calm.brow.findIndex((b) => b > 0.1 && b < 0.45);
    expect(marked.brow[raised]).toBeCloseTo(2 * calm.brow[raised], 6);
    // The nod (pitch down on a stressed syllable) is gone without emphasis and doubled with 2.
    const nod = (h: { pitch: number[] }) => h.pitch[raised] - none.pitch[raised];
    expect(nod(marked)).toBeCloseTo(2 * nod(calm), 6);
    expect(nod(calm)).toBeLessThan(0);
  });
});

describe("blinks at the rate asked for", () => {
  it("the default rate keeps today's schedule; 0 means none", () => {
    expect(blinkStarts(60, PERFORMANCE_DEFAULTS.blinksPerMinute, 5)).toEqual(blinkSchedule(60, 5));
    expect(blinkStarts(60, 0, 5)).toEqual([]);
  });

  it("is met within ±20 % over any 60 s, whatever the seed, without overlapping blinks", () => {
    const total = BLINK.close + BLINK.hold + BLINK.open;
    for (const rate of [6, 10, 17, 25, 30, 40]) {
      for (let seed = 0; seed < 200; seed++) {
        const starts = blinkStarts(60, rate, seed * 7919 + 3);
        // The first 0.8 s has no blink (as in the default rhythm): count the minute from its first period on.
        const from = evenBlinkStarts(0, rate, seed * 7919 + 3, 0, 60);
        expect(Math.abs(from.length - rate) / rate, `${rate}/min seed ${seed}`).toBeLessThanOrEqual(0.2);
        // A double blink's second blink starts 0.32–0.42 s after the first (as in the default rhythm); other
        // blinks never start before the one before has ended.
        for (let i = 1; i < starts.length; i++) {
          const gap = starts[i] - starts[i - 1];
          if (gap > 0.43) expect(gap).toBeGreaterThan(total);
          else expect(gap).toBeGreaterThanOrEqual(0.32);
        }
      }
    }
  });

  it("live: a rate set mid-stream takes over from its moment; a blink under way finishes", () => {
    const seed = 42;
    const live = new BlinkBlocks(seed);
    const closures = (from: number, to: number) => {
      let n = 0;
      let prev = 0;
      for (let f = Math.round(from * FPS); f < to * FPS; f++) {
        const v = live.at(f / FPS);
        if (v >= 0.99 && prev < 0.99) n++;
        prev = v;
      }
      return n;
    };
    // Before any change: today's live schedule.
    const today = blinkSchedule(600, seed, 0.8);
    for (let f = 0; f < 30 * FPS; f++) expect(live.at(f / FPS)).toBe(blinkAmount(today, f / FPS));
    live.setRate(30, 36);
    expect(Math.abs(closures(30, 90) - 36)).toBeLessThanOrEqual(7);
    live.setRate(90, 0);
    expect(live.at(90.2 + BLINK.close + BLINK.hold + BLINK.open)).toBe(0);
    expect(closures(91, 150)).toBe(0);
    // Every value is a function of time: asking again gives the same.
    const again = live.at(89.9);
    expect(live.at(89.9)).toBe(again);
  });
});

describe("expression timeline", () => {
  it("holds the expression until the first cue, then eases each cue in over 0.3 s", () => {
    const track = new PerformanceTrack(
      perf({
        expression: "happy",
        intensity: 0.8,
        timeline: [
          { atSeconds: 2, expression: "serious", intensity: 0.5 },
          { atSeconds: 4, expression: "neutral", intensity: 0.6 },
        ],
      }),
    );
    expect(track.at(0).expression).toEqual({ happy: 0.8, serious: 0, surprised: 0, sad: 0 });
    expect(track.at(2).expression).toEqual({ happy: 0.8, serious: 0, surprised: 0, sad: 0 });
    const mid = track.at(2.15).expression;
    expect(mid.happy).toBeCloseTo(0.4, 6);
    expect(mid.serious).toBeCloseTo(0.25, 6);
    expect(track.at(2.3).expression).toEqual({ happy: 0, serious: 0.5, surprised: 0, sad: 0 });
    expect(track.at(4.3).expression).toEqual({ happy: 0, serious: 0, surprised: 0, sad: 0 });
    // Smooth: no step between frames anywhere.
    let worst = 0;
    for (let f = 1; f < 6 * FPS; f++)
      worst = Math.max(worst, Math.abs(track.at(f / FPS).expression.happy - track.at((f - 1) / FPS).expression.happy));
    expect(worst).toBeLessThan(0.8 / 5);
  });

  it("live changes start from where the track is (also mid-ease) and ease head motion and emphasis too", () => {
    const track = new PerformanceTrack();
    expect(track.at(1).style).toEqual({ head: 1, nod: 1, emphasis: 1 });
    track.change(1, { expression: "surprised", intensity: 1 });
    track.change(1.1, { expression: "sad" }); // keeps the intensity, starts from the half-eased surprise
    const start = track.at(1.1).expression;
    expect(start.surprised).toBeGreaterThan(0.1);
    expect(start.surprised).toBeLessThan(0.5);
    expect(track.at(1.4).expression).toEqual({ happy: 0, serious: 0, surprised: 0, sad: 1 });
    track.change(2, { headMotion: 3, emphasis: 0 });
    expect(track.at(2).style).toEqual({ head: 1, nod: 1, emphasis: 1 });
    expect(track.at(2.3).style).toEqual({ ...at(3), emphasis: 0 });
    expect(track.at(2.3).expression.sad).toBe(1);
  });

  it("many live changes keep a bounded history and stay continuous", () => {
    const track = new PerformanceTrack();
    const rand = prng(3);
    let prev = track.at(0).expression.happy;
    for (let i = 1; i < 2000; i++) {
      const t = i * 0.1;
      if (rand() < 0.3) track.change(t, { expression: rand() < 0.5 ? "happy" : "neutral", intensity: rand() });
      const v = track.at(t + 0.04).expression.happy;
      expect(Math.abs(v - prev)).toBeLessThanOrEqual(1);
      prev = v;
    }
  });
});
