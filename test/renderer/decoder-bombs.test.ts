/**
 * Issue 24, point 3: every decoder is bounded. Each bomb runs in its own process (helpers/bomb-child.ts) so its
 * peak RSS is its own: it must end with the right failure code within seconds and with memory bounded.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeAudio, ffmpegPath } from "../../container/src/media/public";
import { wavHeader } from "../../scripts/lib/wav";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "bombs-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Cost {
  code: string;
  detail: string;
  ms: number;
  maxRssMiB: number;
  /** Peak RSS of the whole process tree's largest member (ffprobe included), from /usr/bin/time. */
  treeMaxRssMiB: number;
}

async function cost(kind: "background" | "audio", file: string): Promise<Cost> {
  const { stdout, stderr } = await run(
    "/usr/bin/time",
    [
      "-f",
      "TREE_MAX_RSS_KB %M",
      process.execPath,
      "--import",
      "tsx",
      "test/renderer/helpers/bomb-child.ts",
      kind,
      file,
    ],
    {
      cwd: root,
      timeout: 60_000,
      maxBuffer: 1 << 20,
    },
  );
  const tree = Number(/TREE_MAX_RSS_KB (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  const result = JSON.parse(stdout.trim().split("\n").pop()!) as Omit<Cost, "treeMaxRssMiB">;
  const out = { ...result, treeMaxRssMiB: Math.round(tree / 1024) };
  console.log(`${path.basename(file)}: ${JSON.stringify(out)}`);
  return out;
}

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
};

/** 40000×40000 RGB announced; a few KiB of compressed zero rows follow (the decoder would fill the rest). */
function pngBomb(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(40_000, 0);
  ihdr.writeUInt32BE(40_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = zlib.deflateSync(Buffer.alloc(40_000 * 3 * 8 + 8), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", rows),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A real 64×64 JPEG whose frame header then claims 40000×40000. */
async function jpegBomb(): Promise<Buffer> {
  const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } })
    .jpeg()
    .toBuffer();
  const sof = small.indexOf(Buffer.from([0xff, 0xc0]));
  small.writeUInt16BE(40_000, sof + 5); // height
  small.writeUInt16BE(40_000, sof + 7); // width
  return small;
}

/** A real 64×64 lossless WebP whose bitstream header then claims 16383×16383 (268 MP: just under sharp's default cap). */
async function webpBomb(): Promise<Buffer> {
  const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } })
    .webp({ lossless: true })
    .toBuffer();
  const at = small.indexOf(Buffer.from("VP8L", "latin1")) + 8;
  expect(small[at]).toBe(0x2f);
  const bits = small.readUInt32LE(at + 1);
  const rest = bits & ~((1 << 28) - 1); // alpha and version bits
  small.writeUInt32LE((rest | 16382 | (16382 << 14)) >>> 0, at + 1);
  return small;
}

/** A 16 kHz mono PCM16 WAV whose header announces `announcedSeconds`, with `heldSeconds` of samples behind it. */
function wavFile(announcedSeconds: number, heldSeconds: number): Buffer {
  const rate = 16_000;
  return Buffer.concat([wavHeader(rate, announcedSeconds * rate * 2), Buffer.alloc(heldSeconds * rate * 2)]);
}

describe("decompression bombs end failed, fast, with bounded memory", () => {
  for (const [name, build] of [
    ["bomb.png", async () => pngBomb()],
    ["bomb.jpg", jpegBomb],
    ["bomb.webp", webpBomb],
  ] as const) {
    it(`${name}: a background announcing more than 50 MP is media_too_large before any pixel is decoded`, async () => {
      const file = path.join(dir, name);
      await writeFile(file, await build());
      const c = await cost("background", file);
      expect(c.code).toBe("media_too_large");
      expect(c.detail).toMatch(/^The background image is \d+×\d+ \(\d+ MP\); at most 50 MP are decoded\.$/);
      expect(c.ms).toBeLessThan(3000);
      expect(c.maxRssMiB).toBeLessThan(300);
    }, 60_000);
  }

  it("a valid 16000×16000 PNG (256 MP, under sharp's default cap; 800 KB) is media_too_large, not decoded", async () => {
    // Before the cap it decoded: ~200 MiB peak and 0.2 s of CPU for every render that used it.
    const file = path.join(dir, "valid-256mp.png");
    await run(
      ffmpegPath(),
      ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=16000x16000", "-frames:v", "1", "-c:v", "png", file],
      { timeout: 60_000 },
    );
    const c = await cost("background", file);
    expect(c.code).toBe("media_too_large");
    expect(c.ms).toBeLessThan(3000);
    expect(c.maxRssMiB).toBeLessThan(150);
  }, 90_000);

  it("a WAV header announcing 10 hours (1 s of samples behind it) is renderer_rejected from the header alone", async () => {
    // Before: ffprobe clamped the data chunk to the file and the job rendered the 1 s it held.
    const file = path.join(dir, "ten-hours.wav");
    await writeFile(file, wavFile(10 * 3600, 1));
    const c = await cost("audio", file);
    expect(c.code).toBe("renderer_rejected");
    expect(c.detail).toBe(
      "The WAV header announces 36000 s (600 min) of audio; the longest accepted is 3600 s (60 min).",
    );
    expect(c.ms).toBeLessThan(3000);
    expect(c.treeMaxRssMiB).toBeLessThan(300);
  }, 60_000);

  it("a WAV header announcing 30 min over 1 s of samples is unsupported_media_type (cut short, or a lying header)", async () => {
    const file = path.join(dir, "cut-short.wav");
    await writeFile(file, wavFile(30 * 60, 1));
    const c = await cost("audio", file);
    expect(c.code).toBe("unsupported_media_type");
    expect(c.detail).toMatch(/^The WAV header announces 1800 s \(30 min\) of audio but the file holds 1 s \(1 s\)/);
    expect(c.ms).toBeLessThan(3000);
  }, 60_000);

  it("a WAV whose header left the size open (0, 0xFFFFFFFF as ffmpeg writes to a pipe) is measured by its samples", async () => {
    for (const marker of [0, 0xffffffff]) {
      const bytes = wavFile(0, 1);
      bytes.writeUInt32LE(marker, 4);
      bytes.writeUInt32LE(marker, 40);
      const file = path.join(dir, `open-${marker}.wav`);
      await writeFile(file, bytes);
      expect((await probeAudio(file)).durationSeconds).toBe(1);
    }
  });

  it("an HLS playlist named .mp3 (its segment a local MP3 of the renderer's disk) is unsupported_media_type: no playlist is opened", async () => {
    // Without the demuxer list ffprobe read it as HLS (format "hls", 1 s) and the job would have rendered a
    // file of the renderer's own disk.
    const segment = path.join(dir, "segment.mp3");
    await run(ffmpegPath(), ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=1", segment]);
    const playlist = path.join(dir, "playlist.mp3");
    await writeFile(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${segment}\n#EXT-X-ENDLIST\n`);
    const c = await cost("audio", playlist);
    expect(c.code).toBe("unsupported_media_type");
    expect(c.ms).toBeLessThan(3000);
  }, 60_000);
});
