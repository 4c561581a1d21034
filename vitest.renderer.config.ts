import { defineConfig } from "vitest/config";

// Plain Node tests of the renderer (container/): fetcher, image rules, face analysis, lip-sync, encoding.
export default defineConfig({
  test: {
    include: ["test/renderer/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
