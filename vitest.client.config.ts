import { defineConfig } from "vitest/config";

// Plain Node tests of the SDK and CLI (client/) against scripted local servers, and of the packed tarball.
export default defineConfig({
  test: {
    include: ["test/client/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
