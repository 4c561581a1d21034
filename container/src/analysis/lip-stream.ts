/**
 * Lip-sync analysis of audio up to MAX_AUDIO_SECONDS in bounded memory (docs/rendering.md "Long audio").
 *
 * ffmpeg decodes the first audio stream to 16 kHz mono f32 on a pipe; nothing of the decoded audio is
 * kept beyond one analysis window. The whole-file analysis (analyzeLipSync) runs on windows of
 * WINDOW_SECONDS with CONTEXT_SECONDS of audio on each side, and only the window's own frames are kept:
 * smoothing (≤ 1 s time constants) and the ±1.5 s loudness reference are settled long before a join, and
 * the speaker's overall level is the window's. Audio no longer than WINDOW + CONTEXT seconds is analysed
 * in one piece, exactly as analyzeLipSync(whole file). What stays in memory for the whole job is the six
 * eight curves the renderer samples, 32 bytes per 10 ms (11.5 MB for 60 minutes).
 *
 * Failures: `unsupported_media_type` (decode error), `empty_media` (no samples), `renderer_rejected`
 * (longer than MAX_AUDIO_SECONDS; the message gives the measured and the allowed duration).
 */
import { ANALYSIS_RATE, TRACK_HZ, analyzeLipSync, type LipTrack } from "@avatar-video/motion-model";
import { JobFailure } from "../rules/public";
import {
  decodeMonoArgs,
  ffmpegPath,
  killOnAbort,
  MAX_AUDIO_SECONDS,
  spawnMedia,
  throwIfAborted,
  tooLong,
} from "../media/public";

const HOP = ANALYSIS_RATE / TRACK_HZ;
export const WINDOW_SECONDS = 120;
export const CONTEXT_SECONDS = 8;
const CURVES = ["open", "spread", "round", "press", "tuck", "relax", "energy", "emphasis"] as const;

export interface StreamedTrack {
  /** The curves sampleTrack reads (diagnostic arrays are empty). */
  track: LipTrack;
  /** Decoded samples at ANALYSIS_RATE. */
  samples: number;
}

/** Growable curve storage: chunks appended per window, joined once at the end. */
class Curves {
  private chunks: Record<(typeof CURVES)[number], Float32Array[]> = {
    open: [],
    spread: [],
    round: [],
    press: [],
    tuck: [],
    relax: [],
    energy: [],
    emphasis: [],
  };
  length = 0;
  append(t: LipTrack, from: number, to: number): void {
    for (const k of CURVES) this.chunks[k].push(t[k].slice(from, to));
    this.length += to - from;
  }
  track(): LipTrack {
    const join = (parts: Float32Array[]) => {
      const out = new Float32Array(this.length);
      let o = 0;
      for (const p of parts) out.set(p, o), (o += p.length);
      return out;
    };
    const c = Object.fromEntries(CURVES.map((k) => [k, join(this.chunks[k])])) as Record<
      (typeof CURVES)[number],
      Float32Array
    >;
    const none = new Float32Array(0);
    return {
      hz: TRACK_HZ,
      length: this.length,
      ...c,
      active: new Uint8Array(0),
      db: none,
      low: none,
      mid: none,
      hi: none,
      vhi: none,
    };
  }
}

/**
 * Windowed analysis over a sample stream. `push` samples in order; `end()` analyses the rest.
 * Exported for tests (seams at the joins, identity for short audio).
 */
export class WindowedLipSync {
  private readonly win: number;
  private readonly ctx: number;
  private buf: Float32Array;
  private len = 0;
  /** Absolute sample index of buf[0]. */
  private bufStart = 0;
  /** Absolute sample index where the next window starts (a multiple of HOP). */
  private next = 0;
  private readonly curves = new Curves();
  samples = 0;

  constructor(windowSeconds = WINDOW_SECONDS, contextSeconds = CONTEXT_SECONDS) {
    this.win = Math.round((windowSeconds * ANALYSIS_RATE) / HOP) * HOP;
    this.ctx = Math.round((contextSeconds * ANALYSIS_RATE) / HOP) * HOP;
    this.buf = new Float32Array(this.win + 2 * this.ctx + 65_536);
  }

  push(chunk: Float32Array): void {
    let off = 0;
    while (off < chunk.length) {
      const n = Math.min(chunk.length - off, this.buf.length - this.len);
      this.buf.set(chunk.subarray(off, off + n), this.len);
      this.len += n;
      off += n;
      this.samples += n;
      // A full window plus its right context is here: analyse it and drop what no later window needs.
      while (this.bufStart + this.len >= this.next + this.win + this.ctx) this.analyse(this.next + this.win + this.ctx);
    }
  }

  end(): StreamedTrack {
    const total = this.bufStart + this.len;
    if (total > this.next || this.curves.length === 0) this.analyse(total, true);
    return { track: this.curves.track(), samples: this.samples };
  }

  private analyse(sliceEnd: number, last = false): void {
    const sliceStart = Math.max(0, this.next - this.ctx);
    const slice = this.buf.subarray(sliceStart - this.bufStart, sliceEnd - this.bufStart);
    const t = analyzeLipSync(slice);
    const from = (this.next - sliceStart) / HOP;
    const to = last ? t.length : from + this.win / HOP;
    this.curves.append(t, from, Math.min(to, t.length));
    if (last) return;
    this.next += this.win;
    const keepFrom = this.next - this.ctx; // the next window's left context
    const drop = keepFrom - this.bufStart;
    this.buf.copyWithin(0, drop, this.len);
    this.len -= drop;
    this.bufStart = keepFrom;
  }
}

/**
 * Decodes `path` and analyses it window by window. Counting goes on past the limit (without analysis)
 * up to twice the limit, so the message can say how long the audio is.
 */
export async function analyzeAudioFile(
  path: string,
  signal?: AbortSignal,
  maxSeconds = MAX_AUDIO_SECONDS,
): Promise<StreamedTrack> {
  const child = spawnMedia(ffmpegPath(), decodeMonoArgs(path, ANALYSIS_RATE), { stdio: ["ignore", "pipe", "pipe"] });
  const dispose = killOnAbort(child, signal);
  const analysis = new WindowedLipSync();
  const limit = Math.floor((maxSeconds + 0.5) * ANALYSIS_RATE);
  const cap = 2 * maxSeconds * ANALYSIS_RATE;
  let counted = 0;
  let stderr = "";
  let rest: Buffer | undefined;
  child.stderr!.on("data", (b: Buffer) => void (stderr = (stderr + b.toString("utf8")).slice(-4000)));
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  try {
    for await (const raw of child.stdout! as AsyncIterable<Buffer>) {
      const bytes = rest ? Buffer.concat([rest, raw]) : raw;
      const whole = bytes.length - (bytes.length % 4);
      rest = whole < bytes.length ? Buffer.from(bytes.subarray(whole)) : undefined;
      const n = whole / 4;
      counted += n;
      if (counted <= limit) {
        // Copy into an aligned array (a Buffer's offset need not be a multiple of 4).
        const samples = new Float32Array(n);
        new Uint8Array(samples.buffer).set(bytes.subarray(0, whole));
        analysis.push(samples);
      } else if (counted >= cap) {
        child.kill("SIGKILL");
        break;
      }
    }
    const code = await closed;
    throwIfAborted(signal);
    if (counted > limit) throw tooLong(counted / ANALYSIS_RATE, counted >= cap, maxSeconds);
    if (code !== 0)
      throw new JobFailure("unsupported_media_type", "The audio file could not be decoded as audio.", {
        detail: `ffmpeg decode exit ${code}: ${stderr.slice(-500)}`,
      });
    if (counted === 0) throw new JobFailure("empty_media", "The audio file contains no audio samples.");
    return analysis.end();
  } finally {
    dispose();
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}
