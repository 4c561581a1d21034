import { defineConfig } from "vitest/config";

// The renderer pool over real HTTP: the e2e stack with three renderer processes as three instances
// (test/e2e/global-setup-scale.ts). Its own suite, so every other e2e test keeps its one-renderer stack.
export default defineConfig({
  test: {
    include: ["test/e2e/renderer-scale.test.ts"],
    environment: "node",
    globalSetup: ["./test/e2e/global-setup-scale.ts"],
    testTimeout: 300_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
