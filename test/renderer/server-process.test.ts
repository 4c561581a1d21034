/**
 * The renderer as a real process (as `npx tsx container/src/server.ts` runs it): SIGTERM stops a job in
 * flight without reporting anything (the Worker's sweep re-dispatches it) and exits; after a SIGKILL the
 * next process removes the dead job's scratch directory and takes jobs again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAST_ENV, RENDERER_TOKEN, syntheticAvatar, until } from "./helpers/renderer-harness";
import { type FakeWorker, JOB_TOKEN, startFakeWorker } from "./helpers/renderer-worker";
import { type SourceServer, startSources } from "./helpers/renderer-sources";

const root = path.resolve(__dirname, "../..");

interface Proc {
  child: ChildProcess;
  url: string;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startProcess(env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, ["--import", "tsx", "container/src/server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...FAST_ENV,
      RENDERER_TOKEN,
      PORT: "0",
      HOST: "127.0.0.1",
      WARM_MODELS: "0",
      SOURCE_ALLOWLIST: sources.hostPort,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let buf = "";
  child.stdout!.on("data", (d: Buffer) => {
    buf += d.toString();
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  child.stderr!.on("data", (d: Buffer) => lines.push(`stderr: ${d.toString()}`));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once("exit", (code, signal) => r({ code, signal })),
  );
  await until(
    () => lines.some((l) => l.includes('"event":"renderer_listening"')) || child.exitCode !== null,
    30_000,
    "renderer listening",
  );
  const listening = lines.find((l) => l.includes('"event":"renderer_listening"'));
  if (!listening) throw new Error(`renderer did not start:\n${lines.join("\n")}`);
  return { child, url: `http://127.0.0.1:${JSON.parse(listening).port}`, lines, exited };
}

let worker: FakeWorker;
let sources: SourceServer;
let workDir: string;
const procs: Proc[] = [];

beforeAll(async () => {
  worker = await startFakeWorker();
  sources = await startSources();
  workDir = await mkdtemp(path.join(os.tmpdir(), "renderer-proc-"));
});
afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
  await worker.close();
  await sources.close();
  await rm(workDir, { recursive: true, force: true });
});

async function videoJob(audioPath: string): Promise<Record<string, unknown> & { jobId: string }> {
  const jobId = randomUUID();
  const avatar = await syntheticAvatar(128);
  worker.objects.set(`a/${jobId}/portrait.png`, { body: avatar.portraitPng, contentType: "image/png" });
  worker.objects.set(`a/${jobId}/rig.json`, {
    body: Buffer.from(JSON.stringify(avatar.rig)),
    contentType: "application/json",
  });
  return {
    kind: "video",
    jobId,
    attempt: 1,
    callbackUrl: worker.callbackUrl(jobId, 1),
    token: JOB_TOKEN,
    avatar: { portrait: worker.objectUrl(`a/${jobId}/portrait.png`), rig: worker.objectUrl(`a/${jobId}/rig.json`) },
    audioUrl: sources.url(audioPath),
    settings: { width: 128, height: 128 },
    outputs: { video: worker.objectUrl(`v/${jobId}.mp4`) },
  };
}

async function dispatch(p: Proc, body: unknown): Promise<number> {
  const res = await fetch(`${p.url}/jobs`, {
    method: "POST",
    headers: { authorization: `Bearer ${RENDERER_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

describe("renderer process", () => {
  it("a bad variable stops it at start: exit 2, one line naming the variable, nothing listening", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "container/src/server.ts"], {
      cwd: root,
      env: { ...process.env, RENDERER_TOKEN, PORT: "0", MAX_QUEUED_JOBS: "many", HEARTBEAT_MS: "20000" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => void (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    expect(code).toBe(2);
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({
        event: "invalid_configuration",
        level: "error",
        error:
          'invalid configuration: MAX_QUEUED_JOBS must be an integer ≥ 0 (got "many"); ' +
          'HEARTBEAT_MS must be an integer from 10 to 10000 (got "20000")',
      }),
    ]);
  });

  it("SIGTERM: stops accepting, aborts the job in flight without reporting it, exits 0", async () => {
    const p = await startProcess({ WORK_DIR: workDir, HEARTBEAT_MS: "100" });
    procs.push(p);
    const job = await videoJob(`/trickle/${randomUUID()}?interval=50&type=audio/wav`);
    expect(await dispatch(p, job)).toBe(202);
    await worker.waitFor((e) => e.jobId === job.jobId && e.body.stage === "preparing_media");
    await until(() => sources.seen.some((s) => s.startsWith("/trickle/")), 5000, "transfer started");
    const closedBefore = sources.closedByClient;

    const t0 = Date.now();
    p.child.kill("SIGTERM");
    const exit = await p.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    await until(() => sources.closedByClient > closedBefore, 2000, "source transfer closed");
    const countAfterExit = worker.eventsOf(job.jobId).length;
    await new Promise((r) => setTimeout(r, 300)); // > 2 heartbeats: nothing more arrives
    expect(worker.eventsOf(job.jobId)).toHaveLength(countAfterExit);
    expect(worker.eventsOf(job.jobId).filter((e) => e.body.type !== "progress")).toHaveLength(0);
    const logs = p.lines.join("\n");
    expect(logs).toContain('"event":"shutting_down"');
    expect(logs).toMatch(/"event":"job_stopped".*"kind":"shutdown"/);
    expect(await readdir(workDir)).toEqual([]); // the job's scratch directory was removed
  });

  it("SIGKILL mid-job: nothing is reported; the next process cleans the dead job's scratch dir and runs jobs", async () => {
    const first = await startProcess({ WORK_DIR: workDir });
    procs.push(first);
    const job = await videoJob(`/trickle/${randomUUID()}?interval=50&type=audio/wav`);
    expect(await dispatch(first, job)).toBe(202);
    await worker.waitFor((e) => e.jobId === job.jobId && e.body.stage === "preparing_media");
    await until(
      async () => (await readdir(workDir)).some((n) => n.startsWith(`job-${first.child.pid}-video-`)),
      5000,
      "job dir created",
    );
    first.child.kill("SIGKILL");
    await first.exited;
    expect(worker.eventsOf(job.jobId).filter((e) => e.body.type !== "progress")).toHaveLength(0);
    expect((await readdir(workDir)).length).toBeGreaterThan(0);

    const second = await startProcess({ WORK_DIR: workDir });
    procs.push(second);
    expect(await readdir(workDir)).toEqual([]);
    // The re-dispatched job (a new attempt) runs on the new process; its source is gone now → failed.
    const retry = {
      ...job,
      attempt: 2,
      callbackUrl: worker.callbackUrl(job.jobId, 2),
      audioUrl: sources.url("/status/404"),
    };
    expect(await dispatch(second, retry)).toBe(202);
    const end = await worker.terminal(job.jobId, 2);
    expect(end.body).toMatchObject({ type: "failed", attempt: 2, error: { code: "source_unavailable" } });
    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);
  });
});
