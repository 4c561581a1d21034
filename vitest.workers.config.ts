import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Worker integration tests inside workerd: real local D1, Durable Objects, Queues and R2 (Miniflare).

const STUB_RENDERER_HOST = "stub-renderer.test";

// Every outbound fetch of the Worker under test lands in this worker (inside workerd, so it answers as fast as a
// refused connection would) instead of the network: the stub renderer answers "busy", so the job goes back to
// the queue as with a full renderer; its GET /health answers 200 (idle, for GET /health of the Worker);
// anything else is refused. Its POST /checks (Avatar pre-flight) answers by the image URL: "small" →
// face_too_small, "renderer-down" → 503, "bad-answer" → an inconsistent verdict, anything else → acceptable
// (the real check is tested in test/renderer/avatar-check.test.ts and e2e).
const STUB_OUTBOUND = `const FACE = { box: { x: 200, y: 120, width: 58, height: 70 }, widthPx: 58, sharpness: 0.04, yawDeg: 3, pitchDeg: -2, rollDeg: 1 };
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.host === ${JSON.stringify(STUB_RENDERER_HOST)} && url.pathname === "/checks") {
      if (request.headers.get("authorization") !== "Bearer test-renderer-token") return new Response("unauthorized", { status: 401 });
      const { imageUrl } = await request.json();
      if (imageUrl.includes("renderer-down")) return new Response("busy", { status: 503 });
      if (imageUrl.includes("bad-answer")) return Response.json({ acceptable: false, code: "invalid_image", reason: "face_blurred", detail: "x", face: null });
      if (imageUrl.includes("small")) {
        return Response.json({ acceptable: false, code: "image_quality_rejected", reason: "face_too_small", detail: "The face is 58 px wide; at least 64 px is needed. Use a closer or larger photo.", face: FACE });
      }
      return Response.json({ acceptable: true, code: null, reason: null, detail: "The image meets every Avatar image rule.", face: { ...FACE, widthPx: 220, box: { ...FACE.box, width: 220 } } });
    }
    if (url.host === ${JSON.stringify(STUB_RENDERER_HOST)} && url.pathname === "/health") {
      return Response.json({ ok: true, activeJobs: 0, waitingJobs: 0 });
    }
    // Read the body before answering: workerd reports an unread request body as an uncaught exception.
    await request.arrayBuffer();
    if (url.host === ${JSON.stringify(STUB_RENDERER_HOST)} && url.pathname === "/jobs") {
      return new Response("busy: the Worker test suite runs no renderer", { status: 503 });
    }
    return new Response("no network in the Worker tests: " + request.method + " " + url.origin + url.pathname, { status: 502 });
  },
};`;

const isLateQueueWork = (error: { name?: string; message?: string }) =>
  error.name === "EnvironmentTeardownError" && (error.message ?? "").startsWith("[vitest-worker]: Closing rpc while");

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
            // The dev values of .dev.vars (scripts/lib/dev-vars.ts): wrangler.toml ships none of them.
            ENVIRONMENT: "development",
            SOURCE_ALLOWLIST: "",
            // The test env's own queue consumer dispatches every job the API creates. No renderer runs in this
            // suite: RENDERER_URL names the stub below (never a real address, never a local stack that may be
            // running). Pipeline tests drive the consumer themselves with a fake renderer (pipeline-helpers.ts).
            RENDERER_URL: `http://${STUB_RENDERER_HOST}`,
            // Test-only Ed25519 key pair (generated for the test suite, signs nothing real).
            SESSION_TOKEN_PRIVATE_KEY: "MC4CAQAwBQYDK2VwBCIEIKFT7FOvMeOUu+VlJ3C4KA3dliPaQFOFE2udB3OoQ9nX",
            SESSION_TOKEN_PUBLIC_KEY: "MCowBQYDK2VwAyEALn/BA7lOW62o7Il4JYQ8Kv9vAeAu+jmF7XFKnsY5BBo=",
          },
          outboundService: "stub-outbound",
          workers: [{ name: "stub-outbound", modules: true, script: STUB_OUTBOUND, compatibilityDate: "2025-11-01" }],
        },
      }),
    ],
    test: {
      include: ["test/worker/**/*.test.ts"],
      setupFiles: ["./test/worker/setup.ts"],
      // The Worker's own queue consumer keeps dispatching the jobs a file created (to the stub renderer) after
      // the file's last test; when the file's environment closes under it, vitest reports that late work as
      // an unhandled EnvironmentTeardownError. It happens after every assertion, so only that error is ignored.
      onUnhandledError: (error: { name?: string; message?: string }) => !isLateQueueWork(error),
    },
  };
});
