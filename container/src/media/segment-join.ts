/**
 * The join of a split render: the segments' video streams concatenated as they are (ffmpeg's concat
 * demuxer, `-c copy`: no frame is decoded or encoded again) and muxed with the one audio track, encoded
 * once over the whole timeline exactly as the single-instance encoder places it (encoder.ts audioGraph;
 * the same AAC packets) while the segments render, so the join itself only copies. Each segment
 * is an MP4 of its own frames only, encoded with the same settings and starting with an IDR frame
 * (x264's GOPs are closed), so the joined stream decodes frame for frame as its segments do.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AUDIO_CODEC_ARGS, type AudioPlacement, audioGraph } from "./encoder";
import { FFMPEG_QUIET, ffprobePath, ffmpegPath, run } from "./ffmpeg";

export interface AudioTrackOptions extends AudioPlacement {
  durationSeconds: number;
  /** An .m4a. */
  outPath: string;
  signal?: AbortSignal;
}

/** The video's whole audio track, alone (AAC in MP4), as renderVideo's encoder would encode it. */
export async function encodeAudioTrack(o: AudioTrackOptions): Promise<void> {
  const args = [...FFMPEG_QUIET, ...audioGraph(o, 0)];
  args.push("-map", "[aout]", ...AUDIO_CODEC_ARGS, "-t", o.durationSeconds.toFixed(6), "-f", "mp4", o.outPath);
  const r = await run(ffmpegPath(), args, { signal: o.signal });
  if (r.code !== 0) throw new JoinError(`ffmpeg audio exit ${r.code} ${r.signal ?? ""}: ${r.stderr.slice(-2000)}`);
}

export interface JoinOptions {
  /** The segments' MP4s in timeline order (absolute paths, files this process wrote). */
  segments: string[];
  /** encodeAudioTrack's output. */
  audioTrack: string;
  /** Video frames the joined file must hold (the timeline's). */
  frames: number;
  durationSeconds: number;
  /** Where the concat list is written. */
  workDir: string;
  outPath: string;
  signal?: AbortSignal;
}

export class JoinError extends Error {}

export async function joinSegments(o: JoinOptions): Promise<void> {
  const list = join(o.workDir, "segments.txt");
  await writeFile(list, o.segments.map((p) => `file '${p.replaceAll("'", "'\\''")}'\n`).join(""));
  const args = [
    ...FFMPEG_QUIET,
    "-f",
    "concat",
    "-safe",
    "0",
    "-protocol_whitelist",
    "file",
    "-i",
    list,
    "-protocol_whitelist",
    "file",
    "-i",
    o.audioTrack,
    "-map",
    "0:v:0",
    "-map",
    "1:a:0",
    "-c",
    "copy",
    "-t",
    o.durationSeconds.toFixed(6),
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    o.outPath,
  ];
  const r = await run(ffmpegPath(), args, { signal: o.signal });
  if (r.code !== 0) throw new JoinError(`ffmpeg join exit ${r.code} ${r.signal ?? ""}: ${r.stderr.slice(-2000)}`);
  const frames = await videoPackets(o.outPath, o.signal);
  if (frames !== o.frames) throw new JoinError(`the joined video has ${frames} frames, the timeline ${o.frames}`);
}

/** Video packets in a file (one per frame; counted without decoding). */
export async function videoPackets(path: string, signal?: AbortSignal): Promise<number> {
  const r = await run(
    ffprobePath(),
    [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-count_packets",
      "-show_entries",
      "stream=nb_read_packets",
      "-of",
      "csv=p=0",
      path,
    ],
    { signal },
  );
  if (r.code !== 0) throw new JoinError(`ffprobe exit ${r.code}: ${r.stderr.slice(-2000)}`);
  return Number(r.stdout.toString("utf8").trim());
}
