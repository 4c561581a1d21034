/**
 * Long audio (issue 8, point 8): up to 60 minutes; longer fails with `renderer_rejected` and a message
 * giving both durations; the lip-sync analysis runs window by window (bounded memory) with the same
 * curves as the whole-file analysis.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeLipSync } from "@avatar-video/motion-model";
import { afterAll, describe, expect, it } from "vitest";
import { WindowedLipSync, analyzeAudioFile } from "../../container/src/analysis/public";
import { MAX_AUDIO_SECONDS, probeAudio, ffmpegPath } from "../../container/src/media/public";
import { JobFailure } from "../../container/src/rules/public";
import { type FakeEngines, fakeEngines, startHarness } from "./helpers/renderer-harness";
import { speechLike, synthSpeech } from "./helpers/media-audio";

const dir = mkdtempSync(join(tmpdir(), "long-audio-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A silent mono WAV of `seconds` (8 kHz, 8 bit: 8 kB per second). */
function silentWav(name: string, seconds: number): string {
  const file = join(dir, name);
  const r = spawnSync(ffmpegPath(), [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "anullsrc=r=8000:cl=mono",
    "-t",
    String(seconds),
    "-c:a",
    "pcm_u8",
    file,
  ]);
  expect(r.status).toBe(0);
  return file;
}

async function rejection(p: Promise<unknown>): Promise<JobFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(JobFailure);
  return err as JobFailure;
}

describe("the 60-minute limit", () => {
  it("is 3600 s", () => {
    expect(MAX_AUDIO_SECONDS).toBe(3600);
  });

  it("a longer clip fails with renderer_rejected and a message giving both durations (declared duration)", async () => {
    const f = await rejection(probeAudio(silentWav("over.wav", MAX_AUDIO_SECONDS + 5)));
    expect(f.code).toBe("renderer_rejected");
    expect(f.retryable).toBe(false);
    expect(f.message).toBe("The audio is 3605 s (60 min 5 s) long; the longest accepted is 3600 s (60 min).");
  });

  it("the decoded length is checked too (a container may understate it)", async () => {
    const f = await rejection(analyzeAudioFile(silentWav("seven.wav", 7.5), undefined, 5));
    expect(f.code).toBe("renderer_rejected");
    expect(f.message).toBe("The audio is 7.5 s (8 s) long; the longest accepted is 5 s (5 s).");
  });

  it("60 minutes exactly is accepted by the probe", async () => {
    const info = await probeAudio(silentWav("sixty.wav", MAX_AUDIO_SECONDS));
    expect(info.durationSeconds).toBeCloseTo(3600, 0);
  });

  it("a video job with over-long audio ends failed, renderer_rejected, with both durations", async () => {
    const engines: FakeEngines = fakeEngines();
    engines.probeAudio = (p, o) => probeAudio(p, o?.signal);
    const h = await startHarness({ engines });
    try {
      const d = await h.videoDispatch();
      const wav = readFileSync(silentWav("job.wav", 3661));
      d.audioUrl = h.sources.file(`${d.jobId}.wav`, wav, "audio/wav");
      const end = await h.run(d);
      expect(end.body.error).toEqual({
        code: "renderer_rejected",
        message: "The audio is 3661 s (61 min 1 s) long; the longest accepted is 3600 s (60 min).",
        retryable: false,
      });
      expect(engines.calls.renderVideo).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});

describe("windowed lip-sync analysis", () => {
  const pcm = synthSpeech(speechLike(70, 3), 16_000);
  const whole = analyzeLipSync(pcm);
  const feed = (w: WindowedLipSync, chunk: number) => {
    for (let i = 0; i < pcm.length; i += chunk) w.push(pcm.subarray(i, i + chunk));
    return w.end();
  };

  it("audio within one window is analysed exactly as the whole file", () => {
    const r = feed(new WindowedLipSync(), 4093);
    expect(r.samples).toBe(pcm.length);
    expect(Array.from(r.track.open)).toEqual(Array.from(whole.open));
    expect(Array.from(r.track.emphasis)).toEqual(Array.from(whole.emphasis));
  });

  it("across window joins (20 s windows, 8 s context) the curves match the whole-file analysis", () => {
    const r = feed(new WindowedLipSync(20, 8), 6000);
    expect(r.track.length).toBe(whole.length);
    for (const k of ["open", "spread", "round", "press", "energy", "emphasis"] as const) {
      let max = 0;
      for (let i = 0; i < whole.length; i++) max = Math.max(max, Math.abs(whole[k][i] - r.track[k][i]));
      expect(max, k).toBeLessThan(0.01);
    }
  });
});
