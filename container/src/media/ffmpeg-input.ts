/**
 * How ffmpeg and ffprobe open an untrusted input. Every source is downloaded (through the SSRF-safe fetcher)
 * before they see it, so the only protocol a job needs is `file`; and only the demuxers of the spec's audio
 * types may open it. Without these a file named .mp3 that is really an HLS or DASH manifest is auto-detected
 * and its segments fetched by ffmpeg itself, past every address check. Images never reach ffmpeg: backgrounds
 * and portraits are decoded by sharp under pixel caps (media/image-bounds.ts, avatar/decode.ts).
 */

/** Demuxers of MP3, WAV, MP4/M4A (mov), AAC (ADTS) and Ogg: the spec's audio types. */
export const AUDIO_DEMUXERS = "mp3,wav,mov,aac,ogg";

/** Input options for an audio file, placed right before it (`-i` for ffmpeg; ffprobe takes the bare path). */
export const audioInputOptions = (): string[] => ["-protocol_whitelist", "file", "-format_whitelist", AUDIO_DEMUXERS];

/** ffmpeg's `-i <path>` for an audio file, with its input options. */
export const audioInput = (path: string): string[] => [...audioInputOptions(), "-i", path];
