/**
 * Phone classes of a real recording in any language espeak-ng speaks, without an acoustic model of that
 * language: espeak-ng says the same transcript (with its own phoneme positions, espeak-phonemes.ts), and the
 * two are matched frame by frame by dynamic time warping of their cepstra (the product's mel bands, DCT, the
 * utterance's mean removed, so the speakers' spectra matter less than the sounds' order). Each real frame
 * takes the class of the synthetic frame it is matched to. How well this holds is measured on English against
 * forced alignment (transfer-check.ts).
 */
import { execFileSync } from "node:child_process";
import { HOP, makeFrameAnalyzer } from "../../packages/motion-model/src/lipsync-frame";
import { MEL_BANDS } from "../../packages/motion-model/src/mel";
import { VISEMES } from "../../packages/motion-model/src/visemes";
import { espeakPhonemes } from "./espeak-phonemes";
import { visemesOf } from "./ipa-visemes";
import { RATE } from "./tts";

const CEPS = 13;
const MBP = VISEMES.indexOf("mbp");
/** Frames quieter than this below the utterance's loudest are silence (class rest, matched only to silence). */
const SILENCE_DB = 35;

interface Frames {
  ceps: Float64Array[];
  db: Float64Array;
}

function frames(pcm: Float32Array): Frames {
  const analyze = makeFrameAnalyzer();
  const n = Math.ceil(pcm.length / HOP);
  const feats = Array.from({ length: n }, (_, i) => analyze(pcm, 0, i * HOP + HOP / 2));
  const ceps = feats.map((f) => {
    const c = new Float64Array(CEPS);
    for (let k = 1; k <= CEPS; k++)
      for (let b = 0; b < MEL_BANDS; b++) c[k - 1] += f.mel[b] * Math.cos((Math.PI * k * (b + 0.5)) / MEL_BANDS);
    return c;
  });
  const mean = new Float64Array(CEPS);
  for (const c of ceps) for (let k = 0; k < CEPS; k++) mean[k] += c[k] / n;
  for (const c of ceps) for (let k = 0; k < CEPS; k++) c[k] -= mean[k];
  return { ceps, db: Float64Array.from(feats, (f) => f.db) };
}

/**
 * For each frame of `a`, the frame of `b` it is matched to: DTW with steps (1,1), (1,2), (2,1) (the local
 * tempo may halve or double, not more), silent frames costed against silence only by loudness.
 */
export function warpPath(a: Frames, b: Frames): Int32Array {
  const [n, m] = [a.ceps.length, b.ceps.length];
  const topA = Math.max(...a.db);
  const topB = Math.max(...b.db);
  const quietA = Uint8Array.from(a.db, (d) => (d < topA - SILENCE_DB ? 1 : 0));
  const quietB = Uint8Array.from(b.db, (d) => (d < topB - SILENCE_DB ? 1 : 0));
  const cost = (i: number, j: number) => {
    if (quietA[i] || quietB[j]) return quietA[i] === quietB[j] ? 0 : 40;
    let s = 0;
    for (let k = 0; k < CEPS; k++) s += (a.ceps[i][k] - b.ceps[j][k]) ** 2;
    return Math.sqrt(s);
  };
  const D = new Float64Array(n * m).fill(Infinity);
  const from = new Uint8Array(n * m); // 0: (1,1), 1: (1,2) (b advanced 2), 2: (2,1)
  D[0] = cost(0, 0);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) {
      if (i === 0 && j === 0) continue;
      const c = cost(i, j);
      let best = Infinity;
      let step = 0;
      if (i >= 1 && j >= 1 && D[(i - 1) * m + j - 1] + c < best) [best, step] = [D[(i - 1) * m + j - 1] + c, 0];
      if (i >= 1 && j >= 2 && D[(i - 1) * m + j - 2] + c * 1.5 < best)
        [best, step] = [D[(i - 1) * m + j - 2] + c * 1.5, 1];
      if (i >= 2 && j >= 1 && D[(i - 2) * m + j - 1] + c * 1.5 < best)
        [best, step] = [D[(i - 2) * m + j - 1] + c * 1.5, 2];
      D[i * m + j] = best;
      from[i * m + j] = step;
    }
  const path = new Int32Array(n).fill(-1);
  let [i, j] = [n - 1, m - 1];
  if (!Number.isFinite(D[i * m + j])) return path.fill(-1);
  while (i >= 0 && j >= 0) {
    path[i] = j;
    if (i === 0 && j === 0) break;
    const s = from[i * m + j];
    if (s === 0) [i, j] = [i - 1, j - 1];
    else if (s === 1) [i, j] = [i - 1, j - 2];
    else {
      path[i - 1] = j;
      [i, j] = [i - 2, j - 1];
    }
  }
  return path;
}

/** Decoded espeak-ng output (its rate → 16 kHz mono float). */
function decodeRaw(input: string[]): Float32Array {
  const out = execFileSync(
    "ffmpeg",
    ["-v", "error", ...input, "-ar", String(RATE), "-ac", "1", "-f", "f32le", "pipe:1"],
    {
      maxBuffer: 1 << 28,
    },
  );
  return new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
}

/**
 * espeak-ng `voice` saying `text` (16 kHz), and for each 10 ms frame of `pcm` the synthetic frame it is matched
 * to; undefined where the warp finds no path.
 */
export function warpToEspeak(tool: string, dir: string, voice: string, text: string, pcm: Float32Array) {
  const synth = espeakPhonemes(tool, dir, voice, 160, text);
  const spcm = decodeRaw(synth.input);
  const path = warpPath(frames(pcm), frames(spcm));
  return path[0] < 0 ? undefined : { synth, spcm, path };
}

/** Synthetic frames this close to a change of class stay unlabelled: the warp is least sure at boundaries. */
const EDGE = 2;
/**
 * Nor are frames of another class this close to an m/b/p: where the warp misplaces a bilabial, its frames
 * would be taught as some other class (a lip seal unlearnt), the worse error.
 */
const BILABIAL_REACH = 6;

/**
 * Each 10 ms frame's class (−1 unlabelled) of `pcm` (16 kHz), a recording of `text`, from espeak-ng `voice`
 * saying the text; undefined where the warp finds no path (a transcript that does not match the recording).
 */
export function transferClasses(
  tool: string,
  dir: string,
  voice: string,
  text: string,
  pcm: Float32Array,
): Int8Array | undefined {
  const warp = warpToEspeak(tool, dir, voice, text, pcm);
  if (!warp) return undefined;
  const { synth, spcm, path } = warp;
  const synthClass = new Int8Array(Math.ceil(spcm.length / HOP)); // 0 = rest
  synth.events.forEach((e, k) => {
    const end = k + 1 < synth.events.length ? synth.events[k + 1].t : synth.end;
    const classes = visemesOf(e.name);
    for (let i = Math.ceil((e.t * RATE) / HOP - 0.5); (i + 0.5) * HOP < end * RATE && i < synthClass.length; i++)
      synthClass[i] = ((i + 0.5) * HOP) / RATE < (e.t + end) / 2 ? classes[0] : classes[1];
  });
  const at = (i: number) => synthClass[Math.min(synthClass.length - 1, Math.max(0, i))];
  const sure = synthClass.map((c, i) => {
    for (let d = -EDGE; d <= EDGE; d++) if (at(i + d) !== c) return -1;
    if (c !== MBP) for (let d = -BILABIAL_REACH; d <= BILABIAL_REACH; d++) if (at(i + d) === MBP) return -1;
    return c;
  });
  return Int8Array.from(path, (j) => (j < 0 ? -1 : sure[j]));
}
