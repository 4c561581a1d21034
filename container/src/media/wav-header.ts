/**
 * What a WAV file's header announces (RIFF, or RF64/BW64 with a ds64 chunk), read from a few small pieces of
 * the file before anything decodes it; audio-probe.ts judges it. Writers that do not know the length when they
 * write the header (ffmpeg or SoX to a pipe, live recorders) leave a marker instead of a size: 0, 0xFFFFFFFF,
 * or SoX's 0x7FFFF000.
 */
import { open } from "node:fs/promises";

const OPEN_SIZE = new Set([0, 0xffffffff, 0x7ffff000]);
/** Chunks looked at before the data chunk (fmt, LIST, bext, JUNK… come first). */
const MAX_CHUNKS = 64;

export interface WavAnnouncement {
  /** Bytes of samples the header announces; undefined when it left the size open. */
  dataBytes: number | undefined;
  /** Bytes of the file from the data chunk's first sample on. */
  heldBytes: number;
  /** Average bytes per second (fmt chunk). */
  byteRate: number;
}

/** The header's announcement, or undefined when the file is not a WAV with fmt and data chunks. */
export async function readWavAnnouncement(path: string): Promise<WavAnnouncement | undefined> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const at = async (position: number, length: number) => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await file.read(buf, 0, length, position);
      return buf.subarray(0, bytesRead);
    };
    const riff = await at(0, 12);
    const magic = riff.toString("latin1", 0, 4);
    if (riff.length < 12 || !["RIFF", "RF64", "BW64"].includes(magic) || riff.toString("latin1", 8, 12) !== "WAVE")
      return undefined;
    let ds64: number | undefined;
    let byteRate = 0;
    let pos = 12;
    for (let i = 0; i < MAX_CHUNKS && pos + 8 <= size; i++) {
      const head = await at(pos, 8);
      const id = head.toString("latin1", 0, 4);
      const length = head.readUInt32LE(4);
      if (id === "ds64") ds64 = Number((await at(pos + 16, 8)).readBigUInt64LE(0));
      if (id === "fmt ") byteRate = (await at(pos + 16, 4)).readUInt32LE(0);
      if (id === "data") {
        const dataBytes = magic !== "RIFF" && length === 0xffffffff ? ds64 : OPEN_SIZE.has(length) ? undefined : length;
        return byteRate > 0 ? { dataBytes, heldBytes: size - pos - 8, byteRate } : undefined;
      }
      pos += 8 + length + (length & 1);
    }
    return undefined;
  } finally {
    await file.close();
  }
}
