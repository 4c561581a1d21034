/** One SHA-256 over ffmpeg's MD5 of every decoded video frame of a file, and the frame count. */
import { createHash } from "node:crypto";
import { ffmpegPath, run } from "../../../container/src/media/public";

export async function frameDigest(mp4: string): Promise<{ frames: number; sha256: string }> {
  const r = await run(ffmpegPath(), ["-v", "error", "-i", mp4, "-map", "0:v", "-f", "framemd5", "-"]);
  if (r.code !== 0) throw new Error(`ffmpeg framemd5 exited ${r.code}: ${r.stderr}`);
  const md5s = r.stdout
    .toString("utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(",").at(-1)!.trim());
  return { frames: md5s.length, sha256: createHash("sha256").update(md5s.join("\n")).digest("hex") };
}
