/**
 * Mel filterbank on the analysis frame's power spectrum (512-point FFT at 16 kHz): the spectral envelope the
 * viseme classifier reads (visemes.ts). Triangular bands, equally spaced on the mel scale.
 */
export const MEL_BANDS = 24;
const LO_HZ = 100;
const HI_HZ = 7600;

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzOf = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** Per band: first bin and the weights of the bins from there. */
export function melFilters(nfft: number, rate: number): Array<{ from: number; w: Float64Array }> {
  const edges = Array.from(
    { length: MEL_BANDS + 2 },
    (_, i) => (hzOf(mel(LO_HZ) + ((mel(HI_HZ) - mel(LO_HZ)) * i) / (MEL_BANDS + 1)) * nfft) / rate,
  );
  return Array.from({ length: MEL_BANDS }, (_, b) => {
    const [a, c, d] = [edges[b], edges[b + 1], edges[b + 2]];
    const from = Math.ceil(a);
    const w = new Float64Array(Math.max(1, Math.floor(d) - from + 1));
    for (let k = from; k <= Math.floor(d); k++) w[k - from] = k <= c ? (k - a) / (c - a) : (d - k) / (d - c);
    return { from, w };
  });
}
