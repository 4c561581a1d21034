/**
 * Per eye: the vertices a blink moves, each along the eye's normal (nx, ny: towards the lower lid).
 * Linear movers go `lin × c` px at closure amount c. Opening movers (`clamped`) follow the lid edge
 * E = um + (meet − keep − um)·c: the photo's lid-edge band [um, um + edge] rides on it rigidly, the eye below
 * that is swallowed as the edge passes and the rest is pressed up by the lower lid (lm → lm − rise·c); at
 * c = 1 the band's first `keep` px (lid margin and lashes) lie just above the meeting line, everything
 * else on it.
 */
export interface EyeModel {
  nx: number;
  ny: number;
  idx: Int32Array;
  lin: Float32Array;
  clamped: Uint8Array;
  rest: Float32Array;
  um: Float32Array;
  meet: Float32Array;
  lm: Float32Array;
  rise: Float32Array;
  edge: Float32Array;
  keep: Float32Array;
  /**
   * For a held lid shape (an expression, eyelids.ts `LidShape`): per mover, the opening (lm − um, px) of its
   * column; for linear movers the share of the upper lid's movement they follow (> 0) or, negated, of the
   * lower lid's (< 0); for opening movers the lower rim band [lm − low, lm] that rides with the lower lid.
   */
  open: Float32Array;
  follow: Float32Array;
  low: Float32Array;
  /** FaceMesh rows of this eye (outer corner first), for callers that look at the lids. */
  upper0: number[];
  lower0: number[];
  upper2: number[];
}
