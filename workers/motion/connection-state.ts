import { MOTION_FPS, type MotionStream } from "@avatar-video/motion-model";
import { nextIdleAt } from "./pacing";
import type { Phase } from "./protocol";
import type { SessionSetup } from "./session-setup";

/** What a session object (session-object.ts) holds in memory for its connection. */
export interface Live {
  ws: WebSocket;
  setup: SessionSetup;
  openedAt: number;
  phase: Phase;
  stream?: MotionStream;
  lastClientAt: number;
  /** Where the audio sent so far ends on the wall clock, for the flood rule (pacing.ts); from the opening on. */
  audioClock: number;
  /** Where the audio received so far stops covering real time (pacing.ts); before start, the opening. */
  cover: number;
  /** Wall time of the last idle frame of the current starving stretch (none since the last audio). */
  lastIdleAt: number | undefined;
  /** When an on-time tick first found the stream starving (the first idle frame waits a frame to confirm it). */
  starvingSince: number | undefined;
  /** Analysis of earlier audio still running in slices (sliced-analysis.ts); later audio waits for it. */
  work?: Promise<void>;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer is due: a tick much later than that finds the thread behind. */
  timerDue: number;
  closed: boolean;
}

/** One motion frame of audio, ms. */
export const FRAME_MS = 1000 / MOTION_FPS;
/** Before start there are no idle frames to send: the wait is checked (as a pause, for the flood rule) this often. */
export const WAITING_CHECK_MS = 1_000;

/** A connection just accepted, waiting for its start message. */
export function openLive(ws: WebSocket, setup: SessionSetup, now: number): Live {
  return {
    ws,
    setup,
    openedAt: now,
    phase: "waiting",
    lastClientAt: now,
    audioClock: now,
    cover: now,
    lastIdleAt: undefined,
    starvingSince: undefined,
    timer: undefined,
    timerDue: now,
    closed: false,
  };
}

/** The next moment something is due: the session or idle limit, the starving check, the next idle frame. */
export function nextDue(live: Live): number {
  const { sessionSeconds, idleSeconds } = live.setup.limits;
  let due = Math.min(live.openedAt + sessionSeconds * 1000, live.lastClientAt + idleSeconds * 1000);
  if (live.starvingSince !== undefined) due = Math.min(due, live.starvingSince + FRAME_MS);
  else if (live.phase === "waiting" && live.lastIdleAt !== undefined)
    due = Math.min(due, live.lastIdleAt + WAITING_CHECK_MS);
  else if (live.phase !== "stopped") due = Math.min(due, nextIdleAt(live.cover, live.lastIdleAt, FRAME_MS));
  return due;
}

/** The motion stream's seed: the same connection id always moves alike. */
export const seedOf = (id: string) => {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return h >>> 0;
};
