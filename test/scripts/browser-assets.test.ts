import { describe, expect, it } from "vitest";
import { staleAssets } from "../../scripts/build-assets";

describe("browser assets (scripts/build-assets.ts)", () => {
  it("static/ is built from its sources: run npm run build:assets", async () => {
    expect(await staleAssets()).toEqual([]);
  });
});
