/**
 * Talking-head quality, measured on the rendered MP4 itself (not on the renderer's curves):
 *
 *   npm run quality -- <video.mp4> [more.mp4 …] --voice <voice.wav> [--json out.json]
 *
 * Every frame is run through two face meshes: Human's FaceMesh (container/src/analysis/face/analyze.ts) for the face
 * box and the alignment, and MediaPipe Face Mesh with refined lips and eyes (quality/refined-mesh.ts) for the
 * inner-lip gap, which Human's unrefined mesh misreads on some faces; blinks are read on both meshes' eyes.
 * The clean voice is located inside the MP4's soundtrack by cross-correlating loudness envelopes, then per
 * video it prints (definitions in docs/animation.md):
 *  - gain: mean inner-lip gap in speech frames minus the mean in silent frames (eye-corner-distance units)
 *  - corr: Pearson correlation of the gap with the voice loudness (dB re its 95th percentile, clipped at −40)
 *  - rest: share of silent frames (no voice within ±0.3 s) whose gap is within 0.02 of frame 0 (the photo)
 *  - blinks/min: dips of any eye, as read by either mesh, below a fraction of its own rolling median (perEyeBlinkEvents), and the
 *    mean blink length (ms either eye stays below 80 % of its own rolling median, per counted blink)
 *  - ssim: mean SSIM of the face outside the mouth-and-jaw ellipse against frame 0, after aligning each
 *    frame to frame 0 with a similarity transform (stable landmarks, refined on the pixels; head sway is
 *    not a defect; QUALITY_LANDMARK_ALIGN=1 skips the refinement, for comparison with older figures)
 *  - lag: frame shift (−5…5) maximising the gap/loudness correlation (positive = mouth after the sound)
 *  - open: 90th percentile over speech frames of the gap's rise over frame 0 (the widest openings: loud
 *    open vowels), eye-corner units; closed: share of speech frames whose gap is within 0.02 of frame 0
 *    (lips at rest or sealed between syllables); p20/p90: the rise's 20th over its 90th percentile in speech
 *  - lost: frames where either detector finds no face (or Human a face of implausible size)
 *  - gain·unrefined, blinks·unrefined: the same read from Human's unrefined FaceMesh alone (the figures before 2026-11-26)
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { analyzeFaces } from "../container/src/analysis/public";
import { ffmpegPath, run } from "../container/src/media/public";
import { SILHOUETTE } from "@avatar-video/face-rig";
import {
  alignOffset,
  envelopeDb,
  fillPolygon,
  innerLipGap,
  maskedSsim,
  pearson,
  percentile,
  perEyeBlinkEvents,
  similarity,
} from "./quality/metrics";
import { RefinedMesh } from "./quality/refined-mesh";
import { videoFrames, videoInfo } from "./quality/video-frames";
import { refineSimilarity } from "./quality/register";

const RATE = 16_000;
const STABLE = [33, 133, 362, 263, 168, 6, 197, 195, 5];

async function decodePcm(path: string): Promise<Float32Array> {
  const r = await run(
    ffmpegPath(),
    ["-v", "error", "-i", path, "-vn", "-ac", "1", "-ar", String(RATE), "-f", "f32le", "pipe:1"],
    { maxStdout: 1 << 30 },
  );
  if (r.code !== 0) throw new Error(`cannot decode audio of ${path}: ${r.stderr}`);
  return new Float32Array(r.stdout.buffer.slice(r.stdout.byteOffset, r.stdout.byteOffset + r.stdout.byteLength));
}

const dist = (m: number[][], a: number, b: number) => Math.hypot(m[a][0] - m[b][0], m[a][1] - m[b][1]);

export interface QualityResult {
  video: string;
  frames: number;
  gain: number;
  corr: number;
  rest: number;
  blinksPerMin: number;
  blinkMs: number;
  ssim: number;
  lag: number;
  open: number;
  closed: number;
  p20p90: number;
  lost: number;
  /** Gain and blinks per minute read from Human's unrefined FaceMesh. */
  gainUnrefined: number;
  blinksPerMinUnrefined: number;
  /** Per frame (JSON only): see `Readings`, and the voice loudness. */
  perFrame?: Readings & { loud: number[] };
}

/**
 * Per-frame readings in eye-corner units (NaN where a face is lost): inner-lip gap, mouth width (61–291),
 * eye openings (eyeR = subject's right eye 159–145, eyeL = left eye 386–374) from the refined mesh, the same
 * gap and eyes from Human's mesh (…Unrefined), and depth = Human's z of point 33 minus point 263 (head turn:
 * Human refines both eyes' lids only while it is small).
 */
const READINGS = ["gap", "width", "eyeR", "eyeL", "gapUnrefined", "eyeRUnrefined", "eyeLUnrefined", "depth"] as const;
type Readings = Record<(typeof READINGS)[number], number[]>;

async function measure(video: string, voice: Float32Array, refinedMesh: RefinedMesh): Promise<QualityResult> {
  const { width: W, height: H, fps } = await videoInfo(video);
  const r = Object.fromEntries(READINGS.map((k) => [k, [] as number[]])) as Readings;
  const record = (v: Partial<Record<keyof Readings, number>>) => READINGS.forEach((k) => r[k].push(v[k] ?? NaN));
  const ssim: number[] = [];
  let lost = 0;
  let ref:
    | {
        luma: Uint8Array;
        mesh: number[][];
        mask: Uint8Array;
        box: { x0: number; y0: number; x1: number; y1: number };
        iod: number;
      }
    | undefined;
  for await (const rgb of videoFrames(video, W, H)) {
    const faces = await analyzeFaces({ data: rgb, width: W, height: H });
    const q = await refinedMesh.detect(rgb, W, H);
    const f = faces[0];
    const iod = f ? dist(f.mesh, 33, 263) : 0;
    if (!f || f.score < 0.3 || (ref && Math.abs(iod / ref.iod - 1) > 0.25) || !q) {
      lost++;
      record({});
      continue;
    }
    const m = f.mesh;
    const qiod = dist(q, 33, 263);
    record({
      gap: innerLipGap(q),
      width: dist(q, 61, 291) / qiod,
      eyeR: dist(q, 159, 145) / qiod,
      eyeL: dist(q, 386, 374) / qiod,
      gapUnrefined: innerLipGap(m),
      eyeRUnrefined: dist(m, 159, 145) / iod,
      eyeLUnrefined: dist(m, 386, 374) / iod,
      depth: m[33][2] - m[263][2],
    });
    const luma = new Uint8Array(W * H);
    for (let i = 0; i < W * H; i++) luma[i] = (rgb[i * 3] * 77 + rgb[i * 3 + 1] * 150 + rgb[i * 3 + 2] * 29) >> 8;
    if (!ref) {
      const mask = new Uint8Array(W * H);
      const oval = SILHOUETTE.map((i) => [m[i][0], m[i][1]] as [number, number]);
      fillPolygon(mask, W, H, oval, 1);
      // Exclude the mouth and jaw: an ellipse from the nose base to below the chin, 1.7 mouth widths wide.
      const mw = dist(m, 61, 291);
      const cx = (m[2][0] + m[152][0]) / 2;
      const cy = (m[2][1] + m[152][1]) / 2;
      const ry = ((m[152][1] - m[2][1]) / 2) * 1.15;
      const rx = 0.85 * mw;
      const ell: Array<[number, number]> = Array.from({ length: 48 }, (_, k) => [
        cx + rx * Math.cos((k / 48) * 2 * Math.PI),
        cy + ry * Math.sin((k / 48) * 2 * Math.PI),
      ]);
      fillPolygon(mask, W, H, ell, 0);
      const xs = oval.map((p) => p[0]);
      const ys = oval.map((p) => p[1]);
      const box = {
        x0: Math.floor(Math.min(...xs)),
        y0: Math.floor(Math.min(...ys)),
        x1: Math.ceil(Math.max(...xs)),
        y1: Math.ceil(Math.max(...ys)),
      };
      ref = { luma, mesh: m, mask, box, iod };
      ssim.push(1);
      continue;
    }
    const T0 = similarity(
      STABLE.map((i) => [ref!.mesh[i][0], ref!.mesh[i][1]]),
      STABLE.map((i) => [m[i][0], m[i][1]]),
    );
    // Landmarks start the alignment, the pixels of the face outside the mouth finish it (register.ts).
    const T = process.env.QUALITY_LANDMARK_ALIGN ? T0 : refineSimilarity(ref.luma, luma, W, H, ref.mask, ref.box, T0);
    ssim.push(maskedSsim(ref.luma, luma, W, H, ref.mask, ref.box, T));
  }
  const { gap } = r;
  const n = gap.length;
  // Voice placement inside the soundtrack (10 ms envelope steps).
  const track = await decodePcm(video);
  const env = envelopeDb(voice, 160, 640);
  const offset = alignOffset(envelopeDb(track, 160, 640), env);
  const valid = Array.from(env).filter((d) => d > -70);
  const peak = percentile(valid, 0.95);
  const vdb = (k: number) => (k >= 0 && k < env.length ? env[k] : -120);
  const loud = new Float64Array(n);
  const speech = new Uint8Array(n);
  const silent = new Uint8Array(n);
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < n; i++) {
    const k = Math.round((i / fps + 0.02) * 100) - offset;
    loud[i] = Math.max(-40, Math.min(0, vdb(k) - peak));
    speech[i] = vdb(k) > peak - 30 ? 1 : 0;
    let near = false;
    for (let j = k - 30; j <= k + 30 && !near; j++) near = vdb(j) > peak - 30;
    silent[i] = near ? 0 : 1;
    if (speech[i]) {
      first = Math.min(first, i);
      last = Math.max(last, i);
    }
  }
  const ok = (i: number) => Number.isFinite(gap[i]);
  const mean = (idx: number[], g = gap) => idx.reduce((s, i) => s + g[i], 0) / (idx.length || 1);
  const sp = [...Array(n).keys()].filter((i) => speech[i] && ok(i));
  const si = [...Array(n).keys()].filter((i) => silent[i] && ok(i));
  const gap0 = gap[0];
  const rise = sp.map((i) => gap[i] - gap0);
  const open = percentile(rise, 0.9);
  const span = (s: number) => {
    const a: number[] = [];
    const b: number[] = [];
    const lo = Math.max(0, first - Math.round(0.3 * fps));
    const hi = Math.min(n - 1, last + Math.round(0.3 * fps));
    for (let i = lo; i <= hi; i++)
      if (i + s >= 0 && i + s < n && ok(i + s)) {
        a.push(gap[i + s]);
        b.push(loud[i]);
      }
    return pearson(a, b);
  };
  let lag = 0;
  for (let s = -5; s <= 5; s++) if (span(s) > span(lag)) lag = s;
  // Each blink is the run where either eye is below 80 % of its own rolling median: its length is the blink's.
  // Either mesh may miss a closed lid the other reads (docs/animation.md, "Why blinks are read by both meshes").
  const blinks = perEyeBlinkEvents([r.eyeR, r.eyeL, r.eyeRUnrefined, r.eyeLUnrefined], fps);
  const minutes = n / fps / 60;
  return {
    video,
    frames: n,
    gain: mean(sp) - mean(si),
    corr: span(0),
    rest: si.filter((i) => gap[i] - gap0 < 0.02).length / (si.length || 1),
    blinksPerMin: blinks.length / minutes,
    blinkMs: blinks.length ? (blinks.reduce((s, [a, b]) => s + b - a, 0) / blinks.length / fps) * 1000 : 0,
    ssim: ssim.filter(Number.isFinite).reduce((s, v) => s + v, 0) / (ssim.filter(Number.isFinite).length || 1),
    lag,
    open,
    closed: rise.filter((x) => x < 0.02).length / (rise.length || 1),
    p20p90: percentile(rise, 0.2) / open,
    lost,
    gainUnrefined: mean(sp, r.gapUnrefined) - mean(si, r.gapUnrefined),
    blinksPerMinUnrefined: perEyeBlinkEvents([r.eyeRUnrefined, r.eyeLUnrefined], fps).length / minutes,
    perFrame: { ...r, loud: Array.from(loud) },
  };
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { voice: { type: "string" }, json: { type: "string" } },
  });
  if (!positionals.length || !values.voice) {
    console.error("usage: npm run quality -- <video.mp4> [more.mp4 …] --voice <voice.wav> [--json out.json]");
    process.exit(2);
  }
  const voice = await decodePcm(values.voice);
  const results: QualityResult[] = [];
  const refinedMesh = await RefinedMesh.open();
  console.log(
    "video | frames | gain | corr | rest | blinks/min | blink ms | ssim | lag | open | closed | p20/p90 | lost | gain·unrefined | blinks·unrefined",
  );
  try {
    for (const v of positionals) {
      const r = await measure(v, voice, refinedMesh);
      results.push(r);
      const f = (x: number, d = 3) => x.toFixed(d);
      console.log(
        `${v} | ${r.frames} | ${f(r.gain)} | ${f(r.corr, 2)} | ${f(r.rest * 100, 1)} % | ${f(r.blinksPerMin, 1)} | ${f(r.blinkMs, 0)} | ${f(r.ssim)} | ${r.lag} | ${f(r.open)} | ${f(r.closed * 100, 0)} % | ${f(r.p20p90, 2)} | ${r.lost} | ${f(r.gainUnrefined)} | ${f(r.blinksPerMinUnrefined, 1)}`,
      );
    }
  } finally {
    await refinedMesh.close();
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2));
}

await main();
