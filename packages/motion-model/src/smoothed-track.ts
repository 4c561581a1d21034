/**
 * The live stream's smoothed per-frame track (stream.ts): once an analysis frame's plosive look-ahead has
 * arrived, its mouth targets and the smoothing give its mouth, energy and emphasis values, kept in rings
 * and sampled at 25 fps exactly as the whole-file track is (sampleTrack).
 */
import { type AnalysisRing, RING } from "./analysis-ring";
import { energyTarget, makeSmoother, TRACK_HZ } from "./lipsync-frame";
import { makeMouthTargets } from "./phonetic-mouth";

export type TrackKey = "open" | "spread" | "round" | "press" | "tuck" | "relax" | "energy" | "emphasis";

export class SmoothedTrack {
  private readonly targets = makeMouthTargets();
  private readonly smooth = makeSmoother();
  private readonly out: Record<TrackKey, Float32Array> = {
    open: new Float32Array(RING),
    spread: new Float32Array(RING),
    round: new Float32Array(RING),
    press: new Float32Array(RING),
    tuck: new Float32Array(RING),
    relax: new Float32Array(RING),
    energy: new Float32Array(RING),
    emphasis: new Float32Array(RING),
  };
  /** Analysis frames smoothed (closure decided). */
  finalized = 0;

  /** Smooths the next analysis frame of `ring` (its closure look-ahead must have been analysed). */
  finalizeNext(ring: AnalysisRing): void {
    const i = this.finalized;
    const k = i % RING;
    const f = ring.features(i);
    const ref = ring.refAt(i);
    const active = ring.isActive(i);
    const t = this.targets(ring.valueAt, i, f, ref, active, ring.speechNear(i), ring.isClosure(i));
    const v = this.smooth(t, t.press > 0.5, energyTarget(active, f.db, ref));
    this.out.open[k] = v.open;
    this.out.spread[k] = v.spread;
    this.out.round[k] = v.round;
    this.out.press[k] = v.press;
    this.out.tuck[k] = v.tuck;
    this.out.relax[k] = v.relax;
    this.out.energy[k] = v.energy;
    this.out.emphasis[k] = v.emphasis;
    this.finalized++;
  }

  /**
   * Linear interpolation between smoothed analysis frames at t seconds, exactly as sampleTrack does; `end` is
   * the track's length in analysis frames once the audio has ended (Infinity before).
   */
  sample(key: TrackKey, t: number, end: number): number {
    const x = t * TRACK_HZ - 0.5;
    if (!(x > -1) || x >= end) return 0;
    const i0 = Math.floor(x);
    const f = x - i0;
    const arr = this.out[key];
    const a = i0 >= 0 ? arr[i0 % RING] : 0;
    const b = i0 + 1 < this.finalized && i0 + 1 < end ? arr[(i0 + 1) % RING] : 0;
    return a === b ? a : a + (b - a) * f;
  }
}
