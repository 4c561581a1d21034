import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Worker integration tests inside workerd: real local D1, Durable Objects, Queues and R2 (Miniflare).
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            ADMIN_TOKEN: "test-admin-token",
            SIGNING_SECRET: "test-signing-secret",
            RENDERER_TOKEN: "test-renderer-token",
            // Nothing listens here: the test env's own queue consumer never reaches a renderer of a local
            // stack that may be running; pipeline tests inject a fake renderer (test/worker/pipeline-helpers.ts).
            RENDERER_URL: "http://127.0.0.1:9",
            // Test-only Ed25519 key pair (generated for the test suite, signs nothing real).
            SESSION_TOKEN_PRIVATE_KEY:
              "MC4CAQAwBQYDK2VwBCIEIKFT7FOvMeOUu+VlJ3C4KA3dliPaQFOFE2udB3OoQ9nX",
            SESSION_TOKEN_PUBLIC_KEY: "MCowBQYDK2VwAyEALn/BA7lOW62o7Il4JYQ8Kv9vAeAu+jmF7XFKnsY5BBo=",
          },
        },
      }),
    ],
    test: {
      include: ["test/worker/**/*.test.ts"],
      setupFiles: ["./test/worker/setup.ts"],
    },
  };
});
