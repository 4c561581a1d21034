/**
 * The renderer's upload of a large output (issue 8, point 8): above the threshold the file goes up as a
 * multipart upload — equal parts except the last, no request above the threshold, each part retried on
 * its own — and the object the Worker assembles is the file. Small part sizes stand in for 64 MiB here.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, JobStop, LinkError, MULTIPART, WorkerLink } from "../../container/src/io/public";
import { JOB_TOKEN, type FakeWorker, startFakeWorker } from "./helpers/renderer-worker";

const KiB = 1024;
const SMALL = { thresholdBytes: 100 * KiB, partBytes: 64 * KiB };
let fw: FakeWorker;
const dir = mkdtempSync(join(tmpdir(), "multipart-"));

beforeAll(async () => {
  fw = await startFakeWorker();
});
afterAll(async () => {
  await fw.close();
  rmSync(dir, { recursive: true, force: true });
});

function link(): { link: WorkerLink; controller: AbortController } {
  const jobId = randomUUID();
  const controller = new AbortController();
  const cfg = { requestTimeoutMs: 2000, objectIdleTimeoutMs: 2000, retries: 2, backoffMs: 5, backoffMaxMs: 10 };
  const job = { jobId, attempt: 1, callbackUrl: fw.callbackUrl(jobId, 1), token: JOB_TOKEN };
  return {
    link: new WorkerLink(
      job,
      controller,
      cfg,
      1000,
      createLogger({ service: "test" }, () => {}),
    ),
    controller,
  };
}

function file(bytes: number): { path: string; data: Buffer } {
  const data = randomBytes(bytes);
  const path = join(dir, `${randomUUID()}.mp4`);
  writeFileSync(path, data);
  return { path, data };
}

describe("video upload", () => {
  it("production defaults: above 100 MiB in 64 MiB parts (within the Worker's 5–100 MiB)", () => {
    expect(MULTIPART).toEqual({ thresholdBytes: 100 * 1024 * KiB, partBytes: 64 * 1024 * KiB });
  });

  it("a file above the threshold is split into equal parts (the last holds the rest) and arrives whole", async () => {
    fw.reset();
    const f = file(300 * KiB + 17);
    const key = `videos/${randomUUID()}.mp4`;
    expect(await link().link.putObject(fw.objectUrl(key), { file: f.path }, "video/mp4", SMALL)).toBe(f.data.length);
    expect(fw.objects.get(key)!.body.equals(f.data)).toBe(true);
    const steps = fw.requests.filter((r) => r.key === key);
    expect(steps.map((r) => `${r.method} ${r.query}`)).toEqual([
      "POST uploads",
      "PUT uploadId&partNumber",
      "PUT uploadId&partNumber",
      "PUT uploadId&partNumber",
      "PUT uploadId&partNumber",
      "PUT uploadId&partNumber",
      "POST uploadId",
    ]);
    const parts = steps.filter((r) => r.method === "PUT").map((r) => r.bytes);
    expect(parts).toEqual([64 * KiB, 64 * KiB, 64 * KiB, 64 * KiB, 300 * KiB + 17 - 256 * KiB]);
    expect(Math.max(...steps.map((r) => r.bytes))).toBeLessThanOrEqual(SMALL.thresholdBytes);
  });

  it("a file at the threshold goes up in one PUT", async () => {
    fw.reset();
    const f = file(100 * KiB);
    const key = `videos/${randomUUID()}.mp4`;
    await link().link.putObject(fw.objectUrl(key), { file: f.path }, "video/mp4", SMALL);
    expect(fw.requests.map((r) => `${r.method} ${r.query} ${r.bytes}`)).toEqual([`PUT  ${100 * KiB}`]);
    expect(fw.objects.get(key)!.body.equals(f.data)).toBe(true);
  });

  it("a part answered 503 is retried alone; the object is still whole", async () => {
    fw.reset();
    let failures = 0;
    fw.onObject = (method) =>
      method === "PUT" && fw.requests.filter((r) => r.method === "PUT").length === 2 && failures++ < 1
        ? 503
        : undefined;
    const f = file(200 * KiB);
    const key = `videos/${randomUUID()}.mp4`;
    await link().link.putObject(fw.objectUrl(key), { file: f.path }, "video/mp4", SMALL);
    expect(failures).toBe(1);
    expect(fw.requests.filter((r) => r.method === "PUT")).toHaveLength(5); // 4 parts + the retried one
    expect(fw.objects.get(key)!.body.equals(f.data)).toBe(true);
  });

  it("a part refused for good abandons the upload (DELETE); a fencing answer stops the job and sends nothing more", async () => {
    fw.reset();
    fw.onObject = (method) => (method === "PUT" && fw.requests.at(-1)?.query.includes("partNumber") ? 400 : undefined);
    const f = file(200 * KiB);
    const key = `videos/${randomUUID()}.mp4`;
    const err = await link()
      .link.putObject(fw.objectUrl(key), { file: f.path }, "video/mp4", SMALL)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LinkError);
    expect(fw.log).toContain(`abort:${key}`);
    expect(fw.objects.has(key)).toBe(false);

    fw.reset();
    fw.onObject = (method) => (method === "PUT" ? 409 : undefined);
    const l = link();
    const stop = await l.link
      .putObject(fw.objectUrl(key), { file: f.path }, "video/mp4", SMALL)
      .catch((e: unknown) => e);
    expect(stop).toBeInstanceOf(JobStop);
    expect(l.controller.signal.aborted).toBe(true);
    expect(fw.requests.map((r) => r.method)).toEqual(["POST", "PUT"]);
  });
});
