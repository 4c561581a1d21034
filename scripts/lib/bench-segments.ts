/**
 * `npm run bench:render -- --segments N`: the figures of a split render (docs/operations.md "Capacity"), side by
 * side with the whole render of the same clip, in one process: the whole render; each segment rendered alone
 * as its instance would (segment 0 with the audio track, encoded meanwhile), its wall time and segment
 * real-time factor (its own frames over its wall time, the whole audio's analysis included); the audio track
 * alone; the join. In production the segments run at once on instances of their own, so the split render's
 * wall time is the slowest segment's plus the join's (plus hand-overs and transfers, not measured here).
 */
import { mkdtempSync } from "node:fs";
import { statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { joinVideo, type RenderInput, renderVideo, videoAudioTrack } from "../../container/src/video/public";

type Base = Omit<RenderInput, "workDir" | "segment" | "audioTrack">;

const timed = async <T>(work: () => Promise<T>) => {
  const t0 = performance.now();
  const value = await work();
  return { value, s: (performance.now() - t0) / 1000 };
};

export async function benchSegments(base: Base, count: number, work: string): Promise<void> {
  const dir = (name: string) => mkdtempSync(join(work, `${name}-`));
  const whole = await timed(() => renderVideo({ ...base, workDir: dir("whole") }));
  const tl = whole.value.timeline;
  const line = (label: string, seconds: number, s: number, extra = "") =>
    console.log(
      `  ${label}: ${seconds.toFixed(1)} s of video in ${s.toFixed(1)} s → RTF ${(seconds / s).toFixed(2)}${extra}; load ${loadavg()[0].toFixed(1)}`,
    );
  const { width, height } = base.settings;
  console.log(`${width}×${height}, ${tl.frames} frames in ${count} segments:`);
  line("whole render", tl.durationSeconds, whole.s, `, analysis ${whole.value.timings.analysis} ms`);
  const parts: { s: number; mp4Path: string; audioTrackPath?: string }[] = [];
  for (let index = 0; index < count; index++) {
    const part = await timed(() =>
      renderVideo({ ...base, workDir: dir(`segment-${index}`), segment: { index, count }, audioTrack: index === 0 }),
    );
    const r = part.value;
    const extra = `, analysis ${r.timings.analysis} ms, ${(statSync(r.mp4Path).size / 1048576).toFixed(1)} MB${index === 0 ? " (with the audio track)" : ""}`;
    line(`segment ${index} [${r.range.start}, ${r.range.end})`, r.durationSeconds, part.s, extra);
    parts.push({ s: part.s, mp4Path: r.mp4Path, audioTrackPath: r.audioTrackPath });
  }
  const track = await timed(() => videoAudioTrack({ audioPath: base.audioPath, timeline: tl, workDir: dir("audio") }));
  console.log(`  audio track alone: ${track.s.toFixed(1)} s (${(tl.durationSeconds / track.s).toFixed(0)}× real time)`);
  const audioTrack = parts[0].audioTrackPath as string;
  const joined = await timed(() =>
    joinVideo({ segments: parts.map((p) => p.mp4Path), audioTrack, timeline: tl, workDir: dir("join") }),
  );
  console.log(`  join: ${joined.s.toFixed(2)} s (${(statSync(joined.value.mp4Path).size / 1048576).toFixed(1)} MB)`);
  const slowest = Math.max(...parts.map((p) => p.s));
  console.log(
    `  split on ${count} instances: slowest segment ${slowest.toFixed(1)} s + join ${joined.s.toFixed(1)} s = ${(slowest + joined.s).toFixed(1)} s against ${whole.s.toFixed(1)} s whole (${(whole.s / (slowest + joined.s)).toFixed(2)}×)`,
  );
}
