/** Mouth-interior colours picked once per portrait from its skin and lip tones (lighting level, hue). */

/** Interior colours for one portrait; mouth-style.ts adds the photo's blur, grain and light to them. */
export interface MouthColors {
  teeth: [number, number, number];
  cavityEdge: [number, number, number];
  cavityDeep: [number, number, number];
  tongue: [number, number, number];
}

/** Pick interior colours that suit the portrait (lighting level and lip tone). */
export function mouthColors(skin: [number, number, number], lip: [number, number, number]): MouthColors {
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
  const teeth = [0, 1, 2].map((i) => {
    const neutral = tl * [1.0, 0.97, 0.88][i];
    const tinted = Math.min(255, skin[i] * k);
    return Math.round(Math.min(255, 0.5 * neutral + 0.5 * tinted));
  }) as [number, number, number];
  return {
    teeth,
    cavityEdge: [Math.round(lip[0] * 0.42), Math.round(lip[1] * 0.3), Math.round(lip[2] * 0.3)],
    cavityDeep: c(30, 12, 14, Math.min(1, L)),
    tongue: [Math.round(lip[0] * 0.78), Math.round(lip[1] * 0.5), Math.round(lip[2] * 0.52)],
  };
}
