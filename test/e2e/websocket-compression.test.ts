import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";

/**
 * The motion service declines permessage-deflate (docs/motion.md): its frames are ~200-byte JSON at 25/s,
 * where zlib per message costs both sides more CPU than the bytes are worth. `wrangler dev` cannot show it
 * (its proxy and miniflare's entry worker negotiate with the client themselves), so this runs the workerd
 * that wrangler ships, as production does, with wrangler.toml's compatibility date and flags.
 */
const toml = readFileSync("wrangler.toml", "utf8");
const date = /^compatibility_date = "([^"]+)"/m.exec(toml)![1]!;
const flags = JSON.parse(/^compatibility_flags = (\[.*\])/m.exec(toml)![1]!) as string[];
// The workerd binary that wrangler's own miniflare runs.
const fromWrangler = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"));
const fromMiniflare = createRequire(fromWrangler.resolve("miniflare"));
const workerd = (fromMiniflare(fromMiniflare.resolve("workerd")) as { default: string }).default;

const dir = mkdtempSync(join(tmpdir(), "ws-compression-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, "w.js"),
  `export default { fetch() { const [c, s] = Object.values(new WebSocketPair()); s.accept(); return new Response(null, { status: 101, webSocket: c }); } };`,
);

/** Starts workerd with these flags, opens a WebSocket offering permessage-deflate, returns what was agreed. */
async function negotiated(withFlags: string[], port: number): Promise<string> {
  writeFileSync(
    join(dir, `c${port}.capnp`),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (services = [(name = "main", worker = .w)], sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")]);
const w :Workerd.Worker = (modules = [(name = "w.js", esModule = embed "w.js")], compatibilityDate = "${date}", compatibilityFlags = ${JSON.stringify(withFlags)});`,
  );
  const child = spawn(workerd, ["serve", join(dir, `c${port}.capnp`)], { stdio: "ignore" });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { perMessageDeflate: true });
        const ext = await new Promise<string>((resolve, reject) => {
          ws.once("open", () => resolve(ws.extensions));
          ws.once("error", reject);
        });
        ws.terminate();
        return ext || "none";
      } catch (err) {
        if (attempt > 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    child.kill();
  }
}

describe("WebSocket compression in the production runtime", () => {
  const port = Number(process.env.E2E_PORT_BASE ?? 8796) + 10;

  it("wrangler.toml's flags make the runtime decline permessage-deflate", async () => {
    expect(flags).toContain("no_web_socket_compression");
    expect(await negotiated(flags, port)).toBe("none");
  });

  it("without the flag the same runtime would accept it (the check can fail)", async () => {
    const without = flags.filter((f) => f !== "no_web_socket_compression");
    expect(await negotiated(without, port + 1)).toMatch(/^permessage-deflate/);
  });
});
