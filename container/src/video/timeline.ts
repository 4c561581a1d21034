/**
 * Output timeline:
 *
 *   | lead-in (idle) | opening 0.5 s | speech (audio) | closing 0.5 s | lead-out (idle) |
 *   0                leadIn          speechStart      speechEnd       closingEnd        end
 *
 * Total = leadIn + opening + audio + closing + leadOut, rounded to whole frames at FPS.
 * The audio starts exactly at speechStart (sample-accurate silence padding before it).
 */
export const FPS = 25;
export const OPENING_SECONDS = 0.5;
export const CLOSING_SECONDS = 0.5;
/** The mouth leads the sound by this much (audiovisual tolerance is ~80 ms sound-first). */
export const LIP_LEAD_SECONDS = 0.05;
/** Motion eases in from the exact still portrait over the first, and back to it over the last, half second. */
export const EDGE_EASE_SECONDS = 0.5;

export interface Timeline {
  fps: number;
  frames: number;
  durationSeconds: number;
  leadIn: number;
  speechStart: number;
  speechEnd: number;
  closingEnd: number;
  audioSeconds: number;
}

export function makeTimeline(audioSeconds: number, leadIn: number, leadOut: number, fps = FPS): Timeline {
  const li = Math.max(0, Number.isFinite(leadIn) ? leadIn : 0);
  const lo = Math.max(0, Number.isFinite(leadOut) ? leadOut : 0);
  const speechStart = li + OPENING_SECONDS;
  const speechEnd = speechStart + audioSeconds;
  const closingEnd = speechEnd + CLOSING_SECONDS;
  const total = closingEnd + lo;
  const frames = Math.max(1, Math.round(total * fps));
  return { fps, frames, durationSeconds: frames / fps, leadIn: li, speechStart, speechEnd, closingEnd, audioSeconds };
}

const ease = (x: number) => {
  const t = Math.min(1, Math.max(0, x));
  return t * t * (3 - 2 * t);
};

/** Overall motion amount 0..1: 0 exactly on the first and the last frame. */
export function motionAmount(tl: Timeline, t: number): number {
  const last = (tl.frames - 1) / tl.fps;
  const a = ease(t / EDGE_EASE_SECONDS);
  const b = ease((last - t) / EDGE_EASE_SECONDS);
  return Math.min(a, b);
}

/**
 * Transition gestures: during the opening the head lifts slightly and the brows rise (attention, a small
 * inhale); during the closing the head gives a small settling nod. Returns pitch (degrees, + = up) and
 * brow lift 0..1 and whether blinks are held off.
 */
export function transitionGesture(
  tl: Timeline,
  t: number,
): { pitch: number; brow: number; ty: number; holdBlink: boolean } {
  const bump = (x: number) => (x <= 0 || x >= 1 ? 0 : Math.sin(Math.PI * x) ** 2);
  if (t >= tl.leadIn && t < tl.speechStart) {
    const x = (t - tl.leadIn) / OPENING_SECONDS;
    return { pitch: 0.9 * bump(x), brow: 0.35 * bump(x), ty: -0.01 * bump(x), holdBlink: true };
  }
  if (t >= tl.speechEnd && t < tl.closingEnd) {
    const x = (t - tl.speechEnd) / CLOSING_SECONDS;
    return { pitch: -1.1 * bump(x), brow: 0, ty: 0.008 * bump(x), holdBlink: false };
  }
  return { pitch: 0, brow: 0, ty: 0, holdBlink: false };
}
