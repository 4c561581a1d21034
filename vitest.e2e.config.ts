import { defineConfig } from "vitest/config";

// End-to-end tests over real HTTP: the global setup starts the whole local stack (wrangler dev + renderer)
// on its own ports and state directory, plus a local media server that the stack's allowlist admits.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    // Needs three renderer instances: its own stack (vitest.e2e-scale.config.ts).
    exclude: ["test/e2e/renderer-scale.test.ts"],
    environment: "node",
    globalSetup: ["./test/e2e/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
