import { describe, expect, it } from "vitest";
import { staleAssets } from "../../scripts/build-assets";

describe("browser assets (scripts/build-assets.ts)", () => {
  it("static/ and the reference page's style sheet are built from their sources: run npm run build:assets", async () => {
    expect(await staleAssets()).toEqual([]);
  });
});
