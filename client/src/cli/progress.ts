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
