import { defineConfig } from "vitest/config";

// Plain Node tests of the operator scripts (scripts/): Cloudflare setup against a fake wrangler.
export default defineConfig({
  test: {
    include: ["test/scripts/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    pool: "forks",
  },
});
