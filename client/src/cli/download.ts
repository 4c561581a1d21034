import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";

/** Downloads a signed link (no App headers) to `path`, through `path.part` so a broken transfer leaves no MP4. */
export async function download(url: string, path: string): Promise<void> {
  const answer = await fetch(url);
  if (!answer.ok || !answer.body) throw new Error(`the download link answered HTTP ${answer.status}`);
  const part = `${path}.part`;
  try {
    await pipeline(Readable.fromWeb(answer.body as ReadableStream), createWriteStream(part));
    await rename(part, path);
  } finally {
    await rm(part, { force: true });
  }
}
