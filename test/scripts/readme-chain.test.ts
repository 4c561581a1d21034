import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allowlistWithDemo,
  DEMO_FILES,
  DEMO_MEDIA_PORT,
  demoVoice,
  startDemoMedia,
} from "../../scripts/lib/demo-media";

const ROOT = resolve(__dirname, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const README = read("README.md");

let server: Server;
let origin = "";
beforeAll(async () => {
  ({ server, origin } = await startDemoMedia(18_791));
});
afterAll(() => server?.close());

describe("README: fresh clone to MP4", () => {
  it("the demo media npm start serves are a JPEG portrait and a WAV voice; nothing else is served", async () => {
    const portrait = Buffer.from(await (await fetch(`${origin}/portrait.jpg`)).arrayBuffer());
    expect(portrait.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const voice = await fetch(`${origin}/voice.wav`);
    expect(voice.headers.get("content-type")).toBe("audio/wav");
    const wav = Buffer.from(await voice.arrayBuffer());
    expect(wav.toString("latin1", 0, 4) + wav.toString("latin1", 8, 12)).toBe("RIFFWAVE");
    expect(wav.length).toBeGreaterThan(40_000); // seconds of speech, not an empty file
    expect((await fetch(`${origin}/../package.json`)).status).toBe(404);
    expect((await fetch(`${origin}/.dev.vars`)).status).toBe(404);
  });

  it("the voice is a valid WAV with or without espeak-ng", () => {
    const file = demoVoice(mkdtempSync(join(tmpdir(), "demo-voice-")));
    const wav = readFileSync(file);
    expect(wav.toString("latin1", 0, 4)).toBe("RIFF");
  });

  it("npm start admits the demo media through SOURCE_ALLOWLIST, beside the caller's entries", () => {
    expect(allowlistWithDemo(undefined, "http://127.0.0.1:8780")).toBe("127.0.0.1:8780");
    expect(allowlistWithDemo("127.0.0.1:9000", "http://127.0.0.1:8780")).toBe("127.0.0.1:9000,127.0.0.1:8780");
    expect(read("scripts/start.ts")).toContain(
      "sourceAllowlist: allowlistWithDemo(process.env.SOURCE_ALLOWLIST, demo.origin)",
    );
  });

  it("the commands chain: npm start, admin exports the client CLI reads, demo media URLs, render --out", () => {
    const demo = `http://127.0.0.1:${DEMO_MEDIA_PORT}`;
    for (const name of Object.keys(DEMO_FILES)) expect(README).toContain(`${demo}/${name}`);
    const order = [
      "npm start",
      "admin -- create-account",
      "admin -- create-app <accountId>",
      "export AVATAR_VIDEO_APP_ID=<appId> AVATAR_VIDEO_API_KEY=<apiKey> AVATAR_VIDEO_BASE_URL=",
      "npx avatar-video create-avatar --image",
      "npx avatar-video render --avatar <avatarId> --audio",
    ];
    const at = order.map((s) => README.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // create-app prints exactly the variables the client CLI reads.
    const admin = read("scripts/admin.ts");
    const cli = read("client/src/cli/run.ts") + read("client/src/cli/args.ts");
    for (const v of ["AVATAR_VIDEO_APP_ID", "AVATAR_VIDEO_API_KEY", "AVATAR_VIDEO_BASE_URL"]) {
      expect(admin).toContain(`export ${v}=`);
      expect(cli).toContain(v);
    }
    expect(README).not.toContain("example.com/portrait");
    expect(README).not.toContain("ADMIN=");
  });

  it("every link of the README and the docs it links stays inside the repository and exists", () => {
    for (const doc of ["README.md", "client/README.md", "docs/console.md", "docs/operations.md"]) {
      const text = read(doc);
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^https?:/.test(target)) continue;
        const path = resolve(ROOT, dirname(doc), target);
        expect(path.startsWith(`${ROOT}/`), `${doc} → ${target}`).toBe(true);
        expect(existsSync(path), `${doc} → ${target}`).toBe(true);
      }
    }
  });
});
