import { MOTION_FPS, MotionStream, type MotionFrame, useAnalysisKernel } from "@avatar-video/motion-model";
import analysisKernel from "@avatar-video/motion-model/analysis-kernel.wasm";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../platform/env";
import { rememberCoolDown } from "../accounts/public";
import { FRAME_MS, type Live, nextDue, openLive, seedOf, WAITING_CHECK_MS } from "./connection-state";
import {
  advanceAudioClock,
  advanceCover,
  creditPause,
  FLOOD_COOL_DOWN_MS,
  nextIdleAt,
  pacingViolation,
} from "./pacing";
import { CLOSE, judgeMessage, MOTION_PROTOCOL } from "./protocol";
import { SETUP_HEADER, type SessionSetup } from "./session-setup";
import { analyse } from "./sliced-analysis";

// Workers compile no code at run time: the analysis's wasm kernel comes as a module (wasm-kernel.ts).
useAnalysisKernel(analysisKernel);

/**
 * One live motion connection (one object per connection, created near the client by the upgrade).
 * The socket is accepted with the hibernation API; while it is open one timer, armed for the next moment
 * something is due (the moment the stream starves, the next idle frame, the idle or session limit), paces idle
 * frames and enforces the limits, so the object stays in memory for the connection's life. If it
 * is ever evicted anyway (a deploy), the next message finds no state and the connection is closed with
 * 1012 "service restart" so the client reconnects, instead of hanging.
 */
export class MotionSession extends DurableObject<Env> {
  private live: Live | undefined;

  async fetch(request: Request): Promise<Response> {
    const setup = JSON.parse(request.headers.get(SETUP_HEADER) ?? "null") as SessionSetup | null;
    if (!setup || request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
      return new Response("internal route", { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ connectionId: setup.connectionId, accountId: setup.accountId });
    this.live = openLive(server, setup, Date.now());
    this.schedule();
    return new Response(null, {
      status: 101,
      webSocket: client,
      headers: setup.subprotocol ? { "Sec-WebSocket-Protocol": MOTION_PROTOCOL } : {},
    });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const live = this.live;
    if (!live || live.ws !== ws) return this.orphan(ws);
    if (live.closed) return;
    try {
      const now = Date.now();
      live.lastClientAt = now;
      const verdict = judgeMessage(message, live.phase);
      switch (verdict.kind) {
        case "close":
          return this.end(verdict.code, verdict.reason);
        case "start": {
          live.phase = "streaming";
          live.stream = new MotionStream(verdict.sampleRate, seedOf(live.setup.connectionId), verdict.performance);
          live.cover = now;
          live.lastIdleAt = undefined;
          live.starvingSince = undefined;
          const { avatar, modelVersion } = live.setup;
          ws.send(JSON.stringify({ type: "ready", fps: MOTION_FPS, modelVersion, avatar }));
          this.schedule(); // idle frames are due from now on
          return;
        }
        case "audio": {
          // Judged with this message's audio counted, before any of it is analysed (pacing.ts).
          const { sampleRate } = live.stream!;
          const clock = advanceAudioClock(live.audioClock, verdict.bytes.byteLength / 2, sampleRate);
          const flooding = pacingViolation(clock, now);
          if (flooding) return this.end(CLOSE.policy, flooding, false, now + FLOOD_COOL_DOWN_MS);
          live.audioClock = clock;
          live.cover = advanceCover(live.cover, now, verdict.bytes.byteLength / 2, sampleRate);
          live.lastIdleAt = undefined; // the armed timer finds the stream covered and re-arms itself
          live.starvingSince = undefined;
          return await analyse(live, verdict.bytes, (frames) => this.send(frames));
        }
        case "perform":
          live.stream!.perform(verdict.change);
          return;
        case "stop": {
          live.phase = "stopped";
          await live.work;
          if (live.closed) return;
          this.send(live.stream!.finish());
          ws.send(JSON.stringify({ type: "end", frames: live.stream!.frames }));
          return this.end(CLOSE.normal, "end of stream");
        }
      }
    } catch (err) {
      console.error(
        JSON.stringify({ event: "motion_message_failed", connectionId: live.setup.connectionId, error: String(err) }),
      );
      this.end(CLOSE.internal, "internal error");
    }
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // Answer the client's close (runtimes without automatic close replies would leave it waiting).
    try {
      ws.close(code === 1005 || code === 1006 ? CLOSE.normal : code, reason);
    } catch {
      // already closed
    }
    if (this.live?.ws === ws) this.end(code, reason, true);
    else this.orphan(ws, true);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    if (this.live?.ws === ws) this.end(CLOSE.internal, "socket error", true);
    else this.orphan(ws, true);
  }

  private tick(): void {
    const live = this.live;
    if (!live || live.closed) return;
    try {
      const now = Date.now();
      const { sessionSeconds, idleSeconds } = live.setup.limits;
      if (now - live.openedAt >= sessionSeconds * 1000) {
        this.end(CLOSE.policy, `session length limit of ${sessionSeconds} s reached`);
        return;
      }
      if (now - live.lastClientAt >= idleSeconds * 1000) {
        this.end(CLOSE.policy, `idle timeout: no message for ${idleSeconds} s`);
        return;
      }
      const idleAt = nextIdleAt(live.cover, live.lastIdleAt, FRAME_MS);
      // Before start the client has sent no audio yet: a pause like any other for the flood rule.
      const starving = live.phase !== "stopped" && !live.work && idleAt <= now;
      // A tick more than a frame late means this thread is behind: the audio may be waiting in its queue, and
      // idle frames would only add work; a later tick, after the queue, decides.
      const late = now - live.timerDue > FRAME_MS;
      if (!starving || late) {
        live.starvingSince = undefined;
        // Behind, even mid-stretch: the pause is confirmed afresh (a frame apart) before it counts again.
        if (late) live.lastIdleAt = undefined;
      } else if (live.lastIdleAt === undefined && live.starvingSince === undefined) {
        // Starving, as far as this thread has read: audio that reached it during a stall of the thread (a
        // loaded machine) may still be queued behind this tick. A frame later, with that audio read, decides.
        live.starvingSince = now;
      } else if (live.lastIdleAt !== undefined || now - live.starvingSince! >= FRAME_MS) {
        // The audio received no longer covers real time: an idle frame (25 fps, slots missed are skipped),
        // taking no audio time, so audio that comes late is analysed as if it had come on time.
        live.lastIdleAt = idleAt + FRAME_MS <= now ? now : idleAt;
        live.starvingSince = undefined; // confirmed: the stretch's idle frames follow at 25 fps
        // The client pauses (this thread is on time): the pause banks at most PAUSE_CREDIT_MS (pacing.ts); before
        // start, up to the next check too.
        live.audioClock = creditPause(live.audioClock, live.stream ? now : now + WAITING_CHECK_MS);
        if (live.stream) this.send([live.stream.idle()]);
      }
      this.schedule();
    } catch (err) {
      console.error(
        JSON.stringify({ event: "motion_tick_failed", connectionId: live.setup.connectionId, error: String(err) }),
      );
      this.end(CLOSE.internal, "internal error");
    }
  }

  /** Arms the one timer for the next moment something is due (a few wake-ups a second while audio flows). */
  private schedule(): void {
    const live = this.live;
    if (!live || live.closed) return;
    const due = nextDue(live);
    clearTimeout(live.timer);
    const now = Date.now();
    live.timerDue = Math.max(now + 1, due);
    live.timer = setTimeout(() => this.tick(), live.timerDue - now);
  }

  private send(frames: MotionFrame[]): void {
    const ws = this.live?.ws;
    if (!ws) return;
    for (const f of frames) ws.send(JSON.stringify({ type: "motion", ...f }));
  }

  /** Close once: stop the timer, give the account its connection slot back. */
  private end(code: number, reason: string, byPeer = false, coolDownUntil?: number): void {
    const live = this.live;
    if (!live || live.closed) return;
    live.closed = true;
    clearTimeout(live.timer);
    if (!byPeer) {
      try {
        live.ws.close(code, reason);
      } catch {
        // already closing
      }
    }
    // This isolate refuses the account's reconnects from now on, before any read (cool-down-memory.ts); the
    // account's limiter hears it too (release) and answers every other isolate.
    if (coolDownUntil) rememberCoolDown(live.setup.accountId, coolDownUntil, Date.now());
    this.release(live.setup.accountId, live.setup.connectionId, coolDownUntil);
  }

  /** A socket without in-memory state (the object was evicted): close it so the client reconnects. */
  private orphan(ws: WebSocket, byPeer = false): void {
    const meta = ws.deserializeAttachment() as { connectionId: string; accountId: string } | null;
    if (!byPeer) {
      try {
        ws.close(CLOSE.restart, "service restarted: reconnect with a new session token");
      } catch {
        // already closing
      }
    }
    if (meta) this.release(meta.accountId, meta.connectionId);
  }

  private release(accountId: string, connectionId: string, coolDownUntil?: number): void {
    this.ctx.waitUntil(
      this.env.ACCOUNT_LIMITER.getByName(accountId)
        .endMotionConnection(connectionId, coolDownUntil)
        // A repeat flooder's cool-down is longer than the one remembered at the close: remember the limiter's.
        .then((until) => until && rememberCoolDown(accountId, until, Date.now()))
        .catch((err: unknown) =>
          console.error(JSON.stringify({ event: "motion_release_failed", connectionId, error: String(err) })),
        ),
    );
  }
}
