import { MAX_SEGMENTS } from "@avatar-video/contract";
import type { VideoJob } from "../../platform/db/schema";
import { workerConfig } from "../../platform/config";
import type { Env } from "../../platform/env";
import { rendererInstances } from "./renderer-target";

/** Audio longer than this renders split (SPLIT_AFTER_SECONDS overrides it, for tests). */
export const SPLIT_AFTER_SECONDS = 120;

/**
 * The split rule a whole render's run is given (docs/pipeline.md "Split renders"): audio over the threshold
 * becomes ceil(audio / threshold) segments, at most one per instance and MAX_SEGMENTS. None with one instance
 * (nothing would render at once) or with the alpha video (not split): that run renders the whole video.
 */
export function splitRule(
  env: Pick<Env, "RENDERER_INSTANCES" | "SPLIT_AFTER_SECONDS">,
  job: Pick<VideoJob, "settings">,
): { thresholdSeconds: number; maxSegments: number } | undefined {
  const maxSegments = Math.min(MAX_SEGMENTS, rendererInstances(env));
  if (maxSegments < 2 || job.settings.alpha) return undefined;
  return { thresholdSeconds: workerConfig(env).SPLIT_AFTER_SECONDS ?? SPLIT_AFTER_SECONDS, maxSegments };
}
