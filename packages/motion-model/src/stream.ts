/**
 * Streaming motion: PCM chunks in (any rate, any length), 25 fps motion frames out, each as soon as its
 * 40 ms of audio plus at most 80 ms of look-ahead has arrived. The same per-frame analysis, gate, mouth
 * targets, smoothing, blinks and head motion as the video renderer (lipsync-frame.ts, life.ts); only what
 * needs the future differs: the speaker level is estimated from the past (levels.ts) and plosive closures
 * are detected within the look-ahead. While no audio arrives, `idle` frames fill in without taking audio time.
 * Its parts: bytes to samples (pcm16.ts, resample.ts, pcm-window.ts), the analysis frames (analysis-ring.ts),
 * their smoothed track (smoothed-track.ts) and what a frame holds (motion-frame.ts).
 */
import { PERFORMANCE_DEFAULTS, type Performance } from "@avatar-video/contract";
import { AnalysisRing } from "./analysis-ring";
import { BlinkBlocks } from "./blink-blocks";
import { makeHeadMotion } from "./life";
import { ANALYSIS_RATE, FRAME_REACH, HOP, TRACK_HZ } from "./lipsync-frame";
import { type MotionFrame, performed, r4 } from "./motion-frame";
import { Pcm16Decoder } from "./pcm16";
import { PcmWindow } from "./pcm-window";
import { type Direction, PerformanceTrack } from "./performance-track";
import { StreamResampler } from "./resample";
import { SmoothedTrack, type TrackKey } from "./smoothed-track";
import { smoothstep } from "./smoothstep";
import { LOOKAHEAD } from "./viseme-input";

export const MOTION_FPS = 25;
/** The mouth leads the sound by this much, as in rendered videos (audiovisual tolerance ~80 ms sound-first). */
export const LIP_LEAD_SECONDS = 0.05;
/** Analysis frames a frame's viseme and plosive-closure decisions may look ahead (keeps within 80 ms of look-ahead). */
const CLOSURE_LOOKAHEAD = LOOKAHEAD;

/** A live change of the performance (the `perform` message): what it leaves out stays as it is. */
export interface PerformChange extends Direction {
  blinksPerMinute?: number;
}

export class MotionStream {
  private readonly resampler: StreamResampler;
  private readonly decoder = new Pcm16Decoder();
  private readonly pcm = new PcmWindow(); // at 16 kHz
  private readonly ring = new AnalysisRing();
  private readonly track = new SmoothedTrack();
  private readonly head: ReturnType<typeof makeHeadMotion>;
  private readonly blinks: BlinkBlocks;
  private readonly performance: PerformanceTrack;
  private inputSamples = 0; // at the input rate
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
    // The decoder's buffer is copied (resampler or window) before pushSamples returns.
    return this.pushSamples(this.decoder.decode(bytes));
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
    this.pcm.append(s, this.ring.analyzed * HOP + HOP / 2 - FRAME_REACH - 1);
  }

  private advance(): MotionFrame[] {
    const total = this.pcm.total;
    const trackLength = Math.max(1, Math.ceil(total / HOP));
    const frames: MotionFrame[] = [];
    // One analysis frame at a time, so the rings never hold more than the look-ahead (a large chunk is
    // processed exactly as the same audio in small chunks).
    for (;;) {
      const { ring, track } = this;
      const more = this.ended ? ring.analyzed < trackLength : ring.analyzed * HOP + HOP / 2 + FRAME_REACH <= total;
      if (more) ring.analyzeNext(this.pcm);
      while (
        track.finalized < ring.analyzed &&
        (this.ended ? !more : track.finalized + CLOSURE_LOOKAHEAD < ring.analyzed)
      )
        track.finalizeNext(ring);
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
    return i0 + 1 < this.track.finalized;
  }

  /** Audio frame n (its audio starts at t); blinks and head motion run on the stream's own time, idle frames included. */
  private frameAt(n: number, t: number, trackLength: number): MotionFrame {
    const at = t + LIP_LEAD_SECONDS;
    const end = this.ended ? trackLength : Number.POSITIVE_INFINITY;
    const s = (key: TrackKey) => this.track.sample(key, at, end);
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
