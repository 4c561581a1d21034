import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { BUNDLE_MODULE, bundleMotionClient } from "../../../scripts/build-motion-client";

// The Worker serves a committed bundle of packages/motion-client (which includes the renderer's deformation):
// it must be what the sources build to today, or the live Avatar would drift from rendered videos.
it("the served motion-client bundle is up to date (npm run build:motion-client)", async () => {
  expect(
    readFileSync(BUNDLE_MODULE, "utf8") === (await bundleMotionClient()),
    "stale bundle: run npm run build:motion-client",
  ).toBe(true);
});
