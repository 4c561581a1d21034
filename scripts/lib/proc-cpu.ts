/**
 * CPU time of this process's descendants, grouped by role, from /proc (Linux only). Benchmarks use it to say
 * where the CPU goes: the `wrangler dev` proxy, the workerd that runs the Worker and its objects, wrangler's
 * node process, the renderer — and the benchmark client itself (process.cpuUsage()).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const TICK = 100; // USER_HZ on Linux

interface Proc {
  pid: number;
  ppid: number;
  name: string;
}

function readStat(path: string): { name: string; ppid: number; ticks: number; threads: number } | undefined {
  try {
    const st = readFileSync(path, "utf8");
    const close = st.lastIndexOf(")");
    const f = st.slice(close + 2).split(" ");
    return {
      name: st.slice(st.indexOf("(") + 1, close),
      ppid: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]),
      threads: Number(f[17]),
    };
  } catch {
    return undefined; // exited
  }
}

function descendants(root = process.pid): Proc[] {
  const all: Proc[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    const s = readStat(`/proc/${d}/stat`);
    if (s) all.push({ pid: Number(d), ppid: s.ppid, name: s.name });
  }
  const parent = new Map(all.map((p) => [p.pid, p.ppid]));
  const mine = (pid: number) => {
    for (let p = parent.get(pid); p && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return all.filter((p) => mine(p.pid));
}

/** Inode of the socket listening on 127.0.0.1:port (or any address), from /proc/net/tcp. */
function listeningInode(port: number): string | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(`:${hex}`) && f[3] === "0A") return f[9];
  }
  return undefined;
}

function holdsSocket(pid: number, inode: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

export type Roles = Record<string, number[]>;

/**
 * The stack's processes by role. `publicPort` is where `wrangler dev` listens: the workerd holding it is
 * wrangler's dev proxy (a development-only hop); the other workerd runs the Worker and its Durable Objects.
 */
export function stackRoles(publicPort: number): Roles {
  const procs = descendants();
  const inode = listeningInode(publicPort);
  const roles: Roles = {
    "workerd: Worker + objects": [],
    "workerd: wrangler dev proxy": [],
    "node: wrangler + renderer": [],
  };
  for (const p of procs) {
    if (p.name.startsWith("workerd"))
      roles[inode && holdsSocket(p.pid, inode) ? "workerd: wrangler dev proxy" : "workerd: Worker + objects"]!.push(
        p.pid,
      );
    else if (p.name === "node" || p.name.startsWith("node")) roles["node: wrangler + renderer"]!.push(p.pid);
  }
  return roles;
}

/** CPU seconds (user + system) used so far by each role, and by this process as "bench client". */
export function cpuByRole(roles: Roles): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [role, pids] of Object.entries(roles))
    out[role] = pids.reduce((s, pid) => s + (readStat(`/proc/${pid}/stat`)?.ticks ?? 0) / TICK, 0);
  const self = process.cpuUsage();
  out["bench client"] = (self.user + self.system) / 1e6;
  return out;
}

/** CPU seconds of each thread of a process (to see whether one thread carries the load). */
export function cpuByThread(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const s = readStat(`/proc/${pid}/task/${tid}/stat`);
      if (s) out.set(Number(tid), s.ticks / TICK);
    }
  } catch {
    // exited
  }
  return out;
}
