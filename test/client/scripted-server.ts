import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** One scripted answer: a status with JSON body, or a delay, or a dropped connection. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering (to outlast a client timeout). */
  delayMs?: number;
  /** Close the connection without answering (a network error). */
  drop?: true;
}

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown> | undefined;
  at: number;
}

/** The envelope the API answers errors with. */
export const envelope = (code: string, requestId = "req-envelope", message = `${code} happened`) => ({
  error: { code, message, requestId },
});

/**
 * A local node:http server that answers each request with the next scripted answer (500 when none is left)
 * and records what it was asked. `files` are served as-is at their path (the MP4 of a download link).
 */
export async function scriptedServer(files: Record<string, Buffer> = {}) {
  const answers: Answer[] = [];
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://local");
    const file = files[url.pathname];
    if (file) return res.end(file);
    const text = Buffer.concat(chunks).toString();
    seen.push({
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
      at: Date.now(),
    });
    const next = answers.shift() ?? { status: 500, body: envelope("internal_error", "req-unscripted") };
    if (next.delayMs) await new Promise((r) => setTimeout(r, next.delayMs));
    if (next.drop) return req.socket.destroy();
    res.writeHead(next.status ?? 200, { "Content-Type": "application/json", ...next.headers });
    res.end(next.body === undefined ? "" : JSON.stringify(next.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    /** Queues answers, in order, after any still queued. */
    answer: (...next: Answer[]) => answers.push(...next),
    /** Forgets what was asked and what was left unanswered (between tests). */
    reset: () => ((answers.length = 0), (seen.length = 0)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

export type ScriptedServer = Awaited<ReturnType<typeof scriptedServer>>;

/** A scripted server for one test file: started before its tests, reset before each, closed after them. */
export function useScriptedServer(files: Record<string, Buffer> = {}): ScriptedServer {
  let started: ScriptedServer | undefined;
  beforeAll(async () => void (started = await scriptedServer(files)));
  beforeEach(() => started?.reset());
  afterAll(() => started?.close());
  const server = () => started ?? raise("the scripted server starts in beforeAll");
  return {
    get url() {
      return server().url;
    },
    get seen() {
      return server().seen;
    },
    answer: (...next) => server().answer(...next),
    reset: () => server().reset(),
    close: () => server().close(),
  };
}

function raise(message: string): never {
  throw new Error(message);
}
