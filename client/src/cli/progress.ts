import type { Stream } from "./output.js";

/** Where each known video stage sits on the bar; unknown stages keep the bar where it was. */
const STAGE_AT: Record<string, number> = {
  queued: 0.02,
  starting: 0.05,
  waiting: 0.08,
  waiting_for_renderer: 0.08,
  preparing_media: 0.15,
  rendering: 0.4,
  encoding: 0.75,
  uploading: 0.9,
  completed: 1,
  processing: 0.5,
  succeeded: 1,
};

/**
 * One progress line on a terminal (redrawn in place), one line per stage elsewhere (logs, CI).
 * Stages describe work, not percentages: the bar moves by stage and a clock shows the time spent.
 */
export function progressBar(out: Stream, width = 24) {
  const started = Date.now();
  let at = 0;
  let stage = "";
  const draw = () => {
    const filled = Math.round(at * width);
    const secs = ((Date.now() - started) / 1000).toFixed(0);
    const line = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${stage} ${secs}s`;
    if (out.isTTY) out.write(`\r${line}\x1b[K`);
  };
  const timer = out.isTTY ? setInterval(draw, 500) : undefined;
  return {
    stage(next: string) {
      stage = next;
      at = STAGE_AT[next] ?? at;
      if (out.isTTY) draw();
      else out.write(`stage: ${next} (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
    },
    done() {
      if (timer) clearInterval(timer);
      if (out.isTTY) out.write("\n");
    },
  };
}

const bytes = (n: number) => n.toLocaleString("en-US");

/**
 * Download progress in bytes: one line redrawn at most every 100 ms on a terminal; elsewhere a line at each
 * quarter (when the size is known) and one at the end, so logs stay short.
 */
export function byteProgress(out: Stream) {
  const started = Date.now();
  let drawn = 0;
  let quarter = 0;
  let last: [number, number | undefined] = [0, undefined];
  const line = ([done, total]: typeof last) =>
    `download: ${bytes(done)}${total ? ` of ${bytes(total)} bytes (${Math.floor((100 * done) / total)}%)` : " bytes"}`;
  return {
    bytes(done: number, total: number | undefined) {
      last = [done, total];
      if (out.isTTY) {
        if (Date.now() - drawn < 100) return;
        drawn = Date.now();
        out.write(`\r${line(last)}\x1b[K`);
      } else if (total && Math.floor((4 * done) / total) > quarter && done < total) {
        quarter = Math.floor((4 * done) / total);
        out.write(`${line(last)}\n`);
      }
    },
    done() {
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      out.write(`${out.isTTY ? "\r" : ""}${line(last)} in ${secs}s${out.isTTY ? "\x1b[K" : ""}\n`);
    },
  };
}
