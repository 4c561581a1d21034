/**
 * motion-client: make an Avatar speak live in the browser.
 *
 *   const live = await LiveAvatar.connect({ serviceUrl: "https://…", token, avatarId, canvas });
 *   await live.startMicrophone();        // or: await live.playFile(file)
 *   live.perform({ expression: "happy" }); // eased in over 0.3 s, as a cue (docs/performance.md)
 *   live.stop();                          // sends {"type":"stop"}: the last frames, then "end"
 *
 * The session token travels as the subprotocol `token.<jwt>` next to `motion.v1` (browsers cannot set
 * headers). Audio is streamed as PCM16LE at the AudioContext's rate through an AudioWorklet; motion frames are
 * drawn with the renderer's deformation (avatar-canvas.ts): a played file's with the audio heard (by their
 * `audioMs`, frame-queue.ts), a microphone's as they arrive.
 */
import { createCapture, type Capture } from "./audio-capture";
import { AvatarCanvas } from "./avatar-canvas";
import { FrameQueue } from "./frame-queue";
import type { PerformanceFields } from "@avatar-video/contract";
import type { PerformChange } from "@avatar-video/motion-model";
import type { ClientStatus, MotionMessage, ReadyMessage, ServiceMessage } from "./types";

export type { ClientStatus, EndMessage, LiveRig, MotionMessage, ReadyMessage, ServiceMessage } from "./types";
export { AvatarCanvas } from "./avatar-canvas";

export interface ConnectOptions {
  /** Base URL of the service (http(s)://host); the WebSocket goes to {serviceUrl}/v1/motion. */
  serviceUrl: string;
  token: string;
  avatarId: string;
  canvas: HTMLCanvasElement;
  onStatus?: (status: ClientStatus) => void;
  onFrame?: (frame: MotionMessage) => void;
  /**
   * File playback is delayed by this much so the sound meets its frames (default 0.2 s): a frame comes back
   * 131 ms after its audio is sent (40 ms, 71 ms of look-ahead, a 20 ms chunk) plus the network's round trip.
   * Frames are drawn with the audio heard either way; a delay too short only makes the mouth lag.
   */
  playbackDelaySeconds?: number;
  /**
   * Draw the person alone on a transparent canvas, over whatever the page shows behind it (default: the
   * portrait with its own backdrop). Needs the Avatar's person matte; without one the status is an error.
   */
  transparent?: boolean;
  /** How the Avatar performs from the start (docs/performance.md); `perform` changes it later. */
  performance?: PerformanceFields;
}

export class LiveAvatar {
  ready: ReadyMessage | undefined;
  avatar: AvatarCanvas | undefined;
  /** The frame drawn last. */
  get frame(): MotionMessage | undefined {
    return this.queue.current;
  }
  framesReceived = 0;
  private readonly queue = new FrameQueue();
  /** While a file plays: the ms of it heard now (its start and delay on the AudioContext's clock). */
  private heardMs: (() => number) | undefined;
  private capture: Capture | undefined;
  private source: AudioNode | undefined;
  private media: MediaStream | undefined;
  private raf = 0;
  private dirty = false;

  private constructor(
    readonly ws: WebSocket,
    readonly options: ConnectOptions,
  ) {
    ws.binaryType = "arraybuffer";
    ws.onmessage = (e) => this.onMessage(e.data);
    ws.onclose = (e) => {
      this.status({ state: "closed", code: e.code, reason: e.reason });
      void this.release();
    };
    const loop = () => {
      const next = this.heardMs ? this.queue.at(this.heardMs()) : this.queue.latest();
      if (next) this.dirty = true;
      if (this.dirty && this.avatar) {
        this.avatar.draw(this.frame);
        this.dirty = false;
      }
      this.raf = requestAnimationFrame(loop);
    };
    this.raf = requestAnimationFrame(loop);
  }

  /** Opens the connection (resolves once it is open; a refused upgrade rejects). */
  static connect(options: ConnectOptions): Promise<LiveAvatar> {
    const url = new URL("/v1/motion", options.serviceUrl);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("avatarId", options.avatarId);
    const ws = new WebSocket(url, ["motion.v1", `token.${options.token}`]);
    options.onStatus?.({ state: "connecting" });
    return new Promise((resolve, reject) => {
      ws.onopen = () => {
        const live = new LiveAvatar(ws, options);
        live.status({ state: "open" });
        resolve(live);
      };
      ws.onerror = () =>
        reject(
          new Error(
            "The motion service refused the connection (token, Avatar or limits): request a new token and retry.",
          ),
        );
    });
  }

  /** Streams the microphone. */
  async startMicrophone(): Promise<void> {
    this.media = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
    });
    const capture = await this.begin();
    this.source = capture.context.createMediaStreamSource(this.media);
    this.source.connect(capture.input);
  }

  /** Plays an audio file (heard after a short delay that matches the frames) and streams it; stops at its end. */
  async playFile(file: Blob | ArrayBuffer): Promise<void> {
    const capture = await this.begin();
    const bytes = file instanceof Blob ? await file.arrayBuffer() : file;
    const buffer = await capture.context.decodeAudioData(bytes.slice(0));
    const src = capture.context.createBufferSource();
    src.buffer = buffer;
    const delaySeconds = this.options.playbackDelaySeconds ?? 0.2;
    const delay = capture.context.createDelay(Math.max(1, delaySeconds));
    delay.delayTime.value = delaySeconds;
    src.connect(capture.input);
    src.connect(delay).connect(capture.context.destination);
    src.onended = () => this.stop();
    this.source = src;
    const context = capture.context;
    const startedAt = context.currentTime;
    src.start(startedAt);
    this.heardMs = () => (context.currentTime - (context.outputLatency || 0) - startedAt - delaySeconds) * 1000;
  }

  /** Ends the audio: the service sends the remaining frames, then `end`, then closes. */
  stop(): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "stop" }));
    this.status({ state: "stopped" });
    void this.release();
  }

  /** Changes expression, intensity, head motion, emphasis or blinks from now on (eased in over 0.3 s). */
  perform(change: PerformChange): void {
    // Before the audio starts the service takes no `perform`: the change goes with `start` instead.
    if (!this.capture) this.options.performance = { ...this.options.performance, ...change };
    else if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "perform", ...change }));
  }

  /** Closes the connection at once. */
  close(): void {
    cancelAnimationFrame(this.raf);
    void this.release();
    if (this.ws.readyState <= WebSocket.OPEN) this.ws.close(1000, "client closed");
  }

  private async begin(): Promise<Capture> {
    if (this.capture) throw new Error("already streaming: one audio source per connection");
    const capture = await createCapture((pcm) => {
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(pcm);
    });
    this.capture = capture;
    const { performance } = this.options;
    this.ws.send(
      JSON.stringify({
        type: "start",
        sampleRate: capture.context.sampleRate,
        ...(performance ? { performance } : {}),
      }),
    );
    this.status({ state: "streaming" });
    return capture;
  }

  private async release(): Promise<void> {
    const capture = this.capture;
    this.capture = undefined;
    this.media?.getTracks().forEach((t) => t.stop());
    this.media = undefined;
    this.source?.disconnect();
    this.source = undefined;
    if (capture && capture.context.state !== "closed") await capture.close();
  }

  private onMessage(data: unknown): void {
    if (typeof data !== "string") return;
    const msg = JSON.parse(data) as ServiceMessage;
    if (msg.type === "ready") {
      this.ready = msg;
      AvatarCanvas.load(this.options.canvas, msg.avatar.rigUrl, { transparent: this.options.transparent }).then(
        (avatar) => {
          this.avatar = avatar;
          this.dirty = true;
        },
        (err: Error) => this.status({ state: "error", message: `The Avatar could not be drawn: ${err.message}` }),
      );
    } else if (msg.type === "motion") {
      this.queue.add(msg);
      this.framesReceived++;
      this.options.onFrame?.(msg);
    }
  }

  private status(s: ClientStatus): void {
    this.options.onStatus?.(s);
  }
}
