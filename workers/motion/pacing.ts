/**
 * The two clocks of a live stream: where the audio a client has sent ends on the wall clock, read two ways.
 *
 * Flooding: live audio may run at most MAX_AHEAD_MS ahead of real time. A client pushing audio at network
 * speed would otherwise keep its session object busy analysing an hour of audio. The audio clock starts when
 * the connection opens (before the client can send anything) and advances by the audio received: a client is
 * judged by the audio it sent against the wall time since then, never by when its messages happen to be
 * read, so audio that waited in the queue of a busy service thread — any length of time — and then arrives
 * all at once is no burst ahead. Only a pause the service saw while on time (session-object.ts: the stream
 * starving at two on-time checks a frame apart) moves the clock up, to PAUSE_CREDIT_MS behind now: a longer
 * pause banks no more credit than that for a later burst. A message is judged with its own audio counted,
 * before it is analysed: a flooding connection gets at most MAX_AHEAD_MS (plus the jitter allowance and the
 * credit of a pause) analysed, however long its messages are.
 *
 * Starving: idle frames are due only when the audio received so far no longer covers real time — the cover
 * clock (which a pause resets to now) has fallen STARVE_GRACE_MS behind — not after a quiet spell on the
 * socket: a client streaming ahead of real time may stall as long as its lead lasts.
 */
export const MAX_AHEAD_MS = 2_000;
/**
 * Closing waits until the audio is this much further ahead: a client streaming right at the limit has later
 * messages arrive earlier than its first one now and then (network jitter), which would look like a lead
 * over 2 s.
 */
export const ARRIVAL_JITTER_MS = 250;
/** How far behind now a pause the service saw leaves the audio clock: the network's lateness it forgives. */
export const PAUSE_CREDIT_MS = 3_000;
/** How far the received audio may fall short of real time (jitter of a real-time client) before idle frames. */
export const STARVE_GRACE_MS = 100;
/** After a connection is closed for flooding, the account's new connections wait this long (429); a repeat flooder longer (accounts/motion/motion-connections.ts). */
export const FLOOD_COOL_DOWN_MS = 10_000;

const ms = (samples: number, sampleRate: number) => (samples / sampleRate) * 1000;

/** The audio clock (flood rule) after `samples` more PCM16 samples at `sampleRate`; it starts at the connection's opening. */
export const advanceAudioClock = (clock: number, samples: number, sampleRate: number): number =>
  clock + ms(samples, sampleRate);

/** The audio clock after a pause seen by an on-time service: at most PAUSE_CREDIT_MS behind now. */
export const creditPause = (clock: number, now: number): number => Math.max(clock, now - PAUSE_CREDIT_MS);

/** The close reason when the audio clock (this message included) runs more than MAX_AHEAD_MS (and the jitter) past now, else null. */
export function pacingViolation(clock: number, now: number): string | null {
  const ahead = clock - now;
  if (ahead <= MAX_AHEAD_MS + ARRIVAL_JITTER_MS) return null;
  return `audio is ${Math.round(ahead)} ms ahead of real time; stream at most ${MAX_AHEAD_MS / 1000} s ahead`;
}

/** Where the received audio stops covering real time after `samples` more; audio after a pause covers from now. */
export const advanceCover = (cover: number, now: number, samples: number, sampleRate: number): number =>
  Math.max(cover, now) + ms(samples, sampleRate);

/** When the next idle frame is due: STARVE_GRACE_MS after the cover ends, then one per frame until audio comes. */
export const nextIdleAt = (cover: number, lastIdleAt: number | undefined, frameMs: number): number =>
  lastIdleAt === undefined ? cover + STARVE_GRACE_MS : lastIdleAt + frameMs;
