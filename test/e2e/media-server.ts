import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";

/**
 * The "public internet" of the end-to-end tests: serves files that tests drop into `dir`.
 *   /files/<name>?type=<content-type>   the file with that Content-Type (default by extension)
 *   /slow/<ms>/<name>                   waits <ms> before answering
 *   /redirect?to=<url>                  302 to any URL (e.g. 127.0.0.1 or 169.254.169.254)
 *   /status/<code>                      an empty answer with that status
 *   /declare/<bytes>?type=<ct>          headers declaring a huge Content-Length, then a cut connection
 *   POST /control/<name>                runs a test-harness action (e.g. restart-renderer)
 */
export function startMediaServer(
  dir: string,
  port: number,
  controls: Record<string, () => Promise<void>> = {},
): Promise<Server> {
  const types: Record<string, string> = {
    jpg: "image/jpeg",
    jpeg: "image/jpeg",
    png: "image/png",
    webp: "image/webp",
    gif: "image/gif",
    mp3: "audio/mpeg",
    wav: "audio/wav",
    m4a: "audio/mp4",
    ogg: "audio/ogg",
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://media.local");
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] === "redirect") {
      res.writeHead(302, { Location: url.searchParams.get("to") ?? "/" }).end();
      return;
    }
    if (parts[0] === "control" && req.method === "POST" && controls[parts[1]]) {
      await controls[parts[1]]();
      res.writeHead(204).end();
      return;
    }
    if (parts[0] === "declare") {
      res.writeHead(200, { "Content-Type": url.searchParams.get("type") ?? "audio/mpeg", "Content-Length": parts[1] });
      res.write(Buffer.alloc(1024));
      setTimeout(() => res.destroy(), 2000);
      return;
    }
    if (parts[0] === "status") {
      res.writeHead(Number(parts[1]) || 500).end();
      return;
    }
    if (parts[0] === "slow") {
      await new Promise((r) => setTimeout(r, Number(parts[1])));
      parts.splice(0, 2, "files");
    }
    const file = parts[0] === "files" && parts[1] ? join(dir, parts[1].replace(/[^\w.-]/g, "")) : "";
    if (!file || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const ext = file.split(".").pop() ?? "";
    res.writeHead(200, {
      "Content-Type": url.searchParams.get("type") ?? types[ext] ?? "application/octet-stream",
      "Content-Length": statSync(file).size,
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}
