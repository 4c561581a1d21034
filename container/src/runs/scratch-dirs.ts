/**
 * Per-run scratch directories under WORK_DIR (removed when each run ends). Names carry the owner's pid, so a
 * restarted renderer removes what dead processes left behind while another live renderer sharing WORK_DIR
 * keeps its own.
 */
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Dispatch } from "@avatar-video/contract";

const WORK_PREFIX = "job-";

export function makeScratchDir(workDir: string, d: Dispatch): Promise<string> {
  return mkdtemp(path.join(workDir, `${WORK_PREFIX}${process.pid}-${d.kind}-${d.jobId}-a${d.attempt}-`));
}

export async function removeOrphanedScratchDirs(workDir: string): Promise<void> {
  await mkdir(workDir, { recursive: true });
  for (const name of await readdir(workDir).catch(() => [] as string[])) {
    const m = /^job-(\d+)-/.exec(name);
    if (!m || (Number(m[1]) !== process.pid && processAlive(Number(m[1])))) continue;
    await rm(path.join(workDir, name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}
