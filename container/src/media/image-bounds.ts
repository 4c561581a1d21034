/**
 * Pixel caps for images decoded from untrusted sources other than Avatar portraits (those are capped in
 * avatar/decode.ts): a small file may announce huge dimensions, and sharp's default cap (268 MP) still lets
 * one decode cost seconds of CPU and up to ~1 GiB. The header is read first, so a refusal decodes nothing.
 */
import sharp from "sharp";
import { JobFailure } from "../rules/public";

/** As many pixels as an Avatar source may have (SOURCE_IMAGE.maxPixels): far above any 16:9 output. */
export const MAX_BACKGROUND_PIXELS = 50_000_000;

const tooManyPixels = (width: number, height: number) =>
  new JobFailure("media_too_large", "The background image has too many pixels.", {
    detail: `The background image is ${width}×${height} (${((width * height) / 1e6).toFixed(0)} MP); at most ${MAX_BACKGROUND_PIXELS / 1e6} MP are decoded.`,
  });

/** The background's header (no pixels decoded); `media_too_large` above the cap. */
export async function backgroundHeader(input: Buffer | string): Promise<sharp.Metadata> {
  const meta = await sharp(input, { limitInputPixels: false }).metadata();
  const width = meta.width ?? 0;
  const height = (meta.pageHeight ?? meta.height ?? 0) * Math.max(1, meta.pages ?? 1);
  if (width * height > MAX_BACKGROUND_PIXELS) throw tooManyPixels(width, height);
  return meta;
}

/** sharp input options for every background decode: the cap holds even if a caller skipped the header check. */
export const BACKGROUND_INPUT = { limitInputPixels: MAX_BACKGROUND_PIXELS } as const;
