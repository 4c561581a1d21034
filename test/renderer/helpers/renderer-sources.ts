/**
 * Media sources for the renderer's job tests: a 127.0.0.1 HTTP server with registered files and a few
 * misbehaving routes. Paths carry a fake signed query (`?sig=…`) so tests can check it never gets logged.
 */
import http from "node:http";
import type net from "node:net";

export interface SourceServer {
  origin: string;
  hostPort: string;
  /** Request paths seen (without query). */
  seen: string[];
  /** Open connections that were destroyed by the client (the renderer gave up on them). */
  closedByClient: number;
  file(name: string, body: Buffer, contentType?: string | null): string;
  url(path: string): string;
  close(): Promise<void>;
}

const later = (ms: number, fn: () => void) => setTimeout(fn, ms).unref();

export async function startSources(): Promise<SourceServer> {
  const files = new Map<string, { body: Buffer; type: string | null }>();
  const sockets = new Set<net.Socket>();
  const src: SourceServer = {
    origin: "",
    hostPort: "",
    seen: [],
    closedByClient: 0,
    file(name, body, contentType = "application/octet-stream") {
      files.set(`/f/${name}`, { body, type: contentType });
      return src.url(`/f/${name}`);
    },
    url: (p) => `${src.origin}${p}${p.includes("?") ? "&" : "?"}sig=source-secret-signature`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const q = (k: string, d = "") => url.searchParams.get(k) ?? d;
    src.seen.push(url.pathname);
    // Routes match on the first segment, so a test can tag its requests: /trickle/<tag>.
    const p = url.pathname.startsWith("/f/") ? url.pathname : `/${url.pathname.split("/")[1]}`;
    req.socket.once("close", () => {
      if (!res.writableFinished) src.closedByClient++;
    });
    const f = files.get(p);
    if (f) {
      const headers: http.OutgoingHttpHeaders = { "content-length": f.body.length };
      if (f.type !== null) headers["content-type"] = f.type;
      return res.writeHead(200, headers).end(f.body);
    }
    if (p === "/status")
      return void res.writeHead(Number(url.pathname.split("/")[2]), { "content-type": "text/html" }).end("<h1>no</h1>");
    if (p === "/redirect") return void res.writeHead(302, { location: q("to") }).end();
    if (p === "/empty")
      return void res.writeHead(200, { "content-type": q("type", "audio/mpeg"), "content-length": "0" }).end();
    if (p === "/declared") {
      // Declares a size and sends nothing: only the header can fail it fast.
      res.writeHead(200, { "content-type": q("type", "audio/mpeg"), "content-length": q("bytes") });
      return void res.flushHeaders();
    }
    if (p === "/chunked") {
      res.writeHead(200, { "content-type": q("type", "audio/mpeg") }); // no Content-Length: only counting finds the size
      const total = Number(q("bytes"));
      for (let sent = 0; sent < total; sent += 4096) res.write(Buffer.alloc(Math.min(4096, total - sent), 7));
      return void res.end();
    }
    if (p === "/slow-headers") {
      return void later(Number(q("ms")), () => {
        if (!res.destroyed) res.writeHead(200, { "content-type": q("type", "audio/mpeg") }).end("late");
      });
    }
    if (p === "/trickle") {
      // Headers at once, then a byte per interval, forever (or `chunks` times).
      res.writeHead(200, { "content-type": q("type", "audio/mpeg") });
      let left = Number(q("chunks", "1000000"));
      const tick = () => {
        if (res.destroyed) return;
        if (left-- <= 0) return void res.end();
        res.write("x");
        later(Number(q("interval", "50")), tick);
      };
      return void tick();
    }
    res.writeHead(404).end();
  });
  server.on("connection", (s) => (sockets.add(s), s.on("close", () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as net.AddressInfo).port;
  src.origin = `http://127.0.0.1:${port}`;
  src.hostPort = `127.0.0.1:${port}`;
  return src;
}
