import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";

/** Bytes written so far, and the whole size when the answer gave a Content-Length. */
export type OnBytes = (done: number, total: number | undefined) => void;

/**
 * Downloads a signed link (no App headers) to `path`, through `path.part` so a broken transfer leaves no MP4.
 * Resolves with the number of bytes written.
 */
export async function download(url: string, path: string, onBytes?: OnBytes): Promise<number> {
  const answer = await fetch(url);
  if (!answer.ok || !answer.body) throw new Error(`the download link answered HTTP ${answer.status}`);
  const total = Number(answer.headers.get("Content-Length")) || undefined;
  const part = `${path}.part`;
  let done = 0;
  async function* counted(chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      done += chunk.length;
      onBytes?.(done, total);
      yield chunk;
    }
  }
  try {
    await pipeline(Readable.fromWeb(answer.body as ReadableStream), counted, createWriteStream(part));
    await rename(part, path);
    return done;
  } finally {
    await rm(part, { force: true });
  }
}
