/**
 * The synthesised mouth interior, one pixel at a time: what the renderer (container/src/paint/
 * mouth-interior.ts, into yuv420p frames) and the live client (packages/motion-client, into an RGBA
 * overlay) both draw into the inner-lip opening after the warp — dark throat, lip-shadow colour along the
 * lips' inner edge, upper teeth hanging from the upper lip (one shaded tooth at a time, darker gaps,
 * receding into shadow at the sides), lower teeth mostly hidden by the lower lip, a tongue on wide
 * openings. Everything is drawn as soft as the photo (its measured blur sets every edge width), with its
 * lighting slope and colours taken from the photo (mouth-style.ts); the writers add its grain. A photo
 * whose lips are apart at rest keeps its own interior: it is sampled from the still frame and moves with
 * the upper lip. The interior fades out towards the inner corners, so nothing is drawn past the lips' own
 * corners. Steps: innerLips and measureOpening (once per frame) → paintRect → shade (per pixel).
 */
import { smoothstep } from "@avatar-video/motion-model";
import { cornerTeethAt } from "./corner-teeth";
import { curveAt, curveOrigin, curveTable, LUT, mouthAxis } from "./lip-curve";
import { paintCavity, paintSeal, paintTongue, reusePhotoInterior, STEP, type Interior } from "./mouth-layers";
import { paintLowerTeeth, paintUpperTeeth } from "./teeth";
import type { FaceModel } from "./face-model";
import type { MouthStyle } from "./mouth-style";
import type { YuvFrameLayout } from "./yuv-photo";

/** A pixel rect (x1, y1 exclusive). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * |u| (share of the half mouth width) where the interior starts fading into the warped photo towards the
 * lips' corners (it is gone at 0.98). A photo showing its own teeth fades later: between its lips at the
 * corners are its side teeth, which a wide opening would stretch into light streaks.
 */
const CORNER_FADE = 0.7;
const CORNER_FADE_OWN_TEETH = 0.95;

/** The inner lip points at vertex positions `xy`, written into `upper` and `lower` as flat [x, y] arrays. */
export function innerLips(mouth: FaceModel["mouth"], xy: Float32Array, upper: Float32Array, lower: Float32Array): void {
  for (let k = 0; k < mouth.upperInner.length; k++) {
    const vi = mouth.upperInner[k];
    upper[k * 2] = xy[vi * 2];
    upper[k * 2 + 1] = xy[vi * 2 + 1];
  }
  for (let k = 0; k < mouth.lowerInner.length; k++) {
    const vi = mouth.lowerInner[k];
    lower[k * 2] = xy[vi * 2];
    lower[k * 2 + 1] = xy[vi * 2 + 1];
  }
}

/**
 * The lip curves of this frame and of the photo at rest, and how far this opening exceeds the photo's own:
 * only an opening beyond it shows the interior — at rest the frame is the photograph, and a barely parted
 * mouth shows the lips' own (warped) seam, never a drawn dark stroke. Undefined when nothing shows.
 */
export function measureOpening(
  upper: Float32Array,
  lower: Float32Array,
  open: number,
  st: MouthStyle,
  round: number,
  tuck: number,
): Interior | undefined {
  const ax = mouthAxis(upper);
  const upT = curveTable(upper, ax.ox, ax.oy, ax.ex, ax.ey, ax.hw, LUT);
  const loT = curveTable(lower, ax.ox, ax.oy, ax.ex, ax.ey, ax.hw, LUT);
  const { ax: restAx, up: rUp, lo: rLo } = st.rest;
  let centreGap = 0;
  let restGap = 0;
  for (let k = (LUT * 0.3) | 0; k <= LUT * 0.7; k += 8) {
    centreGap = Math.max(centreGap, loT[k] - upT[k]);
    restGap = Math.max(restGap, (rLo[k] - rUp[k]) * (ax.hw / restAx.hw));
  }
  const extra = centreGap - restGap;
  const s = st.blur;
  // Lips closing over the photo's own teeth (M/B/P): what is left of the opening shows those teeth as they
  // are, covered by the lips (the warp would squeeze them into a grey strip), until the last of it, which
  // is painted as lips meeting.
  const closing = st.ownTeeth && restGap > 0 ? Math.max(0, -extra / restGap) : 0;
  // F/V: the strip of upper teeth between the lips shows however little the lips are apart.
  const vis = Math.max(
    smoothstep(0.4, 1.2 + 1.5 * s, extra),
    tuck * smoothstep(0.3, 1 + s, centreGap),
    smoothstep(0.02, 0.12, closing),
  );
  // A slit narrower than a couple of the photo's blurs cannot show teeth: there the lips have met.
  const seal = closing > 0 ? Math.max(smoothstep(0.75, 0.95, closing), 1 - smoothstep(1 + s, 2 + 2 * s, centreGap)) : 0;
  // Per column, with rounding closing them at the sides only (deform.ts); the strip of teeth the mesh gives
  // the lower lip (lip-edge.ts) counts as opening, now and at rest.
  let sealed = new Float64Array(LUT + 1);
  if (st.ownTeeth) {
    const k = ax.hw / restAx.hw;
    for (let j = 0; j <= LUT; j++) {
      const below = st.teethBelowLip[j];
      sealed[j] = Math.max(seal, sealAt(loT[j] + below * k - upT[j], (rLo[j] + below - rUp[j]) * k));
    }
    // Near the corners both gaps are a pixel or two and their ratio jumps from column to column.
    sealed = smoothTable(sealed, 8);
  }
  if (!(vis > 0) && !sealed.some((a) => a > 0)) return undefined;
  const hw = ax.hw;
  const shown = smoothstep(1.5, Math.max(3, 0.16 * hw), extra) * (1 - 0.65 * Math.min(1, Math.max(0, round)));
  // A photo's own upper teeth come from the photo (reusePhotoInterior); its lower teeth, newly shown, are drawn.
  const teethVis = st.ownTeeth ? 0 : Math.max(tuck, shown);
  return {
    ax,
    upT,
    loT,
    vis,
    open,
    tuck,
    teethVis,
    lowTeethVis: shown,
    teethH: 0.28 * hw,
    lowTeethH: 0.13 * hw * smoothstep(0.3, 0.9, open),
    edge: Math.max(0.7, s),
    step: STEP * Math.max(0.5, s),
    sealed,
    deepDist: Math.max(1.5, 0.2 * hw),
    st,
    origin: st.cornerTeeth
      ? {
          up: curveOrigin(upper, ax, st.rest.upPts, restAx, LUT),
          lo: curveOrigin(lower, ax, st.rest.loPts, restAx, LUT),
        }
      : undefined,
  };
}

/** A lookup table averaged over ±r entries (edges clamped). */
function smoothTable(t: Float64Array, r: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(t.length);
  for (let j = 0; j < t.length; j++) {
    let s = 0;
    let n = 0;
    for (let i = Math.max(0, j - r); i <= Math.min(t.length - 1, j + r); i++, n++) s += t[i];
    out[j] = s / n;
  }
  return out;
}

/** How far lips that were `restGap` px apart in the photo have closed over its teeth at `gap` px (0..1). */
function sealAt(gap: number, restGap: number): number {
  return restGap > 2 ? smoothstep(0.75, 0.95, 1 - gap / restGap) : 0;
}

/**
 * The even-aligned luma rect that can change: the lips' bounding box plus the blur's reach and the photo's
 * side teeth beyond the inner corners (corner-teeth.ts, up to 0.12 half widths), inside `clip`.
 */
export function paintRect(upper: Float32Array, lower: Float32Array, blur: number, clip: Rect): Rect | undefined {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const a of [upper, lower])
    for (let i = 0; i < a.length; i += 2) {
      minX = Math.min(minX, a[i]);
      maxX = Math.max(maxX, a[i]);
      minY = Math.min(minY, a[i + 1]);
      maxY = Math.max(maxY, a[i + 1]);
    }
  const pad = Math.ceil(STEP * blur) + 3 + Math.ceil(0.06 * (maxX - minX));
  const x0 = Math.max(clip.x0, (Math.floor(minX) - pad) & ~1);
  const x1 = Math.min(clip.x1, (Math.ceil(maxX) + pad + 1) & ~1);
  const y0 = Math.max(clip.y0, (Math.floor(minY) - pad) & ~1);
  const y1 = Math.min(clip.y1, (Math.ceil(maxY) + pad + 1) & ~1);
  return x1 > x0 && y1 > y0 ? { x0, y0, x1, y1 } : undefined;
}

/** Colour (into `col`: r, g, b, share of synthesised content) and coverage of the interior at (px, py). */
export function shade(c: Interior, L: YuvFrameLayout, col: Float64Array, px: number, py: number): number {
  const { ax } = c;
  const dx = px - ax.ox;
  const dy = py - ax.oy;
  const u = (dx * ax.ex + dy * ax.ey) / ax.hw;
  const v = -dx * ax.ey + dy * ax.ex;
  const cover = u > -1 && u < 1 ? shadeOpening(c, L, col, u, v) : 0;
  return c.st.cornerTeeth ? sealCornerTeeth(c, L, col, u, v, cover) : cover;
}

/**
 * Where sealed lips have carried the photo's side teeth from outside the inner-lip loop at a corner into the
 * closed mouth (corner-teeth.ts), the sealed lips' colour over them: each point is followed back to the photo
 * with the move of the lip it lies on (across and along the mouth). Returns the coverage, at least `cover`
 * (what was drawn there).
 */
function sealCornerTeeth(
  c: Interior,
  L: YuvFrameLayout,
  col: Float64Array,
  u: number,
  v: number,
  cover: number,
): number {
  const { st, ax, origin } = c;
  if (!st.cornerTeeth || !origin || Math.abs(u) < 0.8) return cover;
  const uc = Math.max(-0.999, Math.min(0.999, u));
  // How sealed that corner is: the lips' state a little in from it, the same for the whole corner.
  const sealed = curveAt(c.sealed, LUT, Math.sign(u) * 0.9);
  if (!(sealed > cover)) return cover;
  const kr = st.rest.ax.hw / ax.hw;
  const vUp = curveAt(c.upT, LUT, uc);
  const vLo = curveAt(c.loT, LUT, uc);
  const upper = v < (vUp + vLo) / 2;
  const from = upper ? origin.up : origin.lo;
  const uRest = u - (uc - curveAt(from.u, LUT, uc));
  const vRest = (v - (upper ? vUp : vLo)) * kr + curveAt(from.v, LUT, uc);
  const a = cornerTeethAt(st.cornerTeeth, uRest, vRest) * sealed;
  if (!(a > cover)) return cover;
  const r = col[0],
    g = col[1],
    b = col[2],
    f = cover / a; // the share of what was drawn here that stays
  paintSeal(c, L, col, uc, v, vUp, vLo, 0);
  col[0] += (r - col[0]) * f;
  col[1] += (g - col[1]) * f;
  col[2] += (b - col[2]) * f;
  col[3] *= f;
  return a;
}

/** The opening's layers and the sealed lips at (u, v) in the current mouth frame, |u| < 1. */
function shadeOpening(c: Interior, L: YuvFrameLayout, col: Float64Array, u: number, v: number): number {
  const { ax, st } = c;
  const vUp = curveAt(c.upT, LUT, u);
  // Where the photo's teeth reach below the mesh's lower inner lip, that strip is opening too (lip-edge.ts).
  const k = ax.hw / st.rest.ax.hw;
  const below = curveAt(st.teethBelowLip, LUT, u);
  const vLo = curveAt(c.loT, LUT, u) + below * k;
  const dist = Math.min(v - vUp, vLo - v);
  const au = Math.abs(u);
  if (au >= 0.995) return 0;
  // Lips closed over the photo's own teeth: here (rounding's sides) or in the middle (M/B/P).
  const seal = curveAt(c.sealed, LUT, u);
  // The opening's own layers, its edge centred on the lip edge and as soft as a step blurred by the photo's σ.
  const alpha = seal < 1 ? smoothstep(-c.step, c.step + 0.3, dist) * c.vis : 0;
  let open = 0;
  if (alpha > 0) {
    const gapHere = Math.max(0, vLo - vUp);
    paintCavity(c, col, dist, au);
    paintTongue(c, col, u, v, vLo, gapHere);
    paintLowerTeeth(c, col, u, au, v, vLo, gapHere);
    paintUpperTeeth(c, col, u, au, v, vUp, gapHere);
    col[3] = st.ownTeeth ? 1 - reusePhotoInterior(c, L, col, u, v, vUp) : 1;
    const fade = st.ownTeeth ? smoothstep(CORNER_FADE_OWN_TEETH, 0.995, au) : smoothstep(CORNER_FADE, 0.98, au);
    open = alpha * (1 - fade);
  }
  if (!(seal > 0)) return open;
  const r = col[0],
    g = col[1],
    b = col[2],
    synth = col[3];
  // Pressed lips can cross near the corners (their points do not face each other there): the band between
  // the crossed curves is the warp's fold, squeezed teeth, and is sealed as a whole.
  const lo0 = vLo - below * k; // the mesh's own lower curve
  const sealDist = Math.min(v - Math.min(vUp, lo0), Math.max(vUp, vLo) - v);
  const closed = paintSeal(c, L, col, u, v, vUp, vLo, sealDist) * (1 - smoothstep(CORNER_FADE_OWN_TEETH, 0.995, au));
  // Both by their coverage: the open part weighs open × (1 − seal), the sealed one closed × seal.
  const wo = open * (1 - seal);
  const cover = wo + closed * seal;
  if (!(cover > 0)) return 0;
  const f = wo / cover;
  col[0] += (r - col[0]) * f;
  col[1] += (g - col[1]) * f;
  col[2] += (b - col[2]) * f;
  col[3] = synth * f;
  return cover;
}
