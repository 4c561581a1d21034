import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { run } from "../../client/src/cli/run.js";
import { API_KEY, avatar, AVATAR_ID, avatarJob, JOB_ID, page, videoJob } from "./fixtures.js";
import { envelope, useScriptedServer } from "./scripted-server.js";

const MP4 = Buffer.from("not really an mp4, but bytes to download");
const server = useScriptedServer({ "/files/out.mp4": MP4 });

/** Runs the CLI in-process against the scripted server; resolves with its exit code and what it wrote. */
async function cli(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const env = { AVATAR_VIDEO_BASE_URL: server.url, AVATAR_VIDEO_APP_ID: "app-1", AVATAR_VIDEO_API_KEY: API_KEY };
  const code = await run(argv, {
    env,
    stdout: { write: (t: string) => stdout.push(t) },
    stderr: { write: (t: string) => stderr.push(t) },
  });
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

const COMMANDS = [
  "create-avatar",
  "check",
  "render",
  "avatars list",
  "avatars get",
  "videos list",
  "videos get",
  "jobs list",
  "jobs get",
  "session-token",
];

describe("avatar-video CLI", () => {
  it("renders with a stage report on stderr and downloads the MP4 (exit 0, --json parses)", async () => {
    const link = { videoUrl: `${server.url}/files/out.mp4`, videoUrlExpiresAt: "2026-01-01T00:15:00.000Z" };
    server.answer(
      { body: { jobId: JOB_ID, status: "queued", createdAt: "2026-01-01T00:00:00.000Z" } },
      { body: videoJob("processing", "rendering") },
      { body: videoJob("succeeded", "completed", link) },
    );
    const out = join(mkdtempSync(join(tmpdir(), "cli-")), "v.mp4");
    const result = await cli(
      "render",
      "--avatar",
      AVATAR_ID,
      "--audio",
      "http://media.local/a.wav",
      "--out",
      out,
      "--width",
      "320",
      "--poll-ms",
      "10",
      "--json",
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ job: { id: JOB_ID, status: "succeeded" }, file: out });
    expect(result.stderr).toMatch(/stage: rendering .*\nstage: completed/s);
    expect(result.stderr).toMatch(new RegExp(`download: ${MP4.length} of ${MP4.length} bytes \\(100%\\) in \\d`));
    expect(JSON.parse(result.stdout).bytes).toBe(MP4.length);
    expect(readFileSync(out)).toEqual(MP4);
    expect(server.seen[0]?.body).toMatchObject({
      avatarId: AVATAR_ID,
      video: { width: 320 },
      requestId: expect.any(String),
    });
  });

  it("prints lists and resources as JSON with --json and as lines without", async () => {
    server.answer(
      { body: page("avatars", [avatar()], "t1") },
      { body: page("avatars", [avatar("00000000-0000-4000-8000-000000000002")]) },
    );
    const listed = await cli("avatars", "list", "--json", "--page-size", "1");
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).map((a: { id: string }) => a.id)).toEqual([
      AVATAR_ID,
      "00000000-0000-4000-8000-000000000002",
    ]);

    server.answer({ body: page("jobs", [videoJob("failed", "rendering").job]) });
    const videos = await cli("videos", "list", "--status", "failed", "--status", "expired");
    expect(videos.stdout).toBe(`${JOB_ID}  failed  rendering  hello\n`);
    expect(server.seen.at(-1)?.query.getAll("statuses")).toEqual(["failed", "expired"]);

    server.answer({ body: avatarJob("succeeded", { avatarId: AVATAR_ID }) });
    const job = await cli("jobs", "get", JOB_ID);
    expect(job.stdout).toContain(`avatarId  ${AVATAR_ID}\n`);
  });

  it("exits 1 with the API's code and request id on stderr", async () => {
    server.answer({ status: 404, body: envelope("not_found", "req-404", "Video job not found.") });
    const result = await cli("videos", "get", JOB_ID);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: not_found: Video job not found. (HTTP 404, request id req-404)\n",
    });
    server.answer({ status: 403, body: envelope("forbidden", "req-403") });
    const json = await cli("avatars", "get", AVATAR_ID, "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: "forbidden", message: "forbidden happened", status: 403, requestId: "req-403" },
    });
  });

  it("exits 1 with the job's error when an Avatar job fails", async () => {
    const error = {
      code: "image_quality_rejected",
      message: "No face was found.",
      retryable: false,
      reason: "no_face",
    };
    server.answer({ body: { jobId: JOB_ID, status: "queued" } }, { body: avatarJob("failed", { error }) });
    const result = await cli("create-avatar", "--image", "http://media.local/p.jpg", "--poll-ms", "10");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: image_quality_rejected: No face was found. (job ${JOB_ID})`);
  });

  it("mints a session token: the token alone on stdout, or JSON with its expiry", async () => {
    server.answer({ body: { sessionToken: "eyJ.cli.sig" } }, { body: { sessionToken: "eyJ.cli.sig" } });
    const before = Math.floor(Date.now() / 1000);
    expect(await cli("session-token", "--ttl", "60")).toEqual({ code: 0, stdout: "eyJ.cli.sig\n", stderr: "" });
    const json = await cli("session-token", "--model-version", "motion-2.1", "--json");
    expect(server.seen.map((r) => r.path)).toEqual(["/v1/console/session-tokens", "/v1/console/session-tokens"]);
    expect((server.seen[0]?.body?.expireAt as number) - before).toBeLessThanOrEqual(61);
    expect(server.seen[1]?.body?.modelVersion).toBe("motion-2.1");
    expect(JSON.parse(json.stdout)).toEqual({ sessionToken: "eyJ.cli.sig", expireAt: server.seen[1]?.body?.expireAt });
  });

  it("says which command or option a typo most likely meant", async () => {
    const cases = [
      [["rendr", "--avatar", AVATAR_ID], "did you mean `avatar-video render`?"],
      [["video", "list"], "did you mean `avatar-video videos list`?"],
      [["videos", "lsit"], "did you mean `avatar-video videos list`?"],
      [["sesion-token"], "did you mean `avatar-video session-token`?"],
      [["videos"], "one of `avatar-video videos list`, `avatar-video videos get`"],
      [["videos", "list", "--stauts", "failed"], "unknown option --stauts; did you mean --status?"],
      [["frobnicate"], "unknown command; one of: create-avatar, check, avatars list"],
    ] as const;
    for (const [argv, message] of cases) {
      const result = await cli(...argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr, argv.join(" ")).toContain(message);
    }
    const pasted = await cli("videos", "list", `--apikey=${API_KEY}`);
    expect(pasted.stderr).toContain("unknown option --apikey; did you mean --api-key?");
    expect(pasted.stderr).not.toContain(API_KEY);
    expect(server.seen).toHaveLength(0);
  });

  it("exits 2 on a wrong command line, without calling the API", async () => {
    for (const argv of [
      [],
      ["nope"],
      ["render", "--avatar", AVATAR_ID],
      ["avatars", "get"],
      ["avatars", "list", "--limit", "ten"],
      ["check", "--image"],
      ["videos", "list", "--bogus"],
    ]) {
      const result = await cli(...argv);
      expect(result.code, argv.join(" ")).toBe(2);
    }
    expect(server.seen).toHaveLength(0);
  });

  it("never prints the API key: not in help, not in errors, not when the server echoes it", async () => {
    const outputs = [await cli("--help"), ...(await Promise.all(COMMANDS.map((c) => cli(...c.split(" "), "--help"))))];
    expect(outputs.every((o) => o.code === 0 && o.stdout.includes("AVATAR_VIDEO_API_KEY"))).toBe(true);
    const unauthorized = { status: 401, body: envelope("unauthorized", "req-401", `bad key ${API_KEY}`) };
    server.answer(unauthorized, unauthorized);
    outputs.push(
      await cli("avatars", "get", AVATAR_ID),
      await cli("avatars", "get", AVATAR_ID, "--api-key", API_KEY, "--json"),
    );
    for (const { stdout, stderr } of outputs) expect(stdout + stderr).not.toContain(API_KEY);
    expect(outputs.at(-2)?.stderr).toContain("bad key ***");
  });
});

describe("avatar-video as a process", () => {
  const exec = promisify(execFile);
  const env = { ...process.env, AVATAR_VIDEO_API_KEY: API_KEY, AVATAR_VIDEO_APP_ID: "app-1" };
  const bin = (...argv: string[]) =>
    exec("client/bin/avatar-video.js", argv, { env }).then(
      (r) => ({ code: 0, ...r }),
      (e) => e,
    );

  it("exits 0 on help (without the key), 2 on a usage error, 1 on an API error", async () => {
    const [help, usage, api] = await Promise.all([
      bin("render", "--help"),
      bin("render"),
      bin("avatars", "list", "--base-url", "http://127.0.0.1:9", "--json"),
    ]);
    expect([help.code, usage.code, api.code]).toEqual([0, 2, 1]);
    expect(help.stdout).toContain("--api-key <key>");
    expect(help.stdout + help.stderr).not.toContain(API_KEY);
    expect(JSON.parse(api.stderr.split("\n").find((l: string) => l.startsWith("{")))).toMatchObject({
      error: { code: "connection_error" },
    });
  });

  it("is the workspace's bin: `npx avatar-video` prints the output alone, no npm banner", async () => {
    const { version } = JSON.parse(readFileSync("client/package.json", "utf8"));
    const { stdout, stderr } = await exec("npx", ["--no-install", "avatar-video", "--version"], { env });
    expect([stdout, stderr]).toEqual([`${version}\n`, ""]);
  });

  it("pipes --json into jq", async () => {
    server.answer({ body: page("jobs", [videoJob("succeeded", "completed").job]) });
    const script = "client/bin/avatar-video.js videos list --json | jq -r '.[] | .id + \" \" + .status'";
    const { stdout } = await exec("bash", ["-o", "pipefail", "-c", script], {
      env: { ...env, AVATAR_VIDEO_BASE_URL: server.url },
    });
    expect(stdout).toBe(`${JOB_ID} succeeded\n`);
  });
});
