/**
 * Media files and the tools that read and write them, above rules/ and io/: the ffmpeg/ffprobe binaries and
 * how they open untrusted input, the audio probe, the frame encoder, image pixel caps and the matte's PNG.
 */
export { MAX_AUDIO_SECONDS, decodeMono, decodeMonoArgs, probeAudio, tooLong, type AudioInfo } from "./audio-probe";
export { BT709, FrameEncoder, VIDEO_CODEC_ARGS, encoderArgs } from "./encoder";
export { JoinError, encodeAudioTrack, joinSegments, videoPackets } from "./segment-join";
export {
  MIN_SYSTEM_MAJOR,
  chooseFfmpeg,
  ffmpegChoice,
  ffmpegPath,
  ffprobePath,
  killOnAbort,
  parseVersion,
  run,
  throwIfAborted,
  type ChoiceInputs,
} from "./ffmpeg";
export { childEnv, childLimits, hasPrlimit, limitedCommand, spawnMedia } from "./child-process";
export { BACKGROUND_INPUT, backgroundHeader } from "./image-bounds";
export { decodeMatte, encodeMatte } from "./matte-png";
