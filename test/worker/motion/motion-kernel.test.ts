import { analysisKernel } from "@avatar-video/motion-model";
import { describe, expect, it } from "vitest";
import "../../../workers/motion/session-object";
import { makeFrameAnalyzer } from "../../../packages/motion-model/src/lipsync-frame";
import { StreamResampler } from "../../../packages/motion-model/src/resample";

describe("the live analysis in the Worker", () => {
  it("classifies visemes with the wasm kernel, handed over as a module (Workers compile no code at run time)", () => {
    expect(analysisKernel()).toBe("wasm");
  });

  it("takes frame spectra with the wasm kernel too, with the JS arithmetic's numbers", () => {
    const [wasm, js] = [makeFrameAnalyzer(), makeFrameAnalyzer({ arithmetic: "js" })];
    expect(wasm.arithmetic).toBe("wasm");
    // A vowel-like tone complex with a little noise, 1 s.
    let seed = 1;
    const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.02;
    const pcm = Float32Array.from({ length: 16_000 }, (_, i) =>
      [220, 440, 660, 2400].reduce((s, hz, k) => s + Math.sin((2 * Math.PI * hz * i) / 16_000) / (k + 2), noise()),
    );
    for (let i = 0; i < 100; i++) {
      const [a, b] = [wasm(pcm, 0, i * 160 + 80), js(pcm, 0, i * 160 + 80)];
      expect([a.db, a.low, a.mid, a.hi, a.vhi, ...a.mel]).toEqual([b.db, b.low, b.mid, b.hi, b.vhi, ...b.mel]);
    }
  });

  it("resamples a browser's 48 and 44.1 kHz with the wasm kernel, with the JS arithmetic's numbers", () => {
    for (const rate of [48_000, 44_100]) {
      const x = Float32Array.from({ length: rate }, (_, i) => Math.sin(i * 0.05) * 0.5 + Math.sin(i * 0.71) * 0.2);
      const [wasm, js] = [new StreamResampler(rate, 16_000), new StreamResampler(rate, 16_000, { arithmetic: "js" })];
      expect(wasm.arithmetic).toBe("wasm");
      const [a, b] = [wasm.push(x), js.push(x)];
      expect(a.length).toBeGreaterThan(15_000);
      expect(Array.from(a)).toEqual(Array.from(b));
    }
  });
});
