/**
 * Streaming motion: PCM chunks in (any rate, any length), 25 fps motion frames out, each as soon as its
 * 40 ms of audio plus at most 80 ms of look-ahead has arrived. The same per-frame analysis, gate, mouth
 * targets, smoothing, blinks and head motion as the video renderer (lipsync-frame.ts, life.ts); only what
 * needs the future differs: the speaker level is estimated from the past (levels.ts) and plosive closures
 * are detected within the look-ahead. While no audio arrives, `idle` frames fill in without taking audio time.
 */
import { PERFORMANCE_DEFAULTS, type Performance } from "@avatar-video/contract";
import { BlinkBlocks } from "./blink-blocks";
import { type HeadMotion, makeHeadMotion } from "./life";
import { CausalLevels } from "./levels";
import {
  ANALYSIS_RATE,
  energyTarget,
  FRAME_REACH,
  HOP,
  isBurst,
  isQuiet,
  makeFrameAnalyzer,
  makeGate,
  makeSmoother,
  SEAL_AFTER_SPEECH,
  TRACK_HZ,
  type FrameFeatures,
} from "./lipsync-frame";
import { PcmWindow } from "./pcm-window";
import { type Direction, type ExpressionWeights, PerformanceTrack } from "./performance-track";
import { makeMouthTargets } from "./phonetic-mouth";
import { StreamResampler } from "./resample";
import { smoothstep } from "./smoothstep";
import { FRAME_VALUES, frameValues, LOOKAHEAD } from "./viseme-input";

export const MOTION_FPS = 25;
/** The mouth leads the sound by this much, as in rendered videos (audiovisual tolerance ~80 ms sound-first). */
export const LIP_LEAD_SECONDS = 0.05;
/** Analysis frames a frame's viseme and plosive-closure decisions may look ahead (keeps within 80 ms of look-ahead). */
const CLOSURE_LOOKAHEAD = LOOKAHEAD;
const RING = 128; // analysis frames kept: closure runs (≤ 25) + the speech-before window (30) + look-ahead
const NO_FEATURES: FrameFeatures = { db: -120, low: 0, mid: 0, hi: 0, vhi: 0, mel: new Float32Array(0) };

export interface MotionFrame {
  /** Frames sent on this stream so far (idle frames included); `t` = frame / 25 drives blinks and head motion. */
  frame: number;
  t: number;
  /**
   * The client's audio this frame goes with: the start (ms) of its 40 ms. On an idle frame, where the audio
   * received so far ends (the frame stands in for audio that has not arrived).
   */
  audioMs: number;
  /** Present (true) on idle frames: no audio covered this moment, the mouth rests closed. */
  idle?: true;
  mouthOpen: number;
  mouthWide: number;
  mouthRound: number;
  lipsClosed: number;
  /** Lower lip under the upper teeth (f, v). */
  lipTuck: number;
  /** How much of a smiling photo's smile relaxes while speaking. */
  smileRelax: number;
  blink: number;
  head: { yaw: number; pitch: number; roll: number };
  /** Brow raise 0..1 on stressed syllables (emphasis); present when above 0. */
  brow?: number;
  /** The expression drawn on the face (performance-track.ts); present while one shows. */
  expression?: ExpressionWeights;
}

/** A live change of the performance (the `perform` message): what it leaves out stays as it is. */
export interface PerformChange extends Direction {
  blinksPerMinute?: number;
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
/** PCM16 little-endian can be read as an Int16Array where the platform is little-endian (every runtime here). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class MotionStream {
  private readonly resampler: StreamResampler;
  private readonly analyze = makeFrameAnalyzer({ reuse: true });
  private readonly levels = new CausalLevels();
  private readonly gate = makeGate();
  private readonly smooth = makeSmoother();
  private readonly targets = makeMouthTargets();
  private readonly head: ReturnType<typeof makeHeadMotion>;
  private readonly blinks: BlinkBlocks;
  private readonly performance: PerformanceTrack;
  private readonly pcm = new PcmWindow(); // at 16 kHz
  private inputSamples = 0; // at the input rate
  private oddByte: number | undefined;
  private scratch = new Float32Array(1024); // pushPcm16's samples as floats
  // Per analysis frame (ring): features, levels, gate, quiet-run bookkeeping, smoothed values.
  // Features and classifier values are copied into slots made once: what the analysis returns dies young, and
  // the heap of a thread serving many streams does not fill with frames that lived a second (major GCs).
  private readonly feat: FrameFeatures[] = Array.from({ length: RING }, () => ({ ...NO_FEATURES }));
  private readonly values: Float32Array[] = Array.from({ length: RING }, () => new Float32Array(FRAME_VALUES));
  private readonly ref = new Float32Array(RING);
  private readonly floor = new Float32Array(RING);
  private readonly quiet = new Uint8Array(RING);
  private readonly active = new Uint8Array(RING);
  private readonly runStart = new Int32Array(RING);
  private readonly speechBefore = new Uint8Array(RING);
  private readonly out = {
    open: new Float32Array(RING),
    spread: new Float32Array(RING),
    round: new Float32Array(RING),
    press: new Float32Array(RING),
    tuck: new Float32Array(RING),
    relax: new Float32Array(RING),
    energy: new Float32Array(RING),
    emphasis: new Float32Array(RING),
  };
  private analyzed = 0; // analysis frames computed
  private finalized = 0; // analysis frames smoothed (closure decided)
  private nextFrame = 0; // next 25 fps frame of audio to emit
  private idleFrames = 0; // idle frames sent between audio frames (idle)
  private ended = false;

  constructor(
    readonly sampleRate: number,
    readonly seed = 1,
    performance: Performance = PERFORMANCE_DEFAULTS,
  ) {
    this.resampler = new StreamResampler(sampleRate, ANALYSIS_RATE);
    this.head = makeHeadMotion(seed, 1);
    this.blinks = new BlinkBlocks(seed, performance.blinksPerMinute);
    // Cues of a live timeline are on the stream's own time (`t` of the frames).
    this.performance = new PerformanceTrack(performance);
  }

  /** From the next frame on, ease towards `change` (as a cue does); a blink rate takes over at once. */
  perform(change: PerformChange): void {
    const t = this.frames / MOTION_FPS;
    this.performance.change(t, change);
    if (change.blinksPerMinute !== undefined) this.blinks.setRate(t, change.blinksPerMinute);
  }

  /** Frames emitted so far, idle frames included. */
  get frames(): number {
    return this.nextFrame + this.idleFrames;
  }

  /** Seconds of audio received (input rate), including injected silence. */
  get receivedSeconds(): number {
    return this.inputSamples / this.sampleRate;
  }

  /** Mono PCM16 little-endian bytes; an odd trailing byte waits for the next chunk. */
  pushPcm16(bytes: Uint8Array): MotionFrame[] {
    let data = bytes;
    if (this.oddByte !== undefined) {
      data = new Uint8Array(bytes.length + 1);
      data[0] = this.oddByte;
      data.set(bytes, 1);
      this.oddByte = undefined;
    }
    const n = data.length >> 1;
    if (data.length & 1) this.oddByte = data[data.length - 1];
    // The samples go into the scratch buffer, which pushSamples copies (resampler or window) before returning.
    if (this.scratch.length < n) this.scratch = new Float32Array(Math.max(n, 2 * this.scratch.length));
    const f = this.scratch.subarray(0, n);
    if (LITTLE_ENDIAN && (data.byteOffset & 1) === 0) {
      const pcm = new Int16Array(data.buffer, data.byteOffset, n);
      for (let i = 0; i < n; i++) f[i] = pcm[i] / 32768;
    } else {
      const view = new DataView(data.buffer, data.byteOffset, n * 2);
      for (let i = 0; i < n; i++) f[i] = view.getInt16(i * 2, true) / 32768;
    }
    return this.pushSamples(f);
  }

  /** Float samples in [-1, 1] at the stream's rate. */
  pushSamples(samples: Float32Array): MotionFrame[] {
    if (this.ended) return [];
    this.inputSamples += samples.length;
    this.appendPcm(this.resampler.push(samples));
    return this.advance();
  }

  /** Seconds of silent audio (counted as the client's audio, unlike `idle`): the mouth settles closed. */
  pushSilence(seconds: number): MotionFrame[] {
    return this.pushSamples(new Float32Array(Math.round(seconds * this.sampleRate)));
  }

  /**
   * One frame while the stream starves (no audio covers this moment): the mouth rests closed, blinks and head
   * motion go on. It takes the next frame number but no audio time, so audio that arrives late is analysed
   * exactly as if it had come on time, and its frames keep their `audioMs`.
   */
  idle(): MotionFrame {
    const n = this.frames;
    const t = n / MOTION_FPS;
    this.idleFrames++;
    const p = this.performance.at(t);
    const h = this.head(t, 0, 0, smoothstep(0, 0.5, t), p.style);
    return {
      frame: n,
      t: r4(t),
      audioMs: Math.round(this.receivedSeconds * 1000),
      idle: true,
      mouthOpen: 0,
      mouthWide: 0,
      mouthRound: 0,
      lipsClosed: 0,
      lipTuck: 0,
      smileRelax: 0,
      blink: r4(this.blinks.at(t)),
      head: { yaw: r4(h.yaw), pitch: r4(h.pitch), roll: r4(h.roll) },
      ...performed(h, p.expression, t),
    };
  }

  /** End of audio: the remaining frames, covering every received sample. */
  finish(): MotionFrame[] {
    if (this.ended) return [];
    // Drain the resampler, then keep exactly the samples that correspond to the input.
    const want = Math.round((this.inputSamples * ANALYSIS_RATE) / this.sampleRate);
    this.appendPcm(
      this.resampler.push(new Float32Array(Math.ceil(this.resampler.lookaheadSeconds * this.sampleRate) + 2)),
    );
    this.pcm.truncate(want);
    this.ended = true;
    return this.advance();
  }

  private appendPcm(s: Float32Array): void {
    // The next analysis frame reads from here on; earlier samples may go.
    this.pcm.append(s, this.analyzed * HOP + HOP / 2 - FRAME_REACH - 1);
  }

  private advance(): MotionFrame[] {
    const total = this.pcm.total;
    const trackLength = Math.max(1, Math.ceil(total / HOP));
    const frames: MotionFrame[] = [];
    // One analysis frame at a time, so the rings never hold more than the look-ahead (a large chunk is
    // processed exactly as the same audio in small chunks).
    for (;;) {
      const more = this.ended ? this.analyzed < trackLength : this.analyzed * HOP + HOP / 2 + FRAME_REACH <= total;
      if (more) this.analyzeNext();
      while (
        this.finalized < this.analyzed &&
        (this.ended ? !more : this.finalized + CLOSURE_LOOKAHEAD < this.analyzed)
      )
        this.finalizeNext();
      for (;;) {
        const n = this.nextFrame;
        const t = n / MOTION_FPS;
        if (this.ended ? more || n * (ANALYSIS_RATE / MOTION_FPS) >= total : !this.canEmit(t)) break;
        frames.push(this.frameAt(n, t, trackLength));
        this.nextFrame++;
      }
      if (!more) return frames;
    }
  }

  private canEmit(t: number): boolean {
    const i0 = Math.floor((t + LIP_LEAD_SECONDS) * TRACK_HZ - 0.5);
    return i0 + 1 < this.finalized;
  }

  private analyzeNext(): void {
    const i = this.analyzed;
    const k = i % RING;
    const f = this.analyze(this.pcm.held, this.pcm.start, i * HOP + HOP / 2);
    const lv = this.levels.update(f.db);
    const slot = this.feat[k];
    slot.db = f.db;
    slot.low = f.low;
    slot.mid = f.mid;
    slot.hi = f.hi;
    slot.vhi = f.vhi; // the mel bands are read only through the values below
    frameValues(f, lv.ref, this.values[k]);
    this.ref[k] = lv.ref;
    this.floor[k] = lv.floor;
    this.active[k] = this.gate(f.db, lv.ref, lv.floor, lv.silent) ? 1 : 0;
    this.quiet[k] = isQuiet(f.db, lv.ref, lv.floor) ? 1 : 0;
    const prevQuiet = i > 0 && this.quiet[(i - 1) % RING] === 1;
    if (this.quiet[k] && prevQuiet) {
      this.runStart[k] = this.runStart[(i - 1) % RING];
      this.speechBefore[k] = this.speechBefore[(i - 1) % RING];
    } else if (this.quiet[k]) {
      // A quiet run starts here (the whole-file analysis never starts one at frame 0).
      this.runStart[k] = i === 0 ? -1 : i;
      let before = 0;
      for (let j = i - 1; j >= Math.max(0, i - 30); j--)
        if (this.active[j % RING]) {
          before = 1;
          break;
        }
      this.speechBefore[k] = before;
    }
    this.analyzed++;
  }

  /** A plosive closure: this frame is in a quiet run inside speech that ends (within reach) in a burst. */
  private isClosure(i: number): boolean {
    const k = i % RING;
    const start = this.runStart[k];
    if (!this.quiet[k] || start < 0 || !this.speechBefore[k]) return false;
    let j = i + 1;
    while (j < this.analyzed && this.quiet[j % RING]) j++;
    if (j >= this.analyzed) return false; // no end in sight (or the audio ended quiet)
    const len = j - start;
    if (len < 3 || len > 25) return false;
    const base = this.feat[(j - 1) % RING].db;
    for (let b = j; b < Math.min(this.analyzed, j + 3); b++)
      if (isBurst(this.feat[b % RING].db, base, this.ref[b % RING])) return true;
    return false;
  }

  private finalizeNext(): void {
    const i = this.finalized;
    const k = i % RING;
    const f = this.feat[k];
    const active = this.active[k] === 1;
    let speechNear = false;
    for (let j = i; j >= Math.max(0, i - SEAL_AFTER_SPEECH) && !speechNear; j--)
      speechNear = this.active[j % RING] === 1;
    const t = this.targets(this.valueAt, i, f, this.ref[k], active, speechNear, this.isClosure(i));
    const v = this.smooth(t, t.press > 0.5, energyTarget(active, f.db, this.ref[k]));
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

  /** Classifier values of analysis frame j (undefined outside the audio, as in the whole-file analysis). */
  private readonly valueAt = (j: number): Float32Array | undefined =>
    j >= 0 && j < this.analyzed ? this.values[j % RING] : undefined;

  /** Linear interpolation between smoothed analysis frames, exactly as sampleTrack does. */
  private sample(key: keyof MotionStream["out"], t: number, trackLength: number): number {
    const x = t * TRACK_HZ - 0.5;
    if (!(x > -1) || (this.ended && x >= trackLength)) return 0;
    const i0 = Math.floor(x);
    const f = x - i0;
    const arr = this.out[key];
    const a = i0 >= 0 ? arr[i0 % RING] : 0;
    const b = i0 + 1 < this.finalized && (!this.ended || i0 + 1 < trackLength) ? arr[(i0 + 1) % RING] : 0;
    return a === b ? a : a + (b - a) * f;
  }

  /** Audio frame n (its audio starts at t); blinks and head motion run on the stream's own time, idle frames included. */
  private frameAt(n: number, t: number, trackLength: number): MotionFrame {
    const at = t + LIP_LEAD_SECONDS;
    const s = (key: keyof MotionStream["out"]) => this.sample(key, at, trackLength);
    const frame = n + this.idleFrames;
    const life = frame / MOTION_FPS;
    // Motion eases in from the still portrait over the first half second, as a rendered video does.
    const p = this.performance.at(life);
    const h = this.head(life, s("energy"), s("emphasis"), smoothstep(0, 0.5, life), p.style);
    return {
      frame,
      t: r4(life),
      audioMs: n * (1000 / MOTION_FPS),
      mouthOpen: r4(s("open")),
      mouthWide: r4(s("spread")),
      mouthRound: r4(s("round")),
      lipsClosed: r4(s("press")),
      lipTuck: r4(s("tuck")),
      smileRelax: r4(s("relax")),
      blink: r4(this.blinks.at(life)),
      head: { yaw: r4(h.yaw), pitch: r4(h.pitch), roll: r4(h.roll) },
      ...performed(h, p.expression, life),
    };
  }
}

/** A frame's brow raise and expression, each only when it shows; both ease in with the motion. */
function performed(h: HeadMotion, w: ExpressionWeights, life: number): Pick<MotionFrame, "brow" | "expression"> {
  const k = smoothstep(0, 0.5, life);
  const brow = r4(h.brow);
  const expression = {
    happy: r4(w.happy * k),
    serious: r4(w.serious * k),
    surprised: r4(w.surprised * k),
    sad: r4(w.sad * k),
  };
  const shows = expression.happy > 0 || expression.serious > 0 || expression.surprised > 0 || expression.sad > 0;
  return { ...(brow > 0 ? { brow } : {}), ...(shows ? { expression } : {}) };
}
