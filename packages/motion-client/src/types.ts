/** Messages of protocol motion.v1 (docs/motion.md). */
export interface ReadyMessage {
  type: "ready";
  fps: number;
  modelVersion: string;
  avatar: { id: string; coverUrl: string; rigUrl: string };
}

export interface MotionMessage {
  type: "motion";
  frame: number;
  t: number;
  mouthOpen: number;
  mouthWide: number;
  mouthRound: number;
  lipsClosed: number;
  blink: number;
  head: { yaw: number; pitch: number; roll: number };
}

export interface EndMessage {
  type: "end";
  frames: number;
}

export type ServiceMessage = ReadyMessage | MotionMessage | EndMessage;

/** The rig served by `rigUrl`: the renderer's AvatarRig plus a signed link to the portrait. */
export interface LiveRig {
  version: 1;
  portrait: { width: number; height: number };
  landmarks: [number, number, number][];
  faceBox: { x: number; y: number; width: number; height: number };
  pose: { yaw: number; pitch: number; roll: number };
  metrics: { interocular: number; mouthWidth: number; lipGap: number; eyeOpening: { right: number; left: number } };
  portraitUrl: string;
}

export type ClientStatus =
  | { state: "connecting" | "open" | "streaming" | "stopped" }
  | { state: "closed"; code: number; reason: string }
  | { state: "error"; message: string };
