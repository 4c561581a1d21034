/**
 * The face pose of every output frame: mouth from the lip track (leading the sound slightly), blinks and
 * head motion from a seed, transition gestures from the timeline, the caller's performance (expression
 * timeline on the audio's axis, head motion, emphasis, blink rate). Everything is decided before the frame
 * loop so a frame's pose depends only on its index.
 */
import { PERFORMANCE_DEFAULTS, type AvatarRig, type Performance } from "@avatar-video/contract";
import {
  blinkAmount,
  blinkStarts,
  BLINK,
  makeHeadMotion,
  PerformanceTrack,
  sampleTrack,
  type ExpressionWeights,
  type LipTrack,
} from "@avatar-video/motion-model";
import type { FacePose } from "@avatar-video/face-rig";
import { LIP_LEAD_SECONDS, motionAmount, transitionGesture, type Timeline } from "./timeline";

/** No blink starts or ends this close to the video's first and last frame (they show the still portrait). */
const BLINK_EDGE_SECONDS = 0.5;
const NO_GESTURE = { pitch: 0, brow: 0, ty: 0, holdBlink: false };

export interface PoseSchedule {
  poseAt(frame: number): FacePose;
}

export interface PoseScheduleOptions {
  track: LipTrack;
  timeline: Timeline;
  seed: number;
  /** Interocular distance in canvas px: head translations scale with it. */
  interocular: number;
  headMotion: boolean;
  blinks: boolean;
  /** The caller's direction (default: the animation before it existed). */
  performance?: Performance;
}

export function makePoseSchedule(o: PoseScheduleOptions): PoseSchedule {
  const tl = o.timeline;
  const performance = o.performance ?? PERFORMANCE_DEFAULTS;
  const starts = o.blinks
    ? blinkStarts(tl.durationSeconds, performance.blinksPerMinute, o.seed).filter(
        (b) =>
          b > BLINK_EDGE_SECONDS && b + BLINK.close + BLINK.hold + BLINK.open < tl.durationSeconds - BLINK_EDGE_SECONDS,
      )
    : [];
  const head = makeHeadMotion(o.seed, o.interocular);
  const track = new PerformanceTrack(performance);
  return {
    poseAt(frame: number): FacePose {
      const time = frame / tl.fps;
      const amount = o.headMotion ? motionAmount(tl, time) : 0;
      const mouth = sampleTrack(o.track, time - tl.speechStart + LIP_LEAD_SECONDS);
      // Cues are on the audio's time axis; the first and last frames show the photograph as it is.
      const { expression, style } = track.at(time - tl.speechStart);
      // Transition gestures are head motion too: scaled with it (none for a still head).
      const gestureGain = style.head;
      const gesture = o.headMotion ? transitionGesture(tl, time) : NO_GESTURE;
      const headPose = o.headMotion ? head(time, mouth.energy, mouth.emphasis, amount, style) : undefined;
      const blink = o.blinks && !gesture.holdBlink ? blinkAmount(starts, time) : 0;
      const drawn = scaled(expression, motionAmount(tl, time));
      return {
        open: mouth.open,
        spread: mouth.spread,
        round: mouth.round,
        press: mouth.press,
        tuck: mouth.tuck,
        relax: mouth.relax,
        blinkR: blink,
        blinkL: blink,
        brow: Math.min(1, (headPose?.brow ?? 0) + gesture.brow * amount),
        yaw: headPose?.yaw ?? 0,
        pitch: (headPose?.pitch ?? 0) + gesture.pitch * amount * gestureGain,
        roll: headPose?.roll ?? 0,
        tx: headPose?.tx ?? 0,
        ty: (headPose?.ty ?? 0) + gesture.ty * o.interocular * amount * gestureGain,
        ...(drawn ? { expression: drawn } : {}),
      };
    },
  };
}

/** The weights times `k`, or undefined when nothing shows (the photo's own face, the pose as before). */
function scaled(w: ExpressionWeights, k: number): ExpressionWeights | undefined {
  if (!(k > 0) || !(w.happy > 0 || w.serious > 0 || w.surprised > 0 || w.sad > 0)) return undefined;
  return { happy: w.happy * k, serious: w.serious * k, surprised: w.surprised * k, sad: w.sad * k };
}

/** Default seed: the same portrait and audio length always animate the same way. */
export function defaultAnimationSeed(rig: AvatarRig, samples: number): number {
  let h = 2166136261 ^ samples;
  for (let i = 0; i < rig.landmarks.length; i += 7) {
    h = Math.imul(h ^ Math.round(rig.landmarks[i][0] * 16), 16777619);
    h = Math.imul(h ^ Math.round(rig.landmarks[i][1] * 16), 16777619);
  }
  return h >>> 0;
}

/** Two poses draw the same frame. */
export function samePose(a: FacePose, b: FacePose): boolean {
  return (
    a.open === b.open &&
    a.spread === b.spread &&
    a.round === b.round &&
    a.press === b.press &&
    a.tuck === b.tuck &&
    a.relax === b.relax &&
    a.blinkR === b.blinkR &&
    a.blinkL === b.blinkL &&
    a.brow === b.brow &&
    a.yaw === b.yaw &&
    a.pitch === b.pitch &&
    a.roll === b.roll &&
    a.tx === b.tx &&
    a.ty === b.ty &&
    a.expression?.happy === b.expression?.happy &&
    a.expression?.serious === b.expression?.serious &&
    a.expression?.surprised === b.expression?.surprised &&
    a.expression?.sad === b.expression?.sad
  );
}
