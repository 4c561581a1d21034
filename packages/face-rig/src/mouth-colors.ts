/**
 * Mouth-interior colours picked once per portrait from its skin and lip tones (lighting level, hue) and,
 * for synthesised teeth, its eye whites and the light on its lips (photo-colors.ts samples them).
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
 * Pick interior colours that suit the portrait (lighting level and lip tone). With `whites` the teeth take
 * the eye whites' colour balance and the light at the mouth (teethFromWhites); without, they are derived
 * from the skin.
 */
export function mouthColors(skin: Rgb, lip: Rgb, whites?: { sclera: Rgb; lipLight: Rgb }): MouthColors {
  const luma = 0.299 * skin[0] + 0.587 * skin[1] + 0.114 * skin[2];
  const L = Math.min(1.08, Math.max(0.5, luma / 165));
  const c = (r: number, g: number, b: number, k = L): [number, number, number] => [
    Math.min(255, Math.round(r * k)),
    Math.min(255, Math.round(g * k)),
    Math.min(255, Math.round(b * k)),
  ];
  // Teeth: a little lighter than the skin, off-white tinted by the photo's light (half the skin's hue,
  // half a warm neutral), never brighter than the lighting allows.
  const tl = Math.min(215, Math.max(105, luma * 0.98 + 24));
  const k = tl / Math.max(1, luma);
  const fromSkin = [0, 1, 2].map((i) => {
    const neutral = tl * [1.0, 0.97, 0.88][i];
    const tinted = Math.min(255, skin[i] * k);
    return Math.round(Math.min(255, 0.5 * neutral + 0.5 * tinted));
  }) as Rgb;
  const teeth = whites ? teethFromWhites(whites.sclera, whites.lipLight, luma) : fromSkin;
  return {
    teeth,
    cavityEdge: [Math.round(lip[0] * 0.42), Math.round(lip[1] * 0.3), Math.round(lip[2] * 0.3)],
    cavityDeep: c(30, 12, 14, Math.min(1, L)),
    tongue: [Math.round(lip[0] * 0.78), Math.round(lip[1] * 0.5), Math.round(lip[2] * 0.52)],
  };
}

const lumaOf = (c: Rgb) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

/**
 * Teeth under the photo's light: the eye whites' balance of red, green and blue (how the photo renders a
 * white), a little warmer (teeth are not as white as sclera), as bright as the whites (× 0.92) but at least a
 * little brighter than the skin, and no brighter than the light on the lips allows.
 */
function teethFromWhites(sclera: Rgb, lipLight: Rgb, skinLuma: number): Rgb {
  const tint = [0, 1, 2].map((i) => (sclera[i] / Math.max(1, lumaOf(sclera))) * [1.0, 0.96, 0.86][i]) as Rgb;
  const target = Math.min(Math.max(lumaOf(sclera) * 0.92, skinLuma * 1.1), lumaOf(lipLight) * 1.15, 225);
  const k = target / Math.max(1e-6, lumaOf(tint));
  return tint.map((v) => Math.round(Math.min(255, v * k))) as Rgb;
}
