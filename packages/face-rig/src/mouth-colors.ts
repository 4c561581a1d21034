/**
 * Mouth-interior colours picked once per portrait from its skin and lip tones (lighting level, hue) and,
 * for how bright synthesised teeth are, its eye whites and the light on its lips (photo-colors.ts samples them).
 */

export type Rgb = [number, number, number];

/** Interior colours for one portrait; mouth-style.ts adds the photo's blur, grain and light to them. */
export interface MouthColors {
  teeth: [number, number, number];
  cavityEdge: [number, number, number];
  cavityDeep: [number, number, number];
  tongue: [number, number, number];
}

/**
 * Pick interior colours that suit the portrait (lighting level and lip tone). The teeth take the skin's
 * hue (teethTint); with `whites` their brightness follows the eye whites and the light at the mouth.
 */
export function mouthColors(skin: Rgb, lip: Rgb, whites?: { sclera: Rgb; lipLight: Rgb }): MouthColors {
  const luma = rgbLuma(skin);
  const L = Math.min(1.08, Math.max(0.5, luma / 165));
  const c = (r: number, g: number, b: number, k = L): [number, number, number] => [
    Math.min(255, Math.round(r * k)),
    Math.min(255, Math.round(g * k)),
    Math.min(255, Math.round(b * k)),
  ];
  // Teeth: a little lighter than the skin, never brighter than the lighting allows; with eye whites, as
  // bright as the photo renders a white at the mouth (teethLuma).
  const tl = whites ? teethLuma(whites.sclera, whites.lipLight, luma) : Math.min(215, Math.max(105, luma * 0.98 + 24));
  const teeth = teethTint(skin, tl);
  return {
    teeth,
    cavityEdge: [Math.round(lip[0] * 0.42), Math.round(lip[1] * 0.3), Math.round(lip[2] * 0.3)],
    cavityDeep: c(30, 12, 14, Math.min(1, L)),
    tongue: [Math.round(lip[0] * 0.78), Math.round(lip[1] * 0.5), Math.round(lip[2] * 0.52)],
  };
}

/** Rec. 601 luma of an RGB colour (0–255), the brightness every photo-colour choice here sorts and scales by. */
export const rgbLuma = (c: Rgb) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

/** The share of the skin's colour (its departure from grey) that teeth under the same light keep: ivory. */
const TEETH_SKIN_TINT = 0.55;

/**
 * Teeth of luma `tl` under the photo's light: the skin's hue at half its saturation — the photo's
 * light and white balance as the face shows them, slightly warm, never greener than the skin (a white
 * balance taken from the eye whites turns teeth grey-green beside warm skin).
 */
function teethTint(skin: Rgb, tl: number): Rgb {
  const sl = Math.max(1, rgbLuma(skin));
  return [0, 1, 2].map((i) => Math.round(Math.min(255, tl * (1 + TEETH_SKIN_TINT * (skin[i] / sl - 1))))) as Rgb;
}

/**
 * How bright teeth are under the photo's light: as bright as the eye whites (× 0.92) but at least a little
 * brighter than the skin, and no brighter than the light on the lips allows.
 */
function teethLuma(sclera: Rgb, lipLight: Rgb, skinLuma: number): number {
  return Math.min(Math.max(rgbLuma(sclera) * 0.92, skinLuma * 1.1), rgbLuma(lipLight) * 1.15, 225);
}
