/**
 * Finds the faces of a photo at any size from the smallest accepted face up. BlazeFace squeezes what it
 * is given into 256², so on the whole photo it finds faces down to ~1/10 of the longer side only. When
 * that first pass finds no face, overlapping tiles are searched at full resolution (docs/avatar-image-rules.md,
 * "Where faces are searched"). Every face comes back in source pixels.
 */
import sharp from "sharp";
import { ANALYSIS_MAX_SIDE, CLEAR_MIN_FACE_WIDTH_PX, MAX_TILES, TILE_OVERLAP, TILE_SIDE } from "../rules/public";
import { analyzeFaces, type Box, type DetectedFace, type RgbImage } from "../analysis/public";
import { visibleFaces } from "./assess";

/**
 * A face found narrower than this in the image it was found on (a downscaled copy or tile) is analysed
 * again on a crop around it at full resolution: detector and mesh scores, points and width all depend on
 * the scale the face was seen at (a 100 px face seen at 19 px scored 0.51 instead of 0.93).
 */
const REFINE_BELOW_PX = 128;
/** The refinement crop: this many face widths around the face. */
const REFINE_CROP = 3;
/** A face this share of BlazeFace's input side is found reliably (25 px of 256; measured down to 20). */
const FINDABLE_SHARE = 25 / 256;
/** Each coarser tile level is this much larger (its faces overlap the finer level's). */
const LEVEL_STEP = 2.5;

export interface FaceSearch {
  /** All faces, largest first, in source pixels. */
  faces: DetectedFace[];
  /** Faces narrower than this (source px) may have been missed: what a "no face" answer can promise. */
  smallestFindablePx: number;
  /** Tiles analysed in the second pass (0: the first pass sufficed). */
  tiles: number;
}

export type Analyze = (image: RgbImage) => Promise<DetectedFace[]>;

export async function findFaces(source: RgbImage, analyze: Analyze = analyzeFaces): Promise<FaceSearch> {
  const longSide = Math.max(source.width, source.height);
  const first = await analyzeScaled(source, ANALYSIS_MAX_SIDE, analyze);
  const firstFindable = FINDABLE_SHARE * longSide;
  if (firstFindable <= CLEAR_MIN_FACE_WIDTH_PX || visibleFaces(first).length > 0) {
    const k = Math.min(1, ANALYSIS_MAX_SIDE / longSide);
    const faces = await Promise.all(
      first.map((f) => (k < 1 && f.box.width * k < REFINE_BELOW_PX ? refine(source, f, analyze) : f)),
    );
    return { faces: dedupe(faces), smallestFindablePx: Math.min(firstFindable, CLEAR_MIN_FACE_WIDTH_PX), tiles: 0 };
  }
  const levels = tileLevels(source.width, source.height, firstFindable);
  const found = first.map((f) => ({
    face: f,
    analysedWidth: f.box.width * (ANALYSIS_MAX_SIDE < longSide ? ANALYSIS_MAX_SIDE / longSide : 1),
  }));
  let tiles = 0;
  for (const side of levels) {
    // One scaled copy per level (a tile of `side` source px becomes TILE_SIDE px), tiles cut from it.
    const k = Math.min(1, TILE_SIDE / side);
    const copy = k < 1 ? await resized(source, Math.round(source.width * k), Math.round(source.height * k)) : source;
    for (const tile of tileGrid(copy.width, copy.height, Math.min(TILE_SIDE, side))) {
      tiles++;
      const faces = (await analyze(cut(copy, tile))).filter(
        (f) => !cutByTile(f.box, { ...tile, x: 0, y: 0 }, tile, copy),
      );
      for (const f of faces) found.push({ face: place(f, 1 / k, tile.x / k, tile.y / k), analysedWidth: f.box.width });
    }
  }
  const refined = await Promise.all(
    found.map((c) => (c.analysedWidth < REFINE_BELOW_PX ? refine(source, c.face, analyze) : c.face)),
  );
  // A tile of side S is analysed at TILE_SIDE: a face of w source px is w·256/S px for BlazeFace.
  const smallest = levels.length ? FINDABLE_SHARE * levels[0] : firstFindable;
  return { faces: dedupe(refined), smallestFindablePx: Math.max(smallest, CLEAR_MIN_FACE_WIDTH_PX), tiles };
}

/** Tile sides, finest first, that find faces the first pass cannot, within MAX_TILES in total. */
function tileLevels(width: number, height: number, firstFindable: number): number[] {
  const levels: number[] = [];
  for (
    let side = TILE_SIDE;
    FINDABLE_SHARE * side < firstFindable && side < Math.max(width, height);
    side *= LEVEL_STEP
  ) {
    levels.push(Math.round(side));
  }
  const count = (ls: number[]) => ls.reduce((n, s) => n + tileGrid(width, height, s).length, 0);
  while (levels.length > 1 && count(levels) > MAX_TILES) levels.shift(); // give up the finest level first
  if (count(levels) > MAX_TILES) levels.length = 0;
  return levels;
}

function axis(length: number, side: number): number[] {
  if (side >= length) return [0];
  const stride = side * (1 - TILE_OVERLAP);
  const n = Math.ceil((length - side) / stride) + 1;
  return Array.from({ length: n }, (_, i) => Math.round(Math.min(i * stride, length - side)));
}

function tileGrid(width: number, height: number, side: number): Box[] {
  const w = Math.min(side, width);
  const h = Math.min(side, height);
  return axis(height, h).flatMap((top) => axis(width, w).map((x) => ({ x, y: top, width: w, height: h })));
}

/** The whole source scaled down to ≤ maxSide, analysed, mapped back to source pixels. */
async function analyzeScaled(source: RgbImage, maxSide: number, analyze: Analyze): Promise<DetectedFace[]> {
  const k = Math.min(1, maxSide / Math.max(source.width, source.height));
  const image = k < 1 ? await resized(source, Math.round(source.width * k), Math.round(source.height * k)) : source;
  return (await analyze(image)).map((f) => place(f, source.width / image.width, 0, 0));
}

/** The face analysed again on a crop of REFINE_CROP face widths around it, at full resolution (≤ 768). */
async function refine(source: RgbImage, face: DetectedFace, analyze: Analyze): Promise<DetectedFace> {
  const b = face.box;
  const side = Math.round(Math.max(b.width, b.height) * REFINE_CROP);
  const x = clamp(Math.round(b.x + b.width / 2 - side / 2), 0, Math.max(0, source.width - side));
  const y = clamp(Math.round(b.y + b.height / 2 - side / 2), 0, Math.max(0, source.height - side));
  const region = { x, y, width: Math.min(side, source.width - x), height: Math.min(side, source.height - y) };
  let crop = cut(source, region);
  const k = Math.min(1, ANALYSIS_MAX_SIDE / Math.max(crop.width, crop.height));
  if (k < 1) crop = await resized(crop, Math.round(crop.width * k), Math.round(crop.height * k));
  const again = (await analyze(crop)).map((f) => place(f, region.width / crop.width, region.x, region.y));
  let best: DetectedFace | undefined;
  let bestIou = 0.3;
  for (const f of again) {
    const v = iou(f.box, b);
    if (v > bestIou) [best, bestIou] = [f, v];
  }
  return best ?? face;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

async function resized(image: RgbImage, width: number, height: number): Promise<RgbImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A rectangle of an RGB image (row copies; no resampling). */
function cut(image: RgbImage, r: Box): RgbImage {
  if (r.x === 0 && r.y === 0 && r.width === image.width && r.height === image.height) return image;
  const data = Buffer.allocUnsafe(r.width * r.height * 3);
  for (let row = 0; row < r.height; row++) {
    const from = ((r.y + row) * image.width + r.x) * 3;
    image.data.copy(data, row * r.width * 3, from, from + r.width * 3);
  }
  return { data, width: r.width, height: r.height };
}

function place(face: DetectedFace, k: number, dx: number, dy: number): DetectedFace {
  if (k === 1 && dx === 0 && dy === 0) return face;
  const b = face.box;
  return {
    ...face,
    mesh: face.mesh.map(([x, y, z]) => [x * k + dx, y * k + dy, z * k]),
    box: { x: b.x * k + dx, y: b.y * k + dy, width: b.width * k, height: b.height * k },
  };
}

/** A face touching a tile edge that is not an image edge is (or may be) cut: another tile holds it whole. */
function cutByTile(b: Box, local: Box, tile: Box, image: RgbImage): boolean {
  const m = 2;
  return (
    (tile.x > 0 && b.x < local.x + m) ||
    (tile.y > 0 && b.y < local.y + m) ||
    (tile.x + tile.width < image.width && b.x + b.width > local.x + local.width - m) ||
    (tile.y + tile.height < image.height && b.y + b.height > local.y + local.height - m)
  );
}

function iou(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** The same face found by overlapping tiles or levels: keep the most confident detection. */
function dedupe(faces: DetectedFace[]): DetectedFace[] {
  const kept: DetectedFace[] = [];
  for (const f of [...faces].sort((a, b) => b.detectorScore - a.detectorScore)) {
    if (!kept.some((k) => iou(k.box, f.box) > 0.3)) kept.push(f);
  }
  return kept.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
}
