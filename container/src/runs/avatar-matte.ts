/**
 * A video run's person matte (packages/contract/src/matte-format.ts). Only read when the render puts the
 * person on its own layer (a background image, replaceBackground or alpha). An Avatar made before mattes
 * has none stored (404), or one that does not fit its portrait: it is computed from the stored portrait
 * and rig, and stored for the next run; storing it is best effort (the next run would compute it again).
 */
import { MATTE_CONTENT_TYPE, type AvatarRig, type VideoDispatch } from "@avatar-video/contract";
import { LinkError } from "../io/public";
import { decodeMatte } from "../media/public";
import { objectFailure } from "../rules/public";
import { abortable, type JobContext } from "./context";

/** Whether this render needs the matte at all. */
export function needsMatte(d: VideoDispatch): boolean {
  return Boolean(d.backgroundUrl || d.avatar.background || d.settings.replaceBackground || d.settings.alpha);
}

/** The stored matte's bytes, or undefined where the Avatar has none yet. */
export async function storedMatte(ctx: JobContext<VideoDispatch>, signal: AbortSignal): Promise<Buffer | undefined> {
  const url = ctx.dispatch.avatar.matte;
  if (!url) return undefined;
  return abortable(ctx.link.getObject(url, ctx.config.media.maxObjectBytes), signal).catch((err) => {
    if (err instanceof LinkError && err.status === 404) return undefined;
    return objectFailure("the Avatar's matte")(err);
  });
}

/** The stored matte when it fits the portrait, else a new one (then stored where the dispatch says). */
export async function usableMatte(
  ctx: JobContext<VideoDispatch>,
  stored: Buffer | undefined,
  portraitPng: Buffer,
  rig: AvatarRig,
  signal: AbortSignal,
): Promise<Buffer> {
  if (stored && (await decodeMatte(stored, rig.portrait.width, rig.portrait.height))) return stored;
  const t = performance.now();
  const made = await abortable(ctx.engines.computeMatte(portraitPng, rig), signal);
  const target = ctx.dispatch.outputs.matte;
  const saved = target
    ? await abortable(ctx.link.putObject(target, { data: made }, MATTE_CONTENT_TYPE), signal).then(
        () => true,
        (err) => {
          if (signal.aborted) throw signal.reason;
          ctx.log.warn("matte_not_stored", { error: (err as Error).message });
          return false;
        },
      )
    : false;
  ctx.log.info("matte_made", { ms: Math.round(performance.now() - t), stored: saved, replaced: stored !== undefined });
  return made;
}
