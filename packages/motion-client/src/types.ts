import type { AvatarRig } from "@avatar-video/contract";
import type { MotionFrame } from "@avatar-video/motion-model";

/** Messages of protocol motion.v1 (docs/motion.md). */
export interface ReadyMessage {
  type: "ready";
  fps: number;
  modelVersion: string;
  avatar: { id: string; coverUrl: string; rigUrl: string };
}

/** One motion frame, as the shared motion model computes it (packages/motion-model). */
export interface MotionMessage extends MotionFrame {
  type: "motion";
}

export interface EndMessage {
  type: "end";
  frames: number;
}

export type ServiceMessage = ReadyMessage | MotionMessage | EndMessage;

/** The rig served by `rigUrl`: the renderer's AvatarRig plus signed links to the portrait and, once the Avatar has one, its person matte. */
export interface LiveRig extends AvatarRig {
  portraitUrl: string;
  matteUrl?: string;
}

export type ClientStatus =
  | { state: "connecting" | "open" | "streaming" | "stopped" }
  | { state: "closed"; code: number; reason: string }
  | { state: "error"; message: string };
