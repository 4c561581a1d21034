/**
 * The video job kind's work, above paint/ and analysis/: portrait, rig and audio in, MP4 (and the WebM with
 * alpha) out — the lip track, the timeline and pose schedule, the static frames, the frame loop into the
 * encoder. It never imports avatar/ (the two kinds share only what lies below them).
 */
export { readPeakRss } from "./peak-memory";
export { staticFrames } from "./person-scene";
export { makePoseSchedule, type PoseSchedule } from "./pose-schedule";
export type { RenderInput, RenderSettings } from "./render-input";
export { RENDER_STAGES, renderVideo, type RenderResult } from "./render";
export {
  SPLIT_DEFAULTS,
  joinVideo,
  planSegments,
  videoAudioTrack,
  type JoinInput,
  type SplitRule,
} from "./segments";
export { FPS, LIP_LEAD_SECONDS, OPENING_SECONDS, makeTimeline, type Timeline } from "./timeline";
