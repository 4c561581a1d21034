/** A rendered video's size and rate, and its frames as RGB24, decoded by the renderer's ffmpeg. */
import { spawn } from "node:child_process";
import { ffmpegPath, ffprobePath, run } from "../../container/src/media/public";

export async function videoInfo(path: string): Promise<{ width: number; height: number; fps: number }> {
  const r = await run(ffprobePath(), [
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-show_entries",
    "stream=width,height,r_frame_rate",
    "-of",
    "json",
    path,
  ]);
  const s = JSON.parse(r.stdout.toString()).streams[0];
  const [a, b] = String(s.r_frame_rate).split("/").map(Number);
  return { width: s.width, height: s.height, fps: a / (b || 1) };
}

/**
 * RGB frames of a video, one at a time (the decoder is paused while a frame is analysed); with `every` > 1
 * only every `every`-th frame (0, every, 2·every, …) is decoded out.
 */
export async function* videoFrames(path: string, W: number, H: number, every = 1): AsyncGenerator<Buffer> {
  yield* decoded(path, W, H, every > 1 ? `select=not(mod(n\\,${every}))` : undefined);
}

/** Frame `index` of a video, as RGB24. */
export async function videoFrame(path: string, W: number, H: number, index: number): Promise<Buffer> {
  for await (const rgb of decoded(path, W, H, `select=eq(n\\,${index})`)) return rgb;
  throw new Error(`${path} has no frame ${index}`);
}

async function* decoded(path: string, W: number, H: number, filter?: string): AsyncGenerator<Buffer> {
  const select = filter ? ["-vf", filter, "-fps_mode", "passthrough"] : [];
  const child = spawn(
    ffmpegPath(),
    ["-v", "error", "-i", path, ...select, "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const size = W * H * 3;
  let buf: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of child.stdout) {
      buf = buf.length ? Buffer.concat([buf, chunk as Buffer]) : (chunk as Buffer);
      while (buf.length >= size) {
        yield Buffer.from(buf.subarray(0, size));
        buf = buf.subarray(size);
      }
    }
  } finally {
    // A reader that stops early (one frame wanted) must not leave ffmpeg blocked on a full pipe.
    child.kill();
  }
}
