/**
 * The CLI's performance flags (docs/performance.md): `render --expression --head-motion` send
 * video.performance; a head motion that is not a number is a usage error before any request.
 */
import { describe, expect, it } from "vitest";
import { run } from "../../client/src/cli/run.js";
import { API_KEY, AVATAR_ID, JOB_ID } from "./fixtures.js";
import { useScriptedServer } from "./scripted-server.js";

const server = useScriptedServer({});

async function cli(...argv: string[]) {
  const stderr: string[] = [];
  const env = { AVATAR_VIDEO_BASE_URL: server.url, AVATAR_VIDEO_APP_ID: "app-1", AVATAR_VIDEO_API_KEY: API_KEY };
  const code = await run(argv, {
    env,
    stdout: { write: () => undefined },
    stderr: { write: (t: string) => stderr.push(t) },
  });
  return { code, stderr: stderr.join("") };
}

describe("avatar-video render --expression --head-motion", () => {
  it("sends them as video.performance", async () => {
    server.answer({ body: { jobId: JOB_ID, status: "queued", createdAt: "2026-01-01T00:00:00.000Z" } });
    const args = ["--avatar", AVATAR_ID, "--audio", "http://media.local/a.wav", "--no-wait"];
    const result = await cli("render", ...args, "--expression", "happy", "--head-motion", "1.5");
    expect(result.code, result.stderr).toBe(0);
    expect(server.seen.at(-1)?.body).toMatchObject({
      video: { performance: { expression: "happy", headMotion: 1.5 } },
    });
  });

  it("refuses a head motion that is not a number", async () => {
    const before = server.seen.length;
    const result = await cli("render", "--avatar", AVATAR_ID, "--audio", "http://x/a.wav", "--head-motion", "lots");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--head-motion takes a number from 0 to 3");
    expect(server.seen.length).toBe(before);
  });
});
