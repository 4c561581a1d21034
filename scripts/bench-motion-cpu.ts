/**
 * npx tsx scripts/bench-motion-cpu.ts — the live analysis's cost per audio message, without a stack.
 *
 * Drives what a session object runs for each audio message of a connection (workers/motion/session-object.ts):
 * the message's bytes as a Uint8Array, MotionStream.pushPcm16 (resampling, analysis, classifier, frames) and
 * each frame as the JSON the object sends — for --connections streams, their messages interleaved as one
 * thread serves them, each --chunk-ms of the same speech bench:motion sends (12 s, 16 kHz by default; browsers
 * send 44.1 or 48 kHz: --rate 48000). Prints per sample rate: µs of CPU per message (and of it the JSON), what
 * that is per real-time connection in % of a core, and the garbage collections meanwhile (a major one pauses
 * every connection on the thread) — on a loaded machine the times wobble with the load.
 *
 * --callgrind counts instructions instead, which no load changes: it bundles this script and runs it under
 * valgrind's callgrind twice (--connections N and 2N), and prints the difference per message (start-up and
 * compilation cancel out). Prints figures; asserts nothing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { type MotionFrame, MotionStream } from "@avatar-video/motion-model";
import { speechLike, synthSpeech } from "../test/renderer/helpers/media-audio";

const { values: args } = parseArgs({
  options: {
    rate: { type: "string", default: "16000,48000,44100" },
    "chunk-ms": { type: "string", default: "20" },
    connections: { type: "string", default: "20" },
    seconds: { type: "string", default: "12" },
    callgrind: { type: "boolean", default: false },
    // Internal: one measured run for --callgrind (no warm-up, no timing), its message count on stdout.
    quiet: { type: "boolean", default: false },
  },
});
const rates = args.rate!.split(",").map(Number);
const chunkMs = Number(args["chunk-ms"]);
const connections = Number(args.connections);
const seconds = Number(args.seconds);

/** The bench:motion speech as PCM16 at `rate`, cut into messages of chunkMs. */
function messages(rate: number): ArrayBuffer[] {
  const speech = synthSpeech(speechLike(seconds, 3), rate);
  const pcm = new Int16Array(speech.length);
  speech.forEach((x, i) => {
    pcm[i] = Math.max(-32768, Math.min(32767, Math.round(x * 32767)));
  });
  const chunk = Math.round((rate * chunkMs) / 1000);
  const out: ArrayBuffer[] = [];
  for (let at = 0; at < pcm.length; at += chunk) out.push(pcm.slice(at, at + chunk).buffer);
  return out;
}

/** What the object sends for a frame (session-object.ts `send`). */
const encode = (f: MotionFrame) => JSON.stringify({ type: "motion", ...f });

interface Run {
  messages: number;
  frames: number;
  /** CPU ms of the messages: bytes, pushPcm16 and each frame's JSON. */
  cpu: number;
  /** µs of CPU per frame's JSON alone (a sample of the frames encoded again). */
  json: number;
  /** Garbage collections on this thread while streaming: count and pause (ms), minor and major. */
  gc: { minor: number; minorMs: number; major: number; majorMs: number; longestMs: number };
}

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** `n` connections streaming `msgs` each, interleaved message by message, each frame encoded as it comes. */
async function run(msgs: ArrayBuffer[], rate: number, n: number): Promise<Run> {
  const streams = Array.from({ length: n }, (_, i) => new MotionStream(rate, i + 1));
  const gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0, longestMs: 0 };
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const major = (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
      gc[major ? "major" : "minor"]++;
      gc[major ? "majorMs" : "minorMs"] += e.duration;
      gc.longestMs = Math.max(gc.longestMs, e.duration);
    }
  });
  obs.observe({ entryTypes: ["gc"] });
  const sample: MotionFrame[] = [];
  let bytes = 0;
  let frames = 0;
  const t0 = cpuMs();
  for (const m of msgs)
    for (const s of streams) {
      // A message arrives as its own ArrayBuffer; the object reads it as bytes (protocol.ts).
      for (const f of s.pushPcm16(new Uint8Array(m.slice(0)))) {
        bytes += encode(f).length;
        frames++;
        if (sample.length < 1000) sample.push(f);
      }
    }
  const cpu = cpuMs() - t0;
  await new Promise((r) => setTimeout(r, 10)); // the observer's last entries
  obs.disconnect();
  const t1 = cpuMs();
  for (let k = 0; k < 20; k++) for (const f of sample) bytes += encode(f).length;
  const json = ((cpuMs() - t1) * 1000) / (20 * sample.length);
  if (bytes === 0) throw new Error("no frames");
  return { messages: msgs.length * n, frames, cpu, json, gc };
}

if (args.quiet) {
  const rate = rates[0]!;
  const r = await run(messages(rate), rate, connections);
  console.log(JSON.stringify({ messages: r.messages, frames: r.frames }));
} else if (args.callgrind) {
  callgrind();
} else {
  console.log(
    `motion analysis per message: ${connections} connections × ${seconds} s, ${chunkMs} ms PCM16 messages, interleaved; load ${loadavg()}`,
  );
  console.log(
    "rate | CPU µs per message (bytes, pushPcm16, frame JSON) | of which JSON | % of a core per real-time connection | GC while streaming: minor, major (count, pause), longest pause",
  );
  for (const rate of rates) {
    const msgs = messages(rate);
    await run(msgs, rate, 2); // compile and settle first
    const r = await run(msgs, rate, connections);
    const pct = (r.cpu / 1000 / (connections * seconds)) * 100;
    const { minor, minorMs, major, majorMs, longestMs } = r.gc;
    console.log(
      `${rate} Hz | ${((r.cpu * 1000) / r.messages).toFixed(1)} | ${((r.json * r.frames) / r.messages).toFixed(1)} | ${pct.toFixed(3)} % | ` +
        `${minor} in ${minorMs.toFixed(0)} ms, ${major} in ${majorMs.toFixed(0)} ms, ${longestMs.toFixed(1)} ms`,
    );
  }
  console.log(`load average after: ${loadavg()}`);
}

function loadavg(): string {
  return execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).split(" ").slice(0, 3).join(" ");
}

/** Instructions per message, by callgrind: runs of N and 2N connections, their difference. */
function callgrind() {
  const dir = ".local/bench-motion-cpu";
  mkdirSync(dir, { recursive: true });
  const bundle = `${dir}/bench.mjs`;
  // The bundle keeps node's require for the ffmpeg locator the speech helper asks for (never called here).
  const banner =
    "import { createRequire as bannerRequire } from 'node:module'; const require = bannerRequire(import.meta.url);";
  execFileSync("npx", [
    "esbuild",
    "scripts/bench-motion-cpu.ts",
    "--bundle",
    "--platform=node",
    "--format=esm",
    "--log-level=warning",
    `--outfile=${bundle}`,
    `--banner:js=${banner}`,
  ]);
  console.log(`motion analysis per message, instructions (callgrind): ${seconds} s, ${chunkMs} ms PCM16 messages`);
  console.log("rate | instructions per message (steady state: the runs of 2N and N connections, their difference)");
  for (const rate of rates) {
    const count = (n: number) => {
      const opts = [`--rate=${rate}`, `--connections=${n}`, `--seconds=${seconds}`, `--chunk-ms=${chunkMs}`];
      // --single-threaded: no concurrent compiler or GC threads, so the count repeats run after run.
      const r = spawnSync(
        "valgrind",
        [
          "--tool=callgrind",
          "--callgrind-out-file=/dev/null",
          process.execPath,
          "--single-threaded",
          bundle,
          "--quiet",
          ...opts,
        ],
        { encoding: "utf8", maxBuffer: 1 << 24 },
      );
      const ir = /Collected : (\d+)/.exec(r.stderr)?.[1];
      if (r.status !== 0 || !ir) throw new Error(`valgrind failed (${r.status}): ${r.stderr.slice(-2000)}`);
      return { ir: Number(ir), ...(JSON.parse(r.stdout) as { messages: number; frames: number }) };
    };
    const a = count(connections);
    const b = count(2 * connections);
    const per = (b.ir - a.ir) / (b.messages - a.messages);
    console.log(
      `${rate} Hz | ${Math.round(per).toLocaleString("en")} (${b.frames - a.frames} frames per ${b.messages - a.messages} messages)`,
    );
  }
}
