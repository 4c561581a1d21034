import { visemeKernel } from "@avatar-video/motion-model";
import { describe, expect, it } from "vitest";
import "../../../workers/motion/session-object";

describe("the live analysis in the Worker", () => {
  it("classifies visemes with the wasm kernel, handed over as a module (Workers compile no code at run time)", () => {
    expect(visemeKernel()).toBe("wasm");
  });
});
