import type { MotionLimits } from "../accounts/public";

/** What the upgrade route decided, handed to the connection's object in this header (internal only). */
export const SETUP_HEADER = "X-Motion-Setup";

export interface SessionSetup {
  connectionId: string;
  accountId: string;
  modelVersion: string;
  avatar: { id: string; coverUrl: string; rigUrl: string };
  limits: MotionLimits;
  /** Echo `motion.v1` as the chosen subprotocol (the client offered it). */
  subprotocol: boolean;
}
