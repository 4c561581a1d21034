import { visemeKernel } from "@avatar-video/motion-model";
import { describe, expect, it } from "vitest";
import "../../../workers/motion/session-object";
import { makeFrameAnalyzer } from "../../../packages/motion-model/src/lipsync-frame";

describe("the live analysis in the Worker", () => {
  it("classifies visemes with the wasm kernel, handed over as a module (Workers compile no code at run time)", () => {
    expect(visemeKernel()).toBe("wasm");
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
});
