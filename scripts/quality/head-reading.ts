/**
 * How much a rendered head moves, as the motion model drew it and as a face model reads it back
 * (docs/performance.md, "Head motion"). The reader's pose also moves with the speaking mouth, the blinks and
 * the brows — on a head that is exactly still it reads yaw / pitch SDs of 0.4–0.8 / 0.7–1.9° — and at
 * headMotion 1 (0.67 / 0.46°) that is as large as the motion, and runs in step with the speech-driven nods.
 * So the reading is taken against a render of the same speech with the head still (headMotion 0: the same
 * mouth, blinks and brows, frame for frame), and what counts is the share of the drawn motion it follows.
 */
import { ANALYSIS_RATE } from "@avatar-video/motion-model";
import type { Performance } from "@avatar-video/contract";
import { analyzeAudioFile } from "../../container/src/analysis/public";
import { makePoseSchedule, makeTimeline } from "../../container/src/video/public";

export interface YawPitch {
  yaw: number;
  pitch: number;
}
const AXES = ["yaw", "pitch"] as const;

const variance = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length || 1);
};

/** SD of each angle over the frames read (undefined: no face found). */
export function poseSd(read: Array<YawPitch | undefined>): YawPitch {
  const ok = read.filter((r): r is YawPitch => r !== undefined);
  const sd = (k: keyof YawPitch) => Math.sqrt(variance(ok.map((r) => r[k])));
  return { yaw: sd("yaw"), pitch: sd("pitch") };
}

/**
 * How much of the drawn motion `moving` shows against `still`: per angle the regression slope of their
 * frame-by-frame difference on the drawn angle (the reader's gain; noise that does not follow the head averages
 * out instead of adding), times the drawn SD. Degrees.
 */
export function motionFollowed(
  moving: Array<YawPitch | undefined>,
  still: Array<YawPitch | undefined>,
  drawn: YawPitch[],
): YawPitch {
  const out = { yaw: 0, pitch: 0 };
  for (const k of AXES) {
    const pairs: Array<[number, number]> = [];
    moving.forEach((m, i) => {
      const s = still[i];
      if (m && s && drawn[i]) pairs.push([drawn[i][k], m[k] - s[k]]);
    });
    const mx = pairs.reduce((a, [x]) => a + x, 0) / pairs.length;
    const my = pairs.reduce((a, [, y]) => a + y, 0) / pairs.length;
    const sxy = pairs.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
    const sxx = pairs.reduce((a, [x]) => a + (x - mx) ** 2, 0);
    out[k] = Math.abs(sxy / sxx) * Math.sqrt(sxx / pairs.length);
  }
  return out;
}

/**
 * The head's yaw and pitch as the motion model drew them on the frames read (every `every`-th), from the same
 * audio, seed and performance as the render (leads of 0, as quality-performance renders).
 */
export async function motionDrawn(audioPath: string, seed: number, p: Performance, every: number) {
  const { track, samples } = await analyzeAudioFile(audioPath);
  const timeline = makeTimeline(samples / ANALYSIS_RATE, 0, 0);
  const schedule = makePoseSchedule({
    track,
    timeline,
    seed,
    interocular: 1,
    headMotion: true,
    blinks: false,
    performance: p,
  });
  const out: YawPitch[] = [];
  for (let f = 0; f < timeline.frames; f += every) {
    const { yaw, pitch } = schedule.poseAt(f);
    out.push({ yaw, pitch });
  }
  return out;
}
