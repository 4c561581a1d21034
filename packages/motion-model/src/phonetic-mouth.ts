/**
 * Mouth targets of one 10 ms frame from the viseme classifier (viseme-net.ts): each class has its lip pose,
 * mixed by the class probabilities; where the classifier is unsure (no class above ≈ 0.5) the acoustic
 * targets of lipsync-frame.ts take over. Shared by the whole-file analysis and the stream.
 *
 * Poses, as aperture-to-width ratios in the renderer (docs/phonetic-mouth.md): open
 * vowels open widest (0.9 of the jaw's range at the speaker's own level), mid vowels half that, close vowels
 * a quarter to a third, spread for ee/i, rounded and narrowed for oo/o/w, slightly protruded for sh/r;
 * tongue consonants (t, d, n, s, l, k …) leave the lips a little apart; m/b/p seal; f/v tuck the lower lip.
 */
import { loudness, mouthTarget, type FrameFeatures, type MouthTargets } from "./lipsync-frame";
import { smoothstep } from "./smoothstep";
import { stackContext } from "./viseme-input";
import { makeVisemeClassifier } from "./viseme-kernel";
import { decodeLayer } from "./viseme-net";
import { VISEME_LAYERS } from "./viseme-weights";
import { VISEMES, type Viseme } from "./visemes";

const NO_TARGETS: MouthTargets = { open: 0, spread: 0, round: 0, press: 0, tuck: 0 };

const POSES: Record<Viseme, MouthTargets> = {
  rest: NO_TARGETS,
  mbp: { open: 0, spread: 0, round: 0, press: 1, tuck: 0 },
  fv: { open: 0.05, spread: 0.1, round: 0, press: 0, tuck: 1 },
  round: { open: 0.2, spread: 0, round: 1, press: 0, tuck: 0 },
  spread: { open: 0.25, spread: 1, round: 0, press: 0, tuck: 0 },
  open: { open: 0.9, spread: 0.1, round: 0, press: 0, tuck: 0 },
  mid: { open: 0.5, spread: 0.25, round: 0, press: 0, tuck: 0 },
  tongue: { open: 0.2, spread: 0.3, round: 0, press: 0, tuck: 0 },
  sh: { open: 0.15, spread: 0, round: 0.55, press: 0, tuck: 0 },
};
const POSE_LIST = VISEMES.map((v) => POSES[v]);

let layers: ReturnType<typeof decodeLayer>[] | undefined;

/**
 * The targets of one analysis frame, for the whole-file analysis and the stream alike: `values(j)` = frame j's
 * classifier values (undefined outside the audio), `f`/`ref` its features and speaker level, `voiced` the
 * voice gate, `speechNear` speech within the last 300 ms (a seal may outlast the gate), `closure` the
 * acoustic plosive-closure detector: where the classifier is unsure it closes the mouth but never seals it —
 * only the classifier tells a p from a t or k, and sealing every stop closure made real Italian, Spanish and
 * Russian speech seal on t, k and d (issue 33).
 */
export function makeMouthTargets() {
  layers ??= VISEME_LAYERS.map(decodeLayer);
  const classify = makeVisemeClassifier(layers);
  const seal = makeHold();
  const tuck = makeHold();
  return (
    values: (j: number) => Float32Array | undefined,
    i: number,
    f: FrameFeatures,
    ref: number,
    voiced: boolean,
    speechNear: boolean,
    closure: boolean,
  ): MouthTargets => {
    if (!voiced && !speechNear) {
      seal(0);
      tuck(0);
      return NO_TARGETS;
    }
    const acoustic = closure || !voiced ? NO_TARGETS : { ...mouthTarget(f, ref), press: 0, tuck: 0 };
    const p = classify(stackContext(values, i, classify.input));
    return mix(p, loudness(f.db, ref), acoustic, voiced, seal(p[MBP]), tuck(p[FV]));
  };
}

const SEAL: MouthTargets = { ...NO_TARGETS, press: 1 };
const REST = VISEMES.indexOf("rest");
const MBP = VISEMES.indexOf("mbp");
const FV = VISEMES.indexOf("fv");
/**
 * A class probability as a seal or tuck reads it: averaged over 3 frames (a lone 10 ms frame is no
 * closure), then held for HOLD_FRAMES more (40 ms: lips take that long to part again, and a seal shorter
 * than a video frame would never show). Only past frames are used, so the stream and the whole-file
 * analysis stay alike and no look-ahead is added.
 */
const HOLD_FRAMES = 4;

/** One call per frame, in order: the largest 3-frame mean of the last HOLD_FRAMES + 1 frames. */
function makeHold(): (x: number) => number {
  const raw = new Float32Array(3);
  const means = new Float32Array(HOLD_FRAMES + 1);
  let k = 0;
  return (x) => {
    raw[k % 3] = x;
    means[k % means.length] = (raw[0] + raw[1] + raw[2]) / 3;
    k++;
    let m = 0;
    for (let j = 0; j < means.length; j++) m = Math.max(m, means[j]);
    return m;
  };
}

/**
 * Class poses mixed by probability, blended towards the acoustic targets where no class stands out; a held
 * m/b/p (`sealP`) seals from ≈ 0.55 up, a held f/v (`tuckP`) tucks from ≈ 0.35 up — f/v is the rarer
 * confusion, m/b/p the likelier one (l, w and final o read as m on some voices).
 */
function mix(
  p: Float32Array,
  loud: number,
  acoustic: MouthTargets,
  voiced: boolean,
  sealP: number,
  tuckP: number,
): MouthTargets {
  const held = smoothstep(0.45, 0.65, sealP);
  if (!voiced) {
    // Outside the voice gate only a seal is held (no faint remainder), so pauses stay exactly still.
    const sure = smoothstep(0.35, 0.7, Math.max(...p));
    return Math.max(held, sure * p[MBP]) >= 0.5 ? SEAL : NO_TARGETS;
  }
  // Inside it, "rest" is no mouth shape: the speech classes decide as far as the classifier is sure of one
  // of them and of hearing speech at all; the acoustic targets fill in the rest.
  const speech = Math.max(1e-6, 1 - p[REST]);
  let top = 0;
  for (let c = 0; c < p.length; c++) if (c !== REST) top = Math.max(top, p[c] / speech);
  const w = smoothstep(0.35, 0.7, top) * smoothstep(0.3, 0.7, speech);
  const blend = (key: keyof MouthTargets, scale: number) => {
    let s = 0;
    for (let c = 0; c < p.length; c++) if (c !== REST) s += (p[c] / speech) * POSE_LIST[c][key];
    return w * s * scale + (1 - w) * acoustic[key];
  };
  const press = Math.max(blend("press", 1), held);
  const tuck = Math.max(blend("tuck", 1), smoothstep(0.25, 0.45, tuckP));
  // The lower lip under the teeth keeps the jaw nearly closed.
  const open = blend("open", loud) * (1 - 0.8 * tuck);
  return {
    open,
    spread: blend("spread", Math.max(loud, 0.4)),
    round: blend("round", Math.max(loud, 0.4)),
    press,
    tuck,
  };
}
