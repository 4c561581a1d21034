// AssemblyScript source of viseme-dense.wasm (rebuild: scripts/build-wasm.sh). Not part of the TypeScript build.
//
// One dense layer of the viseme classifier (viseme-net.ts), y = W·x + b (ReLU if asked), with wasm SIMD.
// It gives the JS forward pass's numbers: the weights are stored as f64 and the input is widened to f64
// once (`wide`), so every product is exact and the sums run in f64, and the outputs are rounded to f32 as
// the JS activations (Float32Array) are. Layout: W row by row (n per row), then the m biases, all f64;
// x and y f32. n is a multiple of 4 (inputs padded with zeros); pointers are byte offsets.

export function dense(w: usize, x: usize, wide: usize, y: usize, n: i32, m: i32, relu: i32): void {
  for (let i = 0; i < n; i += 2)
    v128.store(wide + (<usize>i << 3), f64x2.promote_low_f32x4(v128.load64_zero(x + (<usize>i << 2))));
  const bias = w + (<usize>(n * m) << 3);
  for (let o = 0; o < m; o++) {
    const row = w + (<usize>(o * n) << 3);
    let a = f64x2.splat(0);
    let b = f64x2.splat(0);
    for (let i = 0; i < n; i += 4) {
      const at = <usize>i << 3;
      a = f64x2.add(a, f64x2.mul(v128.load(row + at), v128.load(wide + at)));
      b = f64x2.add(b, f64x2.mul(v128.load(row + at + 16), v128.load(wide + at + 16)));
    }
    const t = f64x2.add(a, b);
    const s: f64 = load<f64>(bias + (<usize>o << 3)) + (f64x2.extract_lane(t, 0) + f64x2.extract_lane(t, 1));
    store<f32>(y + (<usize>o << 2), <f32>(relu && s < 0 ? 0 : s));
  }
}
