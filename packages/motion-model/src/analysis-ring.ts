/**
 * The live stream's recent 10 ms analysis frames (stream.ts), in rings: each frame's features, the speaker's
 * level estimated from the past (levels.ts), the voice gate, the classifier's values, and the quiet runs that
 * plosive closures are found in. A frame stays readable for RING frames after it is analysed.
 */
import { CausalLevels } from "./levels";
import {
  CLOSURE,
  type FrameFeatures,
  HOP,
  isBurst,
  isQuiet,
  makeFrameAnalyzer,
  makeGate,
  SEAL_AFTER_SPEECH,
} from "./lipsync-frame";
import type { PcmWindow } from "./pcm-window";
import { FRAME_VALUES, frameValues } from "./viseme-input";

/** Analysis frames kept: a closure run (CLOSURE.maxRun) + the speech-before window + look-ahead. */
export const RING = 128;
const NO_FEATURES: FrameFeatures = { db: -120, low: 0, mid: 0, hi: 0, vhi: 0, mel: new Float32Array(0) };

export class AnalysisRing {
  private readonly analyze = makeFrameAnalyzer({ reuse: true });
  private readonly levels = new CausalLevels();
  private readonly gate = makeGate();
  // Features and classifier values are copied into slots made once: what the analysis returns dies young, and
  // the heap of a thread serving many streams does not fill with frames that lived a second (major GCs).
  private readonly feat: FrameFeatures[] = Array.from({ length: RING }, () => ({ ...NO_FEATURES }));
  private readonly values: Float32Array[] = Array.from({ length: RING }, () => new Float32Array(FRAME_VALUES));
  private readonly ref = new Float32Array(RING);
  private readonly quiet = new Uint8Array(RING);
  private readonly active = new Uint8Array(RING);
  /** The last frame ≤ i with the gate open (−∞ if none), as the whole-file analysis tracks it (lipsync.ts). */
  private readonly lastActive = new Float64Array(RING);
  private readonly runStart = new Int32Array(RING);
  private readonly speechBefore = new Uint8Array(RING);
  /** Analysis frames computed. */
  analyzed = 0;

  /** Analyses the next frame from the stream's samples (its reach must have arrived, or the audio ended). */
  analyzeNext(pcm: PcmWindow): void {
    const i = this.analyzed;
    const k = i % RING;
    const f = this.analyze(pcm.held, pcm.start, i * HOP + HOP / 2);
    const lv = this.levels.update(f.db);
    const slot = this.feat[k];
    slot.db = f.db;
    slot.low = f.low;
    slot.mid = f.mid;
    slot.hi = f.hi;
    slot.vhi = f.vhi; // the mel bands are read only through the values below
    frameValues(f, lv.ref, this.values[k]);
    this.ref[k] = lv.ref;
    this.active[k] = this.gate(f.db, lv.ref, lv.floor, lv.silent) ? 1 : 0;
    const lastBefore = i > 0 ? this.lastActive[(i - 1) % RING] : Number.NEGATIVE_INFINITY;
    this.lastActive[k] = this.active[k] ? i : lastBefore;
    this.quiet[k] = isQuiet(f.db, lv.ref, lv.floor) ? 1 : 0;
    const prevQuiet = i > 0 && this.quiet[(i - 1) % RING] === 1;
    if (this.quiet[k] && prevQuiet) {
      this.runStart[k] = this.runStart[(i - 1) % RING];
      this.speechBefore[k] = this.speechBefore[(i - 1) % RING];
    } else if (this.quiet[k]) {
      // A quiet run starts here (the whole-file analysis never starts one at frame 0).
      this.runStart[k] = i === 0 ? -1 : i;
      this.speechBefore[k] = i - lastBefore <= CLOSURE.speechBefore ? 1 : 0;
    }
    this.analyzed++;
  }

  /** Features of analysis frame i (db and band shares; not the mel bands). */
  features(i: number): FrameFeatures {
    return this.feat[i % RING];
  }

  /** The speaker's level (dB) at analysis frame i. */
  refAt(i: number): number {
    return this.ref[i % RING];
  }

  /** Whether the voice gate is open at analysis frame i. */
  isActive(i: number): boolean {
    return this.active[i % RING] === 1;
  }

  /** Whether the gate was open at frame i or within SEAL_AFTER_SPEECH frames before it. */
  speechNear(i: number): boolean {
    return i - this.lastActive[i % RING] <= SEAL_AFTER_SPEECH;
  }

  /** A plosive closure: this frame is in a quiet run inside speech that ends (within reach) in a burst. */
  isClosure(i: number): boolean {
    const k = i % RING;
    const start = this.runStart[k];
    if (!this.quiet[k] || start < 0 || !this.speechBefore[k]) return false;
    let j = i + 1;
    while (j < this.analyzed && this.quiet[j % RING]) j++;
    if (j >= this.analyzed) return false; // no end in sight (or the audio ended quiet)
    const len = j - start;
    if (len < CLOSURE.minRun || len > CLOSURE.maxRun) return false;
    const base = this.feat[(j - 1) % RING].db;
    for (let b = j; b < Math.min(this.analyzed, j + CLOSURE.burstReach); b++)
      if (isBurst(this.feat[b % RING].db, base, this.ref[b % RING])) return true;
    return false;
  }

  /** Classifier values of analysis frame j (undefined outside the audio, as in the whole-file analysis). */
  readonly valueAt = (j: number): Float32Array | undefined =>
    j >= 0 && j < this.analyzed ? this.values[j % RING] : undefined;
}
