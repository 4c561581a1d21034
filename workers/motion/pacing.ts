/**
 * Live audio may run at most MAX_AHEAD_MS ahead of real time. The audio clock is where the audio a client has
 * sent ends on the wall clock; it never falls behind now (a pause banks no credit for a later burst). A client
 * pushing audio at network speed would otherwise keep its session object busy analysing an hour of audio.
 * A message is judged with its own audio counted, before it is analysed: a flooding connection gets at most
 * MAX_AHEAD_MS analysed, however long its messages are (not MAX_AHEAD_MS plus one 64 KiB message).
 */
export const MAX_AHEAD_MS = 2_000;
/** After a connection is closed for flooding, the account's new connections wait this long (429); a repeat flooder longer (accounts/motion/motion-connections.ts). */
export const FLOOD_COOL_DOWN_MS = 10_000;

/** The audio clock after `samples` more PCM16 samples at `sampleRate`. */
export const advanceAudioClock = (
  clock: number | undefined,
  now: number,
  samples: number,
  sampleRate: number,
): number => Math.max(clock ?? now, now) + (samples / sampleRate) * 1000;

/** The close reason when the audio clock (this message included) runs more than MAX_AHEAD_MS past now, else null. */
export function pacingViolation(clock: number | undefined, now: number): string | null {
  const ahead = (clock ?? now) - now;
  if (ahead <= MAX_AHEAD_MS) return null;
  return `audio is ${Math.round(ahead)} ms ahead of real time; stream at most ${MAX_AHEAD_MS / 1000} s ahead`;
}
