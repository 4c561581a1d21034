/**
 * Audio probing and decoding (ffprobe / ffmpeg as chosen by ffmpeg.ts).
 *
 * Failure codes (see docs/rendering.md):
 * - `empty_media`            the file has zero bytes, or decodes to no audio samples
 * - `unsupported_media_type` the file is not something ffmpeg decodes as audio (no audio stream, garbage,
 *                            an image, text, a decode error)
 * - `renderer_rejected`      the audio is longer than MAX_AUDIO_SECONDS
 *
 * A WAV header is judged before ffprobe reads the file: ffmpeg clamps a data chunk to the bytes the file
 * holds, but a header announcing 10 hours is refused at once rather than believed or silently shortened.
 */
import { stat } from "node:fs/promises";
import { JobFailure } from "../rules/public";
import { ffmpegPath, ffprobePath, run, throwIfAborted } from "./ffmpeg";
import { audioInput, audioInputOptions } from "./ffmpeg-input";
import { readWavAnnouncement } from "./wav-header";

/** Longest audio the renderer accepts (60 minutes). */
export const MAX_AUDIO_SECONDS = 3600;

export interface AudioInfo {
  durationSeconds: number;
  codec: string;
  sampleRate: number;
  channels: number;
}

function unsupported(detail: string): JobFailure {
  return new JobFailure("unsupported_media_type", "The audio file could not be decoded as audio.", { detail });
}

/** "3725.3 s (62 min 5 s)": seconds, and minutes for a human. */
export function describeSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  const min = Math.floor(whole / 60);
  const sec = whole % 60;
  const human = min === 0 ? `${sec} s` : sec === 0 ? `${min} min` : `${min} min ${sec} s`;
  const exact = Number.isInteger(seconds) ? `${seconds}` : seconds.toFixed(1);
  return `${exact} s (${human})`;
}

/** `renderer_rejected` with both durations; `atLeast` when decoding stopped counting at a cap. */
export function tooLong(seconds: number, atLeast = false, max = MAX_AUDIO_SECONDS): JobFailure {
  return new JobFailure(
    "renderer_rejected",
    `The audio is ${atLeast ? "longer than " : ""}${describeSeconds(seconds)}${atLeast ? "" : " long"}; the longest accepted is ${describeSeconds(max)}.`,
  );
}

/**
 * A WAV header announcing more than `max` seconds: `renderer_rejected`, as a file that long. One announcing
 * more than a second of samples the file does not hold: `unsupported_media_type` (cut short, or a header that
 * lies). A header that left the size open passes: the file is measured by its samples.
 */
async function checkWavHeader(path: string, max = MAX_AUDIO_SECONDS): Promise<void> {
  const wav = await readWavAnnouncement(path);
  if (!wav || wav.dataBytes === undefined) return;
  const announced = wav.dataBytes / wav.byteRate;
  const header = `The WAV header announces ${describeSeconds(announced)} of audio`;
  const holdsIt = wav.dataBytes - wav.heldBytes <= wav.byteRate;
  if (announced > max + 1) {
    // A file that really is that long gets the message of any over-long audio; a bomb is named as a header.
    if (holdsIt) throw tooLong(announced, false, max);
    throw new JobFailure("renderer_rejected", `${header}; the longest accepted is ${describeSeconds(max)}.`);
  }
  if (!holdsIt) {
    const held = describeSeconds(Math.max(wav.heldBytes, 0) / wav.byteRate);
    throw new JobFailure(
      "unsupported_media_type",
      `${header} but the file holds ${held}: it is cut short or its header is wrong.`,
    );
  }
}

/**
 * Probe an audio file. Throws `JobFailure` (`empty_media`, `unsupported_media_type`, `renderer_rejected`).
 * The duration is the container's (or the stream's) declared duration; the renderer re-measures it from
 * the decoded samples.
 */
export async function probeAudio(path: string, signal?: AbortSignal): Promise<AudioInfo> {
  const st = await stat(path);
  if (st.size === 0) throw new JobFailure("empty_media", "The audio file is empty.");
  await checkWavHeader(path);
  const r = await run(
    ffprobePath(),
    ["-v", "error", ...audioInputOptions(), "-print_format", "json", "-show_format", "-show_streams", path],
    { signal, maxStdout: 4 << 20 },
  );
  throwIfAborted(signal);
  if (r.code !== 0) throw unsupported(`ffprobe exit ${r.code}: ${r.stderr.slice(-500)}`);
  let parsed: {
    streams?: Array<Record<string, unknown>>;
    format?: Record<string, unknown>;
  };
  try {
    parsed = JSON.parse(r.stdout.toString("utf8"));
  } catch {
    throw unsupported("ffprobe output not JSON");
  }
  const audio = (parsed.streams ?? []).find((s) => s.codec_type === "audio");
  if (!audio) throw unsupported("no audio stream");
  const formatName = String(parsed.format?.format_name ?? "");
  // Images and pipes that ffprobe reads as "audio" do not exist, but guard against raw-PCM guesses anyway.
  if (/^(image2|png_pipe|jpeg_pipe|webp_pipe|tty|txt)/.test(formatName)) throw unsupported(`format ${formatName}`);
  const num = (v: unknown) => {
    const n = typeof v === "string" || typeof v === "number" ? Number(v) : NaN;
    return Number.isFinite(n) ? n : NaN;
  };
  let duration = num(audio.duration);
  if (!(duration > 0)) duration = num(parsed.format?.duration);
  const info: AudioInfo = {
    durationSeconds: Math.max(duration || 0, 0), // NaN (neither declared) and negatives → 0
    codec: String(audio.codec_name ?? "unknown"),
    sampleRate: num(audio.sample_rate) || 0,
    channels: num(audio.channels) || 0,
  };
  if (!(info.sampleRate > 0) || !(info.channels > 0)) throw unsupported("audio stream without rate/channels");
  // Allow a little slack for containers whose declared duration overshoots; decoded length is checked again.
  if (info.durationSeconds > MAX_AUDIO_SECONDS + 1) throw tooLong(info.durationSeconds);
  return info;
}

/**
 * Decode the first audio stream to mono float PCM at `sampleRate`, the whole file in memory (tests and
 * tools; the renderer analyses long audio window by window: analysis/lip-stream.ts).
 * Throws `unsupported_media_type` on a decode error, `empty_media` when there are no samples,
 * `renderer_rejected` when longer than MAX_AUDIO_SECONDS.
 */
/** ffmpeg arguments that decode an audio file's first stream to mono float PCM at `sampleRate` on stdout. */
export function decodeMonoArgs(path: string, sampleRate: number): string[] {
  const out = ["-map", "0:a:0", "-vn", "-sn", "-dn", "-ac", "1", "-ar", String(sampleRate), "-f", "f32le", "pipe:1"];
  return ["-nostdin", "-hide_banner", "-v", "error", ...audioInput(path), ...out];
}

export async function decodeMono(path: string, sampleRate: number, signal?: AbortSignal): Promise<Float32Array> {
  const maxBytes = Math.ceil((MAX_AUDIO_SECONDS + 2) * sampleRate) * 4;
  const r = await run(ffmpegPath(), decodeMonoArgs(path, sampleRate), { signal, maxStdout: maxBytes });
  throwIfAborted(signal);
  if (r.truncated) throw tooLong(r.stdout.length / 4 / sampleRate);
  if (r.code !== 0) throw unsupported(`ffmpeg decode exit ${r.code}: ${r.stderr.slice(-500)}`);
  const n = Math.floor(r.stdout.length / 4);
  if (n > (MAX_AUDIO_SECONDS + 1) * sampleRate) throw tooLong(n / sampleRate);
  if (n === 0) throw new JobFailure("empty_media", "The audio file contains no audio samples.");
  // Copy into an aligned buffer (Buffer.concat may return an unaligned view).
  const pcm = new Float32Array(n);
  new Uint8Array(pcm.buffer).set(r.stdout.subarray(0, n * 4));
  return pcm;
}
