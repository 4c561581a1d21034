/**
 * The frame loop: each frame's pose is deformed and painted into the next free pooled buffer, which is
 * handed to the encoder; a frame whose pose did not change re-sends the previous buffer without any work.
 * A buffer is painted again only once ffmpeg has consumed it — both ffmpegs when the person layer also
 * goes to the alpha video. A segment of a split render paints its own frames only: the first is always
 * painted (a pose is a function of the frame's time alone, pose-schedule.ts), so its pixels are the ones
 * the whole render paints there.
 */
import { deform, type FacePose, type FaceModel } from "@avatar-video/face-rig";
import type { FrameEncoder } from "../media/public";
import type { PeakMemory } from "./peak-memory";
import type { FramePainter } from "../paint/public";
import { samePose, type PoseSchedule } from "./pose-schedule";

export interface FrameLoopResult {
  /** Frames actually painted (the rest repeated the previous frame). */
  renderedFrames: number;
  /** Milliseconds spent waiting for ffmpeg to release a pooled buffer. */
  waitMs: number;
}

/** Frames [start, end) of the timeline. */
export interface FrameRange {
  start: number;
  end: number;
}

export async function paintAndEncodeFrames(
  frames: FrameRange,
  poses: PoseSchedule,
  model: FaceModel,
  painter: FramePainter,
  encoder: FrameEncoder,
  memory: PeakMemory,
  signal?: AbortSignal,
  alphaEncoder?: FrameEncoder,
): Promise<FrameLoopResult> {
  const poolSize = painter.pool.length;
  const pending: Array<Promise<void> | undefined> = new Array(poolSize);
  const positions = new Float32Array(model.count * 2);
  let previousPose: FacePose | undefined;
  let previousBuffer = -1;
  let renderedFrames = 0;
  let waitMs = 0;
  for (let frame = frames.start; frame < frames.end; frame++) {
    if (signal?.aborted) throw signal.reason ?? new Error("aborted");
    if (encoder.error || alphaEncoder?.error) break;
    const pose = poses.poseAt(frame);
    let buffer: number;
    if (previousPose && previousBuffer >= 0 && samePose(pose, previousPose)) {
      buffer = previousBuffer; // unchanged frame: send the same bytes again
    } else {
      buffer = (previousBuffer + 1) % poolSize;
      const waitStart = performance.now();
      if (pending[buffer]) await pending[buffer];
      waitMs += performance.now() - waitStart;
      deform(model, pose, positions);
      painter.paint(positions, pose, buffer);
      renderedFrames++;
    }
    const written = alphaEncoder
      ? Promise.all([encoder.write(painter.pool[buffer]), alphaEncoder.write(painter.personPool[buffer])]).then(
          () => undefined,
        )
      : encoder.write(painter.pool[buffer]);
    pending[buffer] = written;
    written.catch(() => {});
    previousPose = pose;
    previousBuffer = buffer;
    if ((frame & 31) === 0) {
      memory.sampleNode();
      memory.sampleChild(encoder.child.pid);
      if (alphaEncoder) memory.sampleChild(alphaEncoder.child.pid);
    }
  }
  await Promise.all(pending.filter(Boolean).map((p) => p!.catch(() => {})));
  return { renderedFrames, waitMs };
}
