import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { prepareWorktree } from "./bench-worktree";

/**
 * `bench:render --compare <ref>`: this tree (A) and the ref built in a worktree (B) run their own
 * scripts/bench-render.ts with the same arguments, alternately A, B, A, B…, so a noisy machine slows both
 * alike; then the median real-time factor and ratio to the raw floor per size, side by side. Each run's
 * figures are parsed from its printed lines (the format every revision with encode floors prints).
 */
export interface SizeFigures {
  rtf: number;
  floorRatio?: number;
  cpuRatio?: number;
  /** MP4 bytes and SSIM against the lossless encode (revisions that print them). */
  bytes?: number;
  ssim?: number;
}
type RunFigures = Record<string, SizeFigures>;

const root = resolve(import.meta.dirname, "../..");

/** "1024×1024: 1514 frames …", "→ real-time factor 5.15", "(identical raw frames piped): … ratio 2.08×", "raw floor … → 2.09×;". */
export function parseBenchOutput(text: string): RunFigures {
  const out: RunFigures = {};
  let size: string | null = null;
  for (const line of text.split("\n")) {
    const head = /^(\d+×\d+): \d+ frames/.exec(line);
    if (head) size = head[1];
    if (!size) continue;
    const rtf = /real-time factor ([\d.]+)/.exec(line);
    if (rtf) out[size] = { ...out[size], rtf: Number(rtf[1]) };
    const floor = /identical raw frames piped\).*ratio ([\d.]+)×/.exec(line);
    if (floor) out[size] = { ...out[size], floorRatio: Number(floor[1]) };
    const cpu = /raw floor .*→ ([\d.]+)×;/.exec(line);
    if (cpu) out[size] = { ...out[size], cpuRatio: Number(cpu[1]) };
    const bytes = /output .*\((\d+) bytes\)/.exec(line);
    if (bytes) out[size] = { ...out[size], bytes: Number(bytes[1]) };
    const ssim = /SSIM against lossless ([\d.]+)/.exec(line);
    if (ssim) out[size] = { ...out[size], ssim: Number(ssim[1]) };
  }
  return out;
}

function runBench(cwd: string, args: string[]): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench-render.ts", ...args], {
      cwd,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    child.stdout.on("data", (d: Buffer) => {
      text += d;
      process.stdout.write(d);
    });
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? ok(text) : fail(new Error(`bench in ${cwd} exited with ${code}`))));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : Number.NaN;
};
const fmt = (x: number, unit = "") => (Number.isFinite(x) ? `${x.toFixed(2)}${unit}` : "–");
const fmtSsim = (x: number) => (Number.isFinite(x) ? x.toFixed(5) : "–");

export async function compareRefs(ref: string, benchArgs: string[], rounds: number): Promise<void> {
  const tree = prepareWorktree(ref);
  const runs: Record<"A" | "B", RunFigures[]> = { A: [], B: [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const side of ["A", "B"] as const) {
        console.log(
          `\n── round ${round}/${rounds}, ${side} (${side === "A" ? "this tree" : `${ref} = ${tree.sha.slice(0, 12)}`}); load average ${loadavg()
            .map((x) => x.toFixed(1))
            .join(" ")}`,
        );
        runs[side].push(parseBenchOutput(await runBench(side === "A" ? root : tree.dir, benchArgs)));
      }
    }
  } finally {
    tree.remove();
  }
  const sizes = [...new Set(runs.A.flatMap((r) => Object.keys(r)))];
  const pick = (side: "A" | "B", size: string, key: keyof SizeFigures) =>
    median(runs[side].map((r) => r[size]?.[key] ?? Number.NaN).filter(Number.isFinite));
  console.log(`\nA = this tree, B = ${ref} (${tree.sha.slice(0, 12)}); medians of ${rounds} alternated runs each`);
  console.log(
    "| Size | RTF A | RTF B | A/B | Ratio to raw floor A | B | CPU ratio to floor A | B | MB A | B | SSIM A | B |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const size of sizes) {
    const [a, b] = [pick("A", size, "rtf"), pick("B", size, "rtf")];
    console.log(
      `| ${size} | ${fmt(a)} | ${fmt(b)} | ${fmt(a / b, "×")} | ${fmt(pick("A", size, "floorRatio"), "×")} | ${fmt(pick("B", size, "floorRatio"), "×")} | ${fmt(pick("A", size, "cpuRatio"), "×")} | ${fmt(pick("B", size, "cpuRatio"), "×")} | ${fmt(pick("A", size, "bytes") / 1048576)} | ${fmt(pick("B", size, "bytes") / 1048576)} | ${fmtSsim(pick("A", size, "ssim"))} | ${fmtSsim(pick("B", size, "ssim"))} |`,
    );
  }
}

/** The bench's own arguments, without --compare and --rounds (each side gets the rest). */
export function argsForEachSide(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--compare" || argv[i] === "--rounds") i++;
    else if (!/^--(compare|rounds)=/.test(argv[i])) out.push(argv[i]);
  }
  return out;
}
