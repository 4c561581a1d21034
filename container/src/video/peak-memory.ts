/** Peak resident memory of this process and of a child (ffmpeg), sampled while a render runs. */
import { readFileSync } from "node:fs";

/** VmHWM (the kernel's own peak RSS) of a process in bytes; 0 where /proc is not available. */
export function readPeakRss(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export class PeakMemory {
  nodePeakRss = process.memoryUsage().rss;
  ffmpegPeakRss = 0;

  sampleNode(): void {
    this.nodePeakRss = Math.max(this.nodePeakRss, process.memoryUsage().rss);
  }

  sampleChild(pid: number | undefined): void {
    this.ffmpegPeakRss = Math.max(this.ffmpegPeakRss, readPeakRss(pid));
  }
}
