/**
 * What a performance costs live, per frame (docs/performance.md, "Cost"), without a stack:
 *
 *   npx tsx scripts/bench-live-performance.ts [--connections 20] [--seconds 12] [--rounds 5] [--inputs DIR]
 *
 *  - the service: `--connections` MotionStreams fed the same speech in 20 ms PCM16 messages, interleaved as
 *    one session object serves them, each frame encoded as the JSON it sends (bench-motion's load, by hand):
 *    without a performance, and with one (start: happy 0.6, headMotion 2; a `perform` change every 2 s, so
 *    expressions ease and the frames carry their weights);
 *  - the draw: face-rig's deform of the phone sample portrait's model (what the live client and the renderer
 *    run per frame) for the same poses without and with the expression.
 * Rounds alternate without / with; printed: CPU µs per frame (medians over the rounds) and the median of the
 * rounds' with / without ratios.
 * On a loaded machine the figures wobble with the load; the ratio of alternated rounds less so.
 */
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import { PERFORMANCE_DEFAULTS, type Performance } from "@avatar-video/contract";
import { deform, type FacePose, NEUTRAL_POSE } from "@avatar-video/face-rig";
import { type MotionFrame, MotionStream } from "@avatar-video/motion-model";
import { speechLike, synthSpeech } from "../test/renderer/helpers/media-audio";
import { portraitModel } from "./quality/live-compare";
import { sampleAvatar, samplePortraits } from "./quality/sample-portraits";

const { values: args } = parseArgs({
  options: {
    connections: { type: "string", default: "20" },
    seconds: { type: "string", default: "12" },
    rounds: { type: "string", default: "5" },
    inputs: { type: "string", default: "quality-out/performance/inputs" },
  },
});
const RATE = 16_000;
const connections = Number(args.connections);
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
const PERFORMANCE: Performance = { ...PERFORMANCE_DEFAULTS, expression: "happy", intensity: 0.6, headMotion: 2 };
const CHANGES = ["serious", "surprised", "sad", "happy"] as const;

const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** The speech as 20 ms PCM16 messages. */
function messages(): ArrayBuffer[] {
  const speech = synthSpeech(speechLike(seconds, 3), RATE);
  const pcm = Int16Array.from(speech, (x) => Math.max(-32768, Math.min(32767, Math.round(x * 32767))));
  const chunk = RATE / 50;
  const out: ArrayBuffer[] = [];
  for (let at = 0; at < pcm.length; at += chunk) out.push(pcm.slice(at, at + chunk).buffer);
  return out;
}

/** CPU µs per frame of `connections` streams, and the frames' mean JSON size; the poses for the draw. */
function serve(msgs: ArrayBuffer[], p?: Performance) {
  const streams = Array.from({ length: connections }, (_, i) => new MotionStream(RATE, i + 1, p));
  let frames = 0;
  let bytes = 0;
  const poses: MotionFrame[] = [];
  const t0 = cpuUs();
  msgs.forEach((m, k) => {
    // A change every 2 s (100 messages of 20 ms), as a caller's `perform` messages.
    if (p && k % 100 === 99) for (const s of streams) s.perform({ expression: CHANGES[((k / 100) % 4) | 0] });
    for (const s of streams)
      for (const f of s.pushPcm16(new Uint8Array(m.slice(0)))) {
        bytes += JSON.stringify({ type: "motion", ...f }).length;
        frames++;
        if (s === streams[0]) poses.push(f);
      }
  });
  return { us: (cpuUs() - t0) / frames, bytes: bytes / frames, poses };
}

/** A motion frame as the face pose the live client draws (motion-client's poseOf). */
const poseOf = (f: MotionFrame): FacePose => ({
  ...NEUTRAL_POSE,
  open: f.mouthOpen,
  spread: f.mouthWide,
  round: f.mouthRound,
  press: f.lipsClosed,
  tuck: f.lipTuck,
  relax: f.smileRelax,
  blinkL: f.blink,
  blinkR: f.blink,
  brow: f.brow ?? 0,
  ...f.head,
  ...(f.expression ? { expression: f.expression } : {}),
});

const images = await samplePortraits(args.inputs!);
const { rig } = await sampleAvatar(args.inputs!, "phone", images.phone!);
const { width: W, height: H } = rig.portrait;
const model = portraitModel(rig, W, H);
const xy = new Float32Array(model.count * 2);
/** CPU µs per deform of `poses` (ten passes). */
function draw(poses: FacePose[]): number {
  const t0 = cpuUs();
  for (let pass = 0; pass < 10; pass++) for (const pose of poses) deform(model, pose, xy);
  return (cpuUs() - t0) / (10 * poses.length);
}

const msgs = messages();
serve(msgs.slice(0, 200), PERFORMANCE); // compile and settle first
const figures: Record<"without" | "with", { serve: number[]; draw: number[]; bytes: number }> = {
  without: { serve: [], draw: [], bytes: 0 },
  with: { serve: [], draw: [], bytes: 0 },
};
console.log(
  `${connections} streams × ${seconds} s of speech, 20 ms messages, ${rounds} rounds alternated; draw: phone portrait's model (${model.count} points); load ${loadavg()[0]!.toFixed(1)}`,
);
for (let round = 1; round <= rounds; round++)
  for (const on of [false, true]) {
    const s = serve(msgs, on ? PERFORMANCE : undefined);
    const f = figures[on ? "with" : "without"];
    f.serve.push(s.us);
    f.bytes = s.bytes;
    f.draw.push(draw(s.poses.map(poseOf)));
  }
const line = (name: string, key: "serve" | "draw") => {
  const [a, b] = [figures.without[key], figures.with[key]];
  // Each round's with / without: the pair ran back to back, under the same load.
  const ratio = median(a.map((x, i) => b[i]! / x));
  return `${name}: ${median(a).toFixed(1)} µs per frame without, ${median(b).toFixed(1)} with (round by round ${ratio.toFixed(2)}×; rounds ${a.map((x) => x.toFixed(1)).join(" ")} / ${b.map((x) => x.toFixed(1)).join(" ")})`;
};
console.log(line("service (analysis, head, track, frame JSON)", "serve"));
console.log(`  frame JSON ${figures.without.bytes.toFixed(0)} bytes without, ${figures.with.bytes.toFixed(0)} with`);
console.log(line("draw (deform)", "draw"));
console.log(`load average after: ${loadavg()[0]!.toFixed(1)}`);
