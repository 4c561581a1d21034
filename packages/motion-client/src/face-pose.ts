/**
 * A motion frame as the face pose the renderer deforms (face-rig's FacePose): the same channels, so live and
 * rendered faces differ only by the codec. No frame yet = the rest pose.
 */
import type { FacePose } from "@avatar-video/face-rig";
import type { MotionMessage } from "./types";

export const poseOf = (m: MotionMessage | undefined): FacePose => ({
  open: m?.mouthOpen ?? 0,
  spread: m?.mouthWide ?? 0,
  round: m?.mouthRound ?? 0,
  press: m?.lipsClosed ?? 0,
  tuck: m?.lipTuck ?? 0,
  relax: m?.smileRelax ?? 0,
  blinkR: m?.blink ?? 0,
  blinkL: m?.blink ?? 0,
  brow: m?.brow ?? 0,
  yaw: m?.head.yaw ?? 0,
  pitch: m?.head.pitch ?? 0,
  roll: m?.head.roll ?? 0,
  tx: 0,
  ty: 0,
  ...(m?.expression ? { expression: m.expression } : {}),
});
