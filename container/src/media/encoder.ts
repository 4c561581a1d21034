/**
 * The ffmpeg encoder process: raw frames on stdin, the source audio file placed at the speech start with
 * sample-accurate silence before it and padded after it. The video: yuv420p frames → H.264 (libx264,
 * yuv420p, CRF 20, preset veryfast with the fastest motion search, BT.709 tags, constant frame rate) + AAC
 * (128 kb/s, 48 kHz) in MP4 with the index at the front (+faststart). The alpha video: yuva420p frames →
 * VP9 with its alpha (libvpx-vp9 at its fastest realtime speed, constant quality) + Opus in WebM, the form
 * Chromium and Firefox play with transparency.
 */
import type { ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { spawnMedia } from "./child-process";
import { FFMPEG_QUIET, killOnAbort, ffmpegPath } from "./ffmpeg";
import { audioInput } from "./ffmpeg-input";

/** Colour tags of both outputs: the frames are BT.709 limited range (paint/yuv.ts). */
export const BT709 = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"];

export const VIDEO_CODEC_ARGS = [
  "-c:v",
  "libx264",
  "-preset",
  "veryfast",
  "-crf",
  "20",
  // A static background and a moving face: the cheapest motion search (diamond, one subpixel pass) costs
  // veryfast's 20–38 % less x264 CPU for an SSIM 0.0002 lower and 6–12 % more bytes (docs/rendering.md).
  "-x264-params",
  "subme=1:me=dia",
  // One frame thread per core rather than x264's 1.5 per core: the painter shares the cores (2–4 % less CPU).
  "-threads",
  String(availableParallelism()),
  "-pix_fmt",
  "yuv420p",
  "-profile:v",
  "high",
  ...BT709,
];
export const AUDIO_CODEC_ARGS = ["-c:a", "aac", "-b:a", "128k", "-ar", "48000"];
export const AUDIO_RATE = 48_000;
const ALPHA_VIDEO_CODEC_ARGS = [
  "-c:v",
  "libvpx-vp9",
  "-pix_fmt",
  "yuva420p",
  "-deadline",
  "realtime",
  // libvpx's fastest realtime speed, 9: ffmpeg 5.1's -cpu-used stops at 8, its older name -speed does not
  // (5 % less VP9 CPU than 8, the same SSIM, 4 % fewer bytes).
  "-speed",
  "9",
  // One thread: the render's other work keeps both cores busy, and libvpx's threads cost a quarter more CPU.
  "-threads",
  "1",
  "-crf",
  "30",
  "-b:v",
  "0",
  // Blocks that did not change are not coded again: most of a talking head's frame (a fifth less CPU).
  "-static-thresh",
  "100",
  // Realtime mode codes each frame as it comes: the default 25-frame lookahead only buffers copies of the
  // frames (the same bytes, 12 % less CPU).
  "-lag-in-frames",
  "0",
  ...BT709,
];
const ALPHA_AUDIO_CODEC_ARGS = ["-c:a", "libopus", "-b:a", "96k", "-ar", "48000"];

export interface EncoderOptions {
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** Source audio (any format ffmpeg reads); omitted → silent track. */
  audioPath?: string;
  /** Output channels (1 or 2). */
  channels: number;
  /** Where the audio starts in the output, seconds. */
  audioStart: number;
  durationSeconds: number;
  outPath: string;
  /** "webm-alpha": yuva420p frames into the WebM with alpha; default the MP4. */
  format?: "mp4" | "webm-alpha";
  /** The MP4's video codec arguments (default VIDEO_CODEC_ARGS); bench-render's lossless reference. */
  videoArgs?: string[];
  /** A segment of a split render: the MP4 without audio (segment-join.ts adds the one audio track). */
  videoOnly?: boolean;
  signal?: AbortSignal;
}

/** What places the audio on the output's timeline: where it starts, its channels (segment-join.ts too). */
export type AudioPlacement = Pick<EncoderOptions, "audioPath" | "channels" | "audioStart">;

/**
 * The audio's input (as input number `index`) and the filter graph that ends in `[aout]`: silence up to
 * the speech start (sample-accurate), the source resampled, padded after it (the output's `-t` ends it).
 */
export function audioGraph(o: AudioPlacement, index: number): string[] {
  const cl = o.channels >= 2 ? "stereo" : "mono";
  const pad = Math.max(1, Math.round(o.audioStart * AUDIO_RATE));
  const fmt = `aformat=sample_fmts=fltp:sample_rates=${AUDIO_RATE}:channel_layouts=${cl}`;
  if (!o.audioPath) return ["-filter_complex", `anullsrc=r=${AUDIO_RATE}:cl=${cl},${fmt}[aout]`];
  return [
    ...audioInput(o.audioPath),
    "-filter_complex",
    `anullsrc=r=${AUDIO_RATE}:cl=${cl},atrim=end_sample=${pad},${fmt}[pre];` +
      `[${index}:a:0]aresample=${AUDIO_RATE},${fmt}[src];` +
      `[pre][src]concat=n=2:v=0:a=1,apad[aout]`,
  ];
}

export function encoderArgs(o: EncoderOptions): string[] {
  const webm = o.format === "webm-alpha";
  const args = [
    ...FFMPEG_QUIET,
    "-f",
    "rawvideo",
    "-pix_fmt",
    webm ? "yuva420p" : "yuv420p",
    "-s",
    `${o.width}x${o.height}`,
    "-framerate",
    String(o.fps),
    "-i",
    "pipe:0",
  ];
  const audio = !o.videoOnly;
  if (audio) args.push(...audioGraph(o, 1));
  args.push(
    "-map",
    "0:v:0",
    ...(audio ? ["-map", "[aout]"] : []),
    ...(webm ? ALPHA_VIDEO_CODEC_ARGS : (o.videoArgs ?? VIDEO_CODEC_ARGS)),
    "-r",
    String(o.fps),
    "-vsync",
    "cfr",
    ...(audio ? (webm ? ALPHA_AUDIO_CODEC_ARGS : AUDIO_CODEC_ARGS) : ["-an"]),
    "-t",
    o.durationSeconds.toFixed(6),
    ...(webm ? ["-f", "webm", o.outPath] : ["-movflags", "+faststart", "-f", "mp4", o.outPath]),
  );
  return args;
}

export class FrameEncoder {
  readonly child: ChildProcess;
  private stderr = "";
  private closed: Promise<{ code: number | null; signal: string | null }>;
  private failed: Error | undefined;
  private disposeAbort: () => void;
  /** Peak RSS of the ffmpeg child in bytes (sampled from /proc when available). */
  peakRss = 0;

  constructor(o: EncoderOptions) {
    this.child = spawnMedia(ffmpegPath(), encoderArgs(o), { stdio: ["pipe", "ignore", "pipe"] });
    this.child.stderr!.on("data", (b: Buffer) => {
      this.stderr += b.toString("utf8");
      if (this.stderr.length > 16_384) this.stderr = this.stderr.slice(-8_192);
    });
    this.child.stdin!.on("error", (e) => {
      this.failed ??= e;
    });
    this.disposeAbort = killOnAbort(this.child, o.signal);
    this.closed = new Promise((resolve) => {
      this.child.on("error", (e) => {
        this.failed ??= e;
        resolve({ code: null, signal: null });
      });
      this.child.on("close", (code, signal) => resolve({ code, signal }));
    });
  }

  get error(): Error | undefined {
    return this.failed;
  }

  get stderrTail(): string {
    return this.stderr.slice(-2000);
  }

  /** Write one frame; resolves when ffmpeg has consumed it (the buffer may then be reused). */
  write(frame: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failed) return reject(this.failed);
      this.child.stdin!.write(frame, (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Close stdin and wait for ffmpeg to finish. */
  async finish(): Promise<{ code: number | null; signal: string | null }> {
    this.child.stdin!.end();
    const r = await this.closed;
    this.disposeAbort();
    return r;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
    this.disposeAbort();
  }
}
