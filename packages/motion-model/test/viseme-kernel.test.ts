/**
 * The viseme classifier's wasm kernel (packages/motion-model/src/viseme-kernel.ts) is the same model as its JS
 * forward pass (viseme-net.ts): the same probabilities on speech, bit for bit; and the bytes Node compiles are
 * the module the Worker imports.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeFrameAnalyzer } from "../src/lipsync-frame";
import { VISEME_DENSE_WASM } from "../src/viseme-dense-wasm";
import { frameValues, INPUTS, stackContext } from "../src/viseme-input";
import { makeVisemeClassifier, visemeKernel } from "../src/viseme-kernel";
import { decodeLayer, makeClassifier } from "../src/viseme-net";
import { VISEME_LAYERS } from "../src/viseme-weights";
import { speechLike, synthSpeech } from "../../../test/renderer/helpers/media-audio";

describe("viseme classifier kernel", () => {
  it("gives the JS forward pass's probabilities exactly, frame by frame, on 20 s of speech", () => {
    expect(visemeKernel()).toBe("wasm");
    const pcm = synthSpeech(speechLike(20, 5), 16_000);
    const analyze = makeFrameAnalyzer();
    const values = Array.from({ length: Math.floor(pcm.length / 160) }, (_, i) =>
      frameValues(analyze(pcm, 0, i * 160 + 80), -20),
    );
    const layers = VISEME_LAYERS.map(decodeLayer);
    const [wasm, js] = [makeVisemeClassifier(layers), makeClassifier(layers)];
    const input = new Float32Array(INPUTS);
    let confident = 0;
    for (let i = 0; i < values.length; i++) {
      stackContext((j) => values[j], i, input);
      const p = Array.from(wasm(input));
      expect(p).toEqual(Array.from(js(input)));
      if (Math.max(...p) > 0.9) confident++;
    }
    // Not a vacuous match: the classifier is sure of a class in many frames.
    expect(confident).toBeGreaterThan(values.length / 10);
  });

  it("Node compiles the bytes of the module the Worker imports", () => {
    const file = readFileSync(new URL("../wasm/viseme-dense.wasm", import.meta.url));
    expect(Buffer.from(VISEME_DENSE_WASM, "base64").equals(file)).toBe(true);
  });
});
