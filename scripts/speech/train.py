"""The inner loop of train.ts with NumPy (`train.ts --numpy`): the same network, loss and optimiser on the
frames train.ts prepared, in batches through BLAS — several times faster than train.ts's own per-frame loop
on this machine. Reads and writes the files of a work folder (train.ts writes them and reads the result):

  config.json   sizes, epochs, lr, sample, seed, batch, context offsets, the silent frame, mu, sd, class weights
  values.f32 labels.i8 from.i32 to.i32 held.u8 gain.f32   per frame, as train.ts's Frames
  init-K.f32    (optional) layer K's params, outputs × inputs weights then the biases, scaled inputs
  out-K.f32     the trained params of layer K, same layout
"""

import json
import sys

import numpy as np


def main(work: str) -> None:
    cfg = json.load(open(f"{work}/config.json"))
    nv = cfg["frameValues"]
    ctx = np.array(cfg["context"], dtype=np.int64)
    mu = np.array(cfg["mu"], dtype=np.float32)
    sd = np.array(cfg["sd"], dtype=np.float32)
    values = (np.fromfile(f"{work}/values.f32", dtype=np.float32).reshape(-1, nv) - mu) / sd
    silent = (np.array(cfg["silent"], dtype=np.float32) - mu) / sd
    labels = np.fromfile(f"{work}/labels.i8", dtype=np.int8).astype(np.int64)
    first = np.fromfile(f"{work}/from.i32", dtype=np.int32)
    last = np.fromfile(f"{work}/to.i32", dtype=np.int32)
    held = np.fromfile(f"{work}/held.u8", dtype=np.uint8)
    gain = np.fromfile(f"{work}/gain.f32", dtype=np.float32)
    weight = np.array(cfg["classWeights"], dtype=np.float32)
    sizes = cfg["sizes"]
    rng = np.random.default_rng(cfg["seed"])
    train = np.flatnonzero((labels >= 0) & (held == 0))
    hold = np.flatnonzero((labels >= 0) & (held == 1))

    def inputs(idx: np.ndarray) -> np.ndarray:
        j = idx[:, None] + ctx[None, :]
        inside = (j >= first[idx, None]) & (j < last[idx, None])
        x = values[np.clip(j, 0, len(values) - 1)]
        x[~inside] = silent
        return x.reshape(len(idx), -1)

    layers = []
    for k in range(len(sizes) - 1):
        n, m = sizes[k], sizes[k + 1]
        try:
            p = np.fromfile(f"{work}/init-{k}.f32", dtype=np.float32)
            w, b = p[: m * n].reshape(m, n).copy(), p[m * n :].copy()
        except FileNotFoundError:
            w = (rng.standard_normal((m, n)) * np.sqrt(2 / n)).astype(np.float32)
            b = np.zeros(m, dtype=np.float32)
        layers.append([w, b])
    moments = [[np.zeros_like(a) for a in l] + [np.zeros_like(a) for a in l] for l in layers]

    def forward(x: np.ndarray):
        acts = [x]
        for k, (w, b) in enumerate(layers):
            z = acts[-1] @ w.T + b
            acts.append(np.maximum(z, 0) if k < len(layers) - 1 else z)
        z = acts[-1] - acts[-1].max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        return acts, p

    step = 0
    batch, epochs = cfg["batch"], cfg["epochs"]
    for e in range(epochs):
        lr = cfg["lr"] * 0.5 * (1 + np.cos(np.pi * e / epochs))
        order = rng.permutation(train)[: int(round(len(train) * cfg["sample"]))]
        total = 0.0
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            y = labels[idx]
            acts, p = forward(inputs(idx))
            wy = weight[y] * gain[idx]
            total += float(-(wy * np.log(p[np.arange(len(idx)), y] + 1e-9)).sum())
            d = p * wy[:, None]
            d[np.arange(len(idx)), y] -= wy
            d /= len(idx)
            step += 1
            for k in range(len(layers) - 1, -1, -1):
                w, b = layers[k]
                gw = d.T @ acts[k] + 1e-5 * w
                gb = d.sum(axis=0)
                if k > 0:
                    d = (d @ w) * (acts[k] > 0)
                for a, g, mo, ve in ((w, gw, moments[k][0], moments[k][2]), (b, gb, moments[k][1], moments[k][3])):
                    mo *= 0.9
                    mo += 0.1 * g
                    ve *= 0.999
                    ve += 0.001 * g * g
                    a -= lr * (mo / (1 - 0.9**step)) / (np.sqrt(ve / (1 - 0.999**step)) + 1e-8)
        conf = np.zeros((len(weight), len(weight)), dtype=np.int64)
        for s in range(0, len(hold), 8192):
            idx = hold[s : s + 8192]
            np.add.at(conf, (labels[idx], forward(inputs(idx))[1].argmax(axis=1)), 1)
        recall = ", ".join(f"{cfg['names'][k]} {round(100 * conf[k, k] / max(1, conf[k].sum()))}" for k in range(len(conf)))
        acc = 100 * np.trace(conf) / max(1, conf.sum())
        print(f"epoch {e + 1}: loss {total / len(order):.3f}, held-out accuracy {acc:.1f} %; recall {recall}", flush=True)
    # As train.ts's own loop: the last epoch's held-out confusions (rows = true class).
    print("confusions (rows = true class):")
    for k, row in enumerate(conf):
        print(f"{cfg['names'][k]:<7} " + "".join(f"{n:>7}" for n in row), flush=True)
    for k, (w, b) in enumerate(layers):
        np.concatenate([w.ravel(), b]).astype(np.float32).tofile(f"{work}/out-{k}.f32")


if __name__ == "__main__":
    main(sys.argv[1])
