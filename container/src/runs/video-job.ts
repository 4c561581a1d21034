/**
 * Video job: media preparation (audio + background through the SSRF-safe fetcher, the Avatar's portrait,
 * rig and, when the person gets a layer of its own, matte from the Worker), the access re-check before
 * rendering (the Worker answers the `rendering` progress event with `{abort}` if access was revoked),
 * rendering, upload of the MP4 (and of the WebM with alpha).
 *
 * Split renders (docs/pipeline.md): a run dispatched with `split` whose audio is long ends after the access
 * check with a `split` event instead; a run with `segment` renders that segment's frames (segment 0 also the
 * audio track) and uploads them; the join is join-job.ts.
 *
 * Stages: preparing_media → rendering → encoding → uploading (then the Worker's `completed`).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import {
  JobFailure,
  unexpectedFailure,
  type MediaInput,
  formatDuration,
  mediaFetchFailure,
  objectFailure,
  unsupportedType,
} from "../rules/public";
import { BACKGROUND_INPUT, backgroundHeader } from "../media/public";
import { FetchError, safeFetch } from "../io/public";
import {
  AUDIO_TYPES,
  BACKGROUND_TYPES,
  type AvatarRig,
  type VideoDispatch,
  segmentCount,
} from "@avatar-video/contract";
import { type JobContext, abortable, since } from "./context";
import type { AudioInfo, RenderOutput } from "./engines";
import { checkPortrait, parseRig } from "./avatar-artifacts";
import { needsMatte, storedMatte, usableMatte } from "./avatar-matte";

export interface VideoResult {
  durationSeconds: number;
  frames: number;
  fps: number;
  bytes: number;
  width: number;
  height: number;
  /** The WebM with alpha (settings.alpha). */
  alphaVideo?: { bytes: number };
  audioDurationSeconds?: number;
  /** A segment run's: its index, its frames [start, end) of the timeline, and the timeline's frames. */
  segment?: { index: number; start: number; end: number; frames: number };
  timings: Record<string, number>;
}

/** A run that split the video ends with this instead of a result (WorkerLink.split). */
export interface SplitOutcome {
  split: number;
}

interface PreparedMedia {
  audioPath: string;
  audio: AudioInfo;
  backgroundPath?: string;
  portraitPng: Buffer;
  rig: AvatarRig;
  matte?: Buffer;
}

export async function runVideoJob(ctx: JobContext<VideoDispatch>): Promise<VideoResult | SplitOutcome> {
  const { dispatch, link, config, engines, log, signal } = ctx;
  const timings: Record<string, number> = {};

  await link.progress("preparing_media");
  let t = performance.now();
  // The whole preparation (every download, the decode check) has one window; when it closes the
  // transfers in flight are torn down and the job fails with preparation_timeout.
  const windowMs = config.media.preparationWindowMs;
  const window = new AbortController();
  const timer = setTimeout(
    () =>
      window.abort(
        new JobFailure(
          "preparation_timeout",
          `Media preparation did not finish within the ${formatDuration(windowMs)} preparation window.`,
        ),
      ),
    windowMs,
  );
  let media: PreparedMedia;
  try {
    media = await prepareMedia(ctx, AbortSignal.any([signal, window.signal]));
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (window.signal.aborted) throw window.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
  }
  timings.prepareMs = since(t);
  log.info("media_prepared", {
    ms: timings.prepareMs,
    audioSeconds: media.audio.durationSeconds,
    background: !!media.backgroundPath,
  });

  // Access is checked again by the Worker when it receives this event; an `{abort}` answer rejects here.
  await link.progress("rendering");
  const split =
    dispatch.split && !dispatch.settings.alpha ? segmentCount(media.audio.durationSeconds, dispatch.split) : 1;
  if (split > 1) {
    log.info("video_split", { audioSeconds: media.audio.durationSeconds, segments: split });
    return { split };
  }
  t = performance.now();
  const background = media.backgroundPath ? await readFile(media.backgroundPath) : undefined;
  // Of the engine's own steps only `encoding` is reported: audio analysis, composition and the frame loop
  // are all part of `rendering`, so progress.stage only ever moves forward.
  const reported = new Set<string>();
  const rendered = await abortable(
    engines
      .renderVideo({
        portraitPng: media.portraitPng,
        rig: media.rig,
        audioPath: media.audioPath,
        background,
        matte: media.matte,
        settings: dispatch.settings,
        workDir: ctx.workDir,
        signal,
        ...(dispatch.segment ? { segment: dispatch.segment, audioTrack: dispatch.segment.index === 0 } : {}),
        onStage: (stage) => {
          if (stage !== "encoding" || reported.has(stage) || signal.aborted) return;
          reported.add(stage);
          link.progress(stage).catch(() => {}); // an abort answer aborts `signal`, which stops the render
        },
      })
      .catch((err) => {
        if (signal.aborted) throw signal.reason;
        if (err instanceof JobFailure) throw err;
        throw new JobFailure("render_failed", "The video could not be rendered.", {
          detail: (err as Error)?.stack ?? String(err),
        });
      }),
    signal,
  );
  timings.renderMs = since(t);
  if (rendered.timings) for (const [k, v] of Object.entries(rendered.timings)) timings[`render.${k}`] = v;

  await link.progress("uploading");
  t = performance.now();
  const { alphaVideo: alphaUrl, audioTrack: audioUrl } = dispatch.outputs;
  const [bytes, alphaBytes] = await Promise.all([
    link.putObject(dispatch.outputs.video, { file: rendered.mp4Path }, "video/mp4"),
    rendered.webmPath && alphaUrl ? link.putObject(alphaUrl, { file: rendered.webmPath }, "video/webm") : undefined,
    rendered.audioTrackPath && audioUrl ? link.putObject(audioUrl, { file: rendered.audioTrackPath }, "audio/mp4") : 0,
  ]).catch(uploadFailed(signal));
  timings.uploadMs = since(t);

  return {
    durationSeconds: rendered.durationSeconds,
    frames: rendered.frames,
    fps: rendered.fps,
    bytes,
    width: dispatch.settings.width,
    height: dispatch.settings.height,
    ...(alphaBytes !== undefined ? { alphaVideo: { bytes: alphaBytes } } : {}),
    audioDurationSeconds: media.audio.durationSeconds,
    ...(dispatch.segment ? { segment: segmentDone(dispatch.segment.index, rendered) } : {}),
    timings,
  };
}

/** An output that could not be stored: the stop, when the run was stopped; else render_failed (retryable). */
export const uploadFailed = (signal: AbortSignal) => (err: unknown) => {
  if (signal.aborted) throw signal.reason;
  throw unexpectedFailure("video", `video upload failed: ${(err as Error).message}`);
};

function segmentDone(index: number, rendered: RenderOutput): NonNullable<VideoResult["segment"]> {
  if (!rendered.range || !rendered.timeline)
    throw unexpectedFailure("video", "the segment render did not say its frames");
  return { index, ...rendered.range, frames: rendered.timeline.frames };
}

/** All downloads run in parallel; the first failure cancels the others and is the job's failure. */
async function prepareMedia(ctx: JobContext<VideoDispatch>, outer: AbortSignal): Promise<PreparedMedia> {
  const { dispatch, link, config, engines, workDir } = ctx;
  const group = new AbortController();
  const signal = AbortSignal.any([outer, group.signal]);
  const task = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err) => {
      if (!group.signal.aborted) group.abort(err);
      throw err;
    });

  const audioPath = path.join(workDir, "audio.src");
  const audio = task(
    download(ctx, "audio", dispatch.audioUrl, audioPath, config.media.maxAudioBytes, AUDIO_TYPES, signal).then(() =>
      // A file whose content does not decode as audio fails here, whatever its Content-Type said.
      abortable(engines.probeAudio(audioPath, { signal }), signal),
    ),
  );

  let background: Promise<string | undefined> = Promise.resolve(undefined);
  if (dispatch.backgroundUrl) {
    const file = path.join(workDir, "background.src");
    background = task(
      download(
        ctx,
        "background image",
        dispatch.backgroundUrl,
        file,
        config.media.maxBackgroundBytes,
        BACKGROUND_TYPES,
        signal,
      ).then(() => checkImage(file)),
    );
  } else if (dispatch.avatar.background) {
    const file = path.join(workDir, "avatar-background.src");
    background = task(
      abortable(link.getObjectToFile(dispatch.avatar.background, file, config.media.maxBackgroundBytes), signal)
        .catch(objectFailure("the Avatar's background image"))
        .then(() => file),
    );
  }

  const portrait = task(
    abortable(link.getObject(dispatch.avatar.portrait, config.media.maxObjectBytes), signal).catch(
      objectFailure("the Avatar's portrait"),
    ),
  );
  const rig = task(
    abortable(link.getObject(dispatch.avatar.rig, config.media.maxObjectBytes), signal)
      .catch(objectFailure("the Avatar's rig"))
      .then(parseRig),
  );

  const stored = needsMatte(dispatch) ? task(storedMatte(ctx, signal)) : undefined;

  const [audioInfo, backgroundPath, portraitPng, rigValue, matteBytes] = await Promise.all([
    audio,
    background,
    portrait,
    rig,
    stored,
  ]);
  await checkPortrait(portraitPng, rigValue);
  const matte = stored ? await usableMatte(ctx, matteBytes, portraitPng, rigValue, signal) : undefined;
  return { audioPath, audio: audioInfo, backgroundPath, portraitPng, rig: rigValue, matte };
}

async function download(
  ctx: JobContext<VideoDispatch>,
  input: MediaInput,
  url: string,
  file: string,
  maxBytes: number,
  accepted: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<void> {
  const { config, log } = ctx;
  const start = performance.now();
  try {
    const got = await safeFetch(url, {
      maxBytes,
      totalTimeoutMs: config.media.transferDeadlineMs,
      firstByteTimeoutMs: config.media.firstByteMs,
      maxRedirects: 5,
      allowlist: config.allowlist,
      toFile: file,
      signal,
    });
    log.info("media_downloaded", { input, bytes: got.bytes, contentType: got.contentType, ms: since(start) });
    if (!got.contentType || !accepted.has(got.contentType)) throw unsupportedType(input, got.contentType, accepted);
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    if (err instanceof FetchError) {
      throw mediaFetchFailure(
        input,
        err,
        { maxBytes, transferDeadlineMs: config.media.transferDeadlineMs },
        performance.now() - start,
      );
    }
    throw err;
  }
}

/** The background must really be a PNG, JPEG or WebP image (whatever its Content-Type said). */
async function checkImage(file: string): Promise<string> {
  let format: string | undefined;
  await backgroundHeader(file).catch((err: unknown) => {
    if (err instanceof JobFailure) throw err; // too many pixels; an undecodable header is judged below
  });
  try {
    const meta = await sharp(file, { failOn: "error", ...BACKGROUND_INPUT }).metadata();
    format = meta.format;
    if (!meta.width || !meta.height) format = undefined;
  } catch {
    format = undefined;
  }
  if (format !== "png" && format !== "jpeg" && format !== "webp") {
    throw new JobFailure("unsupported_media_type", "The background image could not be decoded as PNG, JPEG or WebP.", {
      detail: `decoded as ${format}`,
    });
  }
  return file;
}
