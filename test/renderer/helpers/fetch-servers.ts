/** Local 127.0.0.1 servers for the safe-fetch tests: one routed HTTP server and a raw TCP one for broken framing. */
import { createHash } from "node:crypto";
import http from "node:http";
import net from "node:net";

export interface SeenRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestServer {
  port: number;
  /** "127.0.0.1:<port>", the allowlist entry for this server. */
  hostPort: string;
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const later = (ms: number, fn: () => void) => setTimeout(fn, ms).unref();

/** Deterministic bytes so a streamed file can be compared by hash. */
export function patternChunk(index: number, size: number): Buffer {
  return Buffer.alloc(size, index % 251);
}
export function patternHash(chunks: number, size: number): string {
  const h = createHash("sha256");
  for (let i = 0; i < chunks; i++) h.update(patternChunk(i, size));
  return h.digest("hex");
}

/** Routes used by the tests; every request is recorded with its headers. */
function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://x");
  const q = (k: string, d = "") => url.searchParams.get(k) ?? d;
  const p = url.pathname;
  if (p === "/ok") {
    res.writeHead(200, { "content-type": "Audio/MPEG; charset=binary" }).end("hello");
  } else if (p === "/no-type") {
    res.writeHead(200).end("x");
  } else if (p === "/redirect") {
    // Sets a cookie on the way: a fetcher with a cookie jar would send it to the next hop.
    res.writeHead(Number(q("status", "302")), { location: q("to"), "set-cookie": "session=secret" }).end();
  } else if (p.startsWith("/chain/")) {
    const n = Number(p.slice(7));
    if (n > 0) res.writeHead(302, { location: `/chain/${n - 1}` }).end();
    else res.writeHead(200, { "content-type": "text/plain" }).end("end");
  } else if (p === "/loop") {
    res.writeHead(301, { location: "/loop" }).end();
  } else if (p === "/slow-chain") {
    // Each hop answers after `ms`: individually fine, together past the whole-transfer deadline.
    const n = Number(q("n"));
    later(Number(q("ms")), () => {
      if (n > 0) res.writeHead(302, { location: `/slow-chain?n=${n - 1}&ms=${q("ms")}` }).end();
      else res.writeHead(200).end("done");
    });
  } else if (p.startsWith("/status/")) {
    res.writeHead(Number(p.slice(8)), { "content-type": "text/html" }).end("<h1>error page</h1>");
  } else if (p === "/nolocation") {
    res.writeHead(302).end();
  } else if (p === "/empty") {
    res.writeHead(200, { "content-type": "audio/wav", "content-length": "0" }).end();
  } else if (p === "/no-content") {
    res.writeHead(204).end();
  } else if (p === "/slow-headers") {
    later(Number(q("ms")), () => {
      if (!res.destroyed) res.writeHead(200).end("late");
    });
  } else if (p === "/trickle") {
    // Headers at once, then one byte per interval.
    res.writeHead(200, { "content-type": "audio/wav" });
    let left = Number(q("chunks"));
    const tick = () => {
      if (res.destroyed) return;
      if (left-- <= 0) return void res.end();
      res.write("x");
      later(Number(q("interval")), tick);
    };
    tick();
  } else if (p === "/declared-big") {
    res.writeHead(200, { "content-length": String(10 * 1024 * 1024) });
    res.flushHeaders(); // and then nothing: only the header can make this fail fast
  } else if (p === "/chunked") {
    // No Content-Length: the size is only known by counting.
    res.writeHead(200, { "content-type": "audio/mpeg" });
    const total = Number(q("bytes"));
    for (let sent = 0; sent < total; sent += 1024) res.write(Buffer.alloc(Math.min(1024, total - sent), 1));
    res.end();
  } else if (p === "/big") {
    const chunks = Number(q("chunks"));
    const size = Number(q("size"));
    res.writeHead(200, { "content-type": "audio/wav", "content-length": String(chunks * size) });
    let i = 0;
    const pump = () => {
      while (i < chunks) if (!res.write(patternChunk(i++, size))) return void res.once("drain", pump);
      res.end();
    };
    pump();
  } else if (p === "/truncated") {
    res.writeHead(200, { "content-length": "1000" });
    res.write(Buffer.alloc(500, 1), () => res.socket?.destroy());
  } else {
    res.writeHead(404).end();
  }
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)),
  );
}

function wrap(server: net.Server, port: number, seen: SeenRequest[], sockets: Set<net.Socket>): TestServer {
  return {
    port,
    hostPort: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export async function startServer(): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    route(req, res);
  });
  server.on("connection", (s) => (sockets.add(s), s.on("close", () => sockets.delete(s))));
  return wrap(server, await listen(server), seen, sockets);
}

/** A TCP server that answers every request with the given raw bytes (for framing a real server refuses to send). */
export async function startRawServer(answer: (socket: net.Socket) => void): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.once("data", (d) => {
      seen.push({ path: d.toString("latin1").split(" ")[1] ?? "", headers: {} });
      answer(socket);
    });
  });
  return wrap(server, await listen(server), seen, sockets);
}

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise((r) => server.close(r));
  return port;
}
