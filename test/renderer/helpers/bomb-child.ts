/**
 * Runs one untrusted-input decode in its own process and prints what it cost: the failure code (or "ok"),
 * wall time and peak RSS (this process, sharp's native memory included; ffprobe's own is measured by
 * /usr/bin/time in the test). Usage: bomb-child.ts background|audio <file>
 */
import { readFile } from "node:fs/promises";
import { probeAudio } from "../../../container/src/media/public";
import { JobFailure } from "../../../container/src/rules/public";
import { decodeBackground } from "../../../container/src/paint/public";

const [kind, file] = process.argv.slice(2) as [string, string];
const t0 = performance.now();
let code = "ok";
let detail = "";
try {
  if (kind === "background") {
    await decodeBackground(await readFile(file), {
      width: 1280,
      height: 720,
      fit: "crop",
      backgroundColor: "#000000",
      backgroundFit: "cover",
    });
  } else {
    detail = `${(await probeAudio(file)).durationSeconds} s`;
  }
} catch (err) {
  code = err instanceof JobFailure ? err.code : `thrown: ${String(err)}`;
  detail = err instanceof JobFailure ? (err.detail ?? err.message) : "";
}
const ms = Math.round(performance.now() - t0);
process.stdout.write(
  `${JSON.stringify({ code, detail, ms, maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
