/** What the live stream sends 25 times a second (stream.ts), and the rounding its values go out with. */
import type { HeadMotion } from "./life";
import type { ExpressionWeights } from "./performance-track";
import { smoothstep } from "./smoothstep";

export interface MotionFrame {
  /** Frames sent on this stream so far (idle frames included); `t` = frame / 25 drives blinks and head motion. */
  frame: number;
  t: number;
  /**
   * The client's audio this frame goes with: the start (ms) of its 40 ms. On an idle frame, where the audio
   * received so far ends (the frame stands in for audio that has not arrived).
   */
  audioMs: number;
  /** Present (true) on idle frames: no audio covered this moment, the mouth rests closed. */
  idle?: true;
  mouthOpen: number;
  mouthWide: number;
  mouthRound: number;
  lipsClosed: number;
  /** Lower lip under the upper teeth (f, v). */
  lipTuck: number;
  /** How much of a smiling photo's smile relaxes while speaking. */
  smileRelax: number;
  blink: number;
  head: { yaw: number; pitch: number; roll: number };
  /** Brow raise 0..1 on stressed syllables (emphasis); present when above 0. */
  brow?: number;
  /** The expression drawn on the face (performance-track.ts); present while one shows. */
  expression?: ExpressionWeights;
}

/** Four decimals: what a frame's values go out with. */
export const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** A frame's brow raise and expression, each only when it shows; both ease in with the motion. */
export function performed(h: HeadMotion, w: ExpressionWeights, life: number): Pick<MotionFrame, "brow" | "expression"> {
  const k = smoothstep(0, 0.5, life);
  const brow = r4(h.brow);
  const expression = {
    happy: r4(w.happy * k),
    serious: r4(w.serious * k),
    surprised: r4(w.surprised * k),
    sad: r4(w.sad * k),
  };
  const shows = expression.happy > 0 || expression.serious > 0 || expression.surprised > 0 || expression.sad > 0;
  return { ...(brow > 0 ? { brow } : {}), ...(shows ? { expression } : {}) };
}
