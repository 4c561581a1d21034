"""Lines up the hidden units of one set of viseme weights with another's (weight matching, as in Ainsworth et al.,
"Git Re-Basin"): the same network with its hidden units reordered, so that blend.ts can interpolate two sets
trained apart (independent runs order their units arbitrarily; a run fine-tuned from the other needs no matching).
Needs NumPy and SciPy.

  python3 scripts/speech/match-units.py reference.ts other.ts out.ts
"""

import base64
import re
import sys

import numpy as np
from scipy.optimize import linear_sum_assignment


def load(path: str):
    text = open(path).read()
    layers = []
    pattern = r'"?inputs"?:\s*(\d+),\s*"?outputs"?:\s*(\d+),\s*"?base64"?:\s*"([^"]+)"'
    for n, m, b64 in re.findall(pattern, text):
        n, m = int(n), int(m)
        p = np.frombuffer(base64.b64decode(b64), dtype="<f4").astype(np.float64)
        layers.append((p[: n * m].reshape(m, n).copy(), p[n * m :].copy()))
    return layers


def save(path: str, layers, note: str) -> None:
    stored = []
    for w, b in layers:
        p = np.concatenate([w.ravel(), b]).astype("<f4")
        stored.append(f' {{\n  "inputs": {w.shape[1]},\n  "outputs": {w.shape[0]},\n  "base64": "{base64.b64encode(p.tobytes()).decode()}"\n }}')
    body = ",\n".join(stored)
    open(path, "w").write(
        f"// {note}; do not edit.\n"
        'import type { StoredLayer } from "./viseme-net";\n\n'
        f"export const VISEME_LAYERS: StoredLayer[] = [\n{body}\n];\n"
    )


def permuted(layers, perms):
    out = []
    for k, (w, b) in enumerate(layers):
        rows = perms[k] if k < len(perms) else np.arange(w.shape[0])
        cols = perms[k - 1] if k > 0 else np.arange(w.shape[1])
        out.append((w[rows][:, cols], b[rows]))
    return out


def main(ref_path: str, other_path: str, out_path: str) -> None:
    a, b = load(ref_path), load(other_path)
    hidden = len(a) - 1
    perms = [np.arange(a[k][0].shape[0]) for k in range(hidden)]
    rng = np.random.default_rng(0)
    for _ in range(50):
        changed = False
        for k in rng.permutation(hidden):
            # How alike A's unit i and B's unit j are: incoming weights and bias, then outgoing weights.
            cols = perms[k - 1] if k > 0 else np.arange(b[k][0].shape[1])
            score = a[k][0] @ b[k][0][:, cols].T + np.outer(a[k][1], b[k][1])
            rows = perms[k + 1] if k + 1 < hidden else np.arange(b[k + 1][0].shape[0])
            score += a[k + 1][0].T @ b[k + 1][0][rows]
            _, best = linear_sum_assignment(score, maximize=True)
            if not np.array_equal(best, perms[k]):
                perms[k], changed = best, True
        if not changed:
            break
    matched = permuted(b, perms)
    for k, ((wa, ba), (wm, bm)) in enumerate(zip(a, matched)):
        r = np.corrcoef(np.concatenate([wa.ravel(), ba]), np.concatenate([wm.ravel(), bm]))[0, 1]
        print(f"layer {k}: correlation after matching {r:.3f}")
    save(out_path, matched, f"{other_path} with its hidden units lined up with {ref_path} (match-units.py)")


if __name__ == "__main__":
    main(*sys.argv[1:4])
