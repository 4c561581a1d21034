import type { MotionFrame } from "@avatar-video/motion-model";
import type { Live } from "./connection-state";

/** Audio analysed in one go; a longer message is analysed in slices of this length. */
const SLICE_MS = 100;
const yieldToOthers = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Feeds audio to the analysis. A real-time client's chunk (up to SLICE_MS) is analysed at once; a longer
 * message — a buffered start, a flooder's 2 s — in slices of SLICE_MS with a yield between them, so it never
 * holds the thread other connections' objects share for more than one slice. In order per connection;
 * nothing more is analysed once the connection is closed.
 */
export function analyse(
  live: Live,
  bytes: Uint8Array,
  send: (frames: MotionFrame[]) => void,
): Promise<void> | undefined {
  const slice = 2 * Math.round((live.stream!.sampleRate * SLICE_MS) / 1000);
  if (!live.work && bytes.byteLength <= slice) return void send(live.stream!.pushPcm16(bytes));
  const work = (live.work ?? Promise.resolve()).then(async () => {
    for (let at = 0; at < bytes.byteLength && !live.closed; at += slice) {
      if (at > 0) await yieldToOthers();
      if (!live.closed) send(live.stream!.pushPcm16(bytes.subarray(at, at + slice)));
    }
    if (live.work === work) live.work = undefined;
  });
  live.work = work;
  return work;
}
