/**
 * A job's life, above the two job kinds: accepted runs (concurrency slots, waiting list, dedupe, attempt
 * fencing, shutdown), each in its scratch directory, talking to the Worker (progress, artifacts in and out)
 * while avatar/ and video/ do the work, loaded on first use behind the Engines seam (tests put fakes there).
 */
export type { AvatarResult } from "./avatar-job";
export {
  defaultEngines,
  type AudioInfo,
  type AvatarAssets,
  type Engines,
  type RenderInput,
  type RenderOutput,
} from "./engines";
export { JobManager } from "./manager";
export type { VideoResult } from "./video-job";
