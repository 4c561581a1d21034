/**
 * Avatar creation job: download the source image (SSRF-safe), analyse + preprocess it into portrait,
 * rig, cover and person matte, report `preprocessed` (the Worker captures the Avatar Creation unit on that
 * event), upload the artifacts to the signed object URLs and report `succeeded`.
 *
 * Stages: downloading → analyzing → preprocessed → generating.
 */
import { unexpectedFailure } from "../rules/public";
import { MATTE_CONTENT_TYPE, type AvatarDispatch } from "@avatar-video/contract";
import { type JobContext, abortable, since } from "./context";

export interface AvatarResult {
  portrait: { bytes: number; width: number; height: number; contentType: "image/png" };
  rig: { bytes: number; contentType: "application/json" };
  cover: { bytes: number; contentType: "image/jpeg" };
  /** Absent when the dispatch asked for no matte, or none could be made. */
  matte?: { bytes: number; contentType: "image/png" };
  face: {
    box: { x: number; y: number; width: number; height: number };
    pose: { yaw: number; pitch: number; roll: number };
    interocularPx: number;
  };
  source: { bytes: number; contentType: string | null };
  timings: Record<string, number>;
}

export async function runAvatarJob(ctx: JobContext<AvatarDispatch>): Promise<AvatarResult> {
  const { dispatch, link, config, engines, log, signal } = ctx;
  const timings: Record<string, number> = {};

  // avatar/ is imported on the first Avatar job, not at start-up (as the engines are: engines.ts).
  const { downloadSource } = await import("../avatar/public");
  await link.progress("downloading");
  let t = performance.now();
  const image = await downloadSource(dispatch.imageUrl, config, signal);
  timings.downloadMs = since(t);
  log.info("source_image_downloaded", { bytes: image.bytes, contentType: image.contentType, ms: timings.downloadMs });

  await link.progress("analyzing");
  t = performance.now();
  const assets = await abortable(engines.createAvatarAssets(image.body, { signal }), signal);
  timings.preprocessMs = since(t);
  if (assets.timings) for (const [k, v] of Object.entries(assets.timings)) timings[`preprocess.${k}`] = v;
  const rigJson = Buffer.from(JSON.stringify(assets.rig));

  // Preprocessing is complete: this is the event on which the reserved Avatar Creation is captured.
  await link.progress("preprocessed");
  await link.progress("generating");
  t = performance.now();
  const matteUrl = assets.mattePng && dispatch.outputs.matte;
  if (dispatch.outputs.matte && !assets.mattePng) log.warn("matte_not_made", {});
  const [portraitBytes, rigBytes, coverBytes, matteBytes] = await Promise.all([
    link.putObject(dispatch.outputs.portrait, { data: assets.portraitPng }, "image/png"),
    link.putObject(dispatch.outputs.rig, { data: rigJson }, "application/json"),
    link.putObject(dispatch.outputs.cover, { data: assets.coverJpeg }, "image/jpeg"),
    matteUrl ? link.putObject(matteUrl, { data: assets.mattePng! }, MATTE_CONTENT_TYPE) : undefined,
  ]).catch((err) => {
    if (signal.aborted) throw signal.reason;
    throw unexpectedFailure("avatar", `artifact upload failed: ${(err as Error).message}`);
  });
  timings.uploadMs = since(t);

  const rig = assets.rig;
  return {
    portrait: {
      bytes: portraitBytes,
      width: rig.portrait.width,
      height: rig.portrait.height,
      contentType: "image/png",
    },
    rig: { bytes: rigBytes, contentType: "application/json" },
    cover: { bytes: coverBytes, contentType: "image/jpeg" },
    ...(matteBytes !== undefined ? { matte: { bytes: matteBytes, contentType: MATTE_CONTENT_TYPE } } : {}),
    face: { box: rig.faceBox, pose: rig.pose, interocularPx: rig.metrics.interocular },
    source: { bytes: image.bytes, contentType: image.contentType },
    timings,
  };
}
