/**
 * The live analysis's wasm module is the same model as its JS arithmetic: the viseme classifier's kernel
 * (viseme-kernel.ts) gives the JS forward pass's probabilities (viseme-net.ts) and the frame spectrum
 * (frame-spectrum.ts) the JS FFT's features, bit for bit on speech; and the bytes Node compiles are the module
 * the Worker imports.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeFrameAnalyzer } from "../src/lipsync-frame";
import { ANALYSIS_KERNEL_WASM } from "../src/analysis-kernel-wasm";
import { frameValues, INPUTS, stackContext } from "../src/viseme-input";
import { makeVisemeClassifier } from "../src/viseme-kernel";
import { decodeLayer, makeClassifier } from "../src/viseme-net";
import { VISEME_LAYERS } from "../src/viseme-weights";
import { analysisKernel } from "../src/wasm-kernel";
import { speechLike, synthSpeech } from "../../../test/renderer/helpers/media-audio";

describe("the analysis's wasm kernels", () => {
  it("give the JS FFT's frame features exactly: loudness, band shares and mel bands, loud, quiet and at the edges", () => {
    expect(analysisKernel()).toBe("wasm");
    const speech = synthSpeech(speechLike(20, 5), 16_000);
    // Speech at three levels (the quiet third below the spectrum's −75 dB floor) and a held window that starts late.
    const pcm = Float32Array.from(speech, (x, i) => x * [1, 0.05, 1e-4][Math.floor((3 * i) / speech.length)]);
    const [wasm, js] = [makeFrameAnalyzer(), makeFrameAnalyzer({ arithmetic: "js" })];
    const features = (f: ReturnType<typeof wasm>) => [f.db, f.low, f.mid, f.hi, f.vhi, ...f.mel];
    let spectra = 0;
    for (const start of [0, 12_345])
      for (let i = -3; i < pcm.length / 160 + 3; i++) {
        const held = pcm.subarray(start);
        const [a, b] = [wasm(held, start, i * 160 + 80), js(held, start, i * 160 + 80)];
        expect(features(a), `frame ${i} from ${start}`).toEqual(features(b));
        if (a.db >= -75) spectra++;
      }
    expect(spectra, "frames with a spectrum").toBeGreaterThan(pcm.length / 320);
  });

  it("give the JS forward pass's probabilities exactly, frame by frame, on 20 s of speech", () => {
    expect(analysisKernel()).toBe("wasm");
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
    const file = readFileSync(new URL("../wasm/analysis-kernel.wasm", import.meta.url));
    expect(Buffer.from(ANALYSIS_KERNEL_WASM, "base64").equals(file)).toBe(true);
  });
});
