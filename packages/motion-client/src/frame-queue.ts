/**
 * Which motion frame to draw for the audio heard now. Every frame names the client's audio it goes with
 * (`audioMs`, the start of its 40 ms; idle frames stand where the received audio ended), so frames that arrive
 * early wait for their audio, and frames that arrive late (after a network stall) are skipped past rather
 * than drawn behind the voice.
 */
import type { MotionMessage } from "./types";

export class FrameQueue {
  private waiting: MotionMessage[] = [];
  /** The frame drawn last. */
  current: MotionMessage | undefined;

  add(frame: MotionMessage): void {
    this.waiting.push(frame);
  }

  /**
   * The frame for audio position `heardMs` (ms of the streamed audio reaching the ears): the latest frame whose
   * audio has started (at the same point the later one, but a frame of audio before an idle one), or
   * undefined when that is still the current frame. Frames of later audio keep waiting; none takes the mouth back to earlier audio.
   */
  at(heardMs: number): MotionMessage | undefined {
    let best = this.current;
    const later: MotionMessage[] = [];
    for (const f of this.waiting) {
      if (f.audioMs > heardMs) later.push(f);
      else if (!best || f.audioMs > best.audioMs || (f.audioMs === best.audioMs && (best.idle || !f.idle))) best = f;
    }
    this.waiting = later;
    if (best === this.current) return undefined;
    this.current = best;
    return best;
  }

  /** Without a playing position (a microphone): the frame that arrived last. */
  latest(): MotionMessage | undefined {
    const last = this.waiting.at(-1);
    this.waiting = [];
    if (last) this.current = last;
    return last;
  }
}
