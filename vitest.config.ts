import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Every test suite, one vitest project each: `npx vitest run --project <name> [file]`. scripts/test.sh runs them
// one after the other; so does a bare `vitest run` (sequence.groupOrder). No project extends the root.

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

/**
 * The packages the Worker and its tests import, pre-bundled once per run (vitest's dependency optimizer): each
 * test file starts its own workerd and loads the whole Worker, and zod, drizzle-orm, jose and hono are 300 modules
 * as published but 25 bundles. Every entry point the code imports must be listed (a subpath left out would load
 * a second copy of its package beside the bundle); hono's JSX runtime is never bundled (vitest keeps it apart).
 */
const WORKER_DEPENDENCIES = [
  "@cloudflare/containers",
  "@hono/zod-openapi",
  "aws4fetch",
  "drizzle-orm",
  "drizzle-orm/d1",
  "drizzle-orm/sqlite-core",
  "fast-check",
  "hono",
  "hono/body-limit",
  "hono/cookie",
  "hono/factory",
  "hono/html",
  "hono/jwt",
  "hono/utils/http-status",
  "ipaddr.js",
  "jose",
  "zod",
];

/**
 * The Node suites (renderer, client, scripts): a process per file, one file per core. Their files spend much of
 * their time waiting (ffmpeg and npm children, local servers, timers); vitest's default leaves one core out,
 * which on 2 cores is one file at a time.
 */
const NODE_POOL = { pool: "forks", maxWorkers: "100%" } as const;

const isLateQueueWork = (error: { name?: string; message?: string }) =>
  error.name === "EnvironmentTeardownError" && (error.message ?? "").startsWith("[vitest-worker]: Closing rpc while");

// Worker integration tests inside workerd: real local D1, Durable Objects, Queues and R2 (Miniflare).
async function workersProject() {
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
            // suite: RENDERER_URL names the stub above (never a real address, never a local stack that may be
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
      name: "workers",
      sequence: { groupOrder: 0 },
      include: ["test/worker/**/*.test.ts"],
      setupFiles: ["./test/worker/setup.ts"],
      // Each file has its own workerd (its own storage): one file per core, so a core is never idle while a file
      // starts its workerd (vitest's default leaves one core out: one file at a time on a 2-core machine).
      maxWorkers: "100%",
      deps: { optimizer: { ssr: { enabled: true, include: WORKER_DEPENDENCIES } } },
    },
  };
}

export default defineConfig(async () => ({
  test: {
    // The Worker's own queue consumer keeps dispatching the jobs a file created (to the stub renderer) after the
    // file's last test; when the file's environment closes under it, vitest reports that late work as an
    // unhandled EnvironmentTeardownError. It happens after every assertion, so only that error is ignored. Vitest
    // reads this option from the root config only (a project's own is silently unused).
    onUnhandledError: (error: { name?: string; message?: string }) => !isLateQueueWork(error),
    projects: [
      await workersProject(),
      {
        // Plain Node tests of the renderer (container/) and of the packages (packages/*/test): fetcher, image
        // rules, face analysis, lip-sync, encoding, the face rig and the motion model.
        test: {
          name: "renderer",
          sequence: { groupOrder: 1 },
          include: ["test/renderer/**/*.test.ts", "packages/*/test/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          ...NODE_POOL,
        },
      },
      {
        // Plain Node tests of the SDK and CLI (client/) against scripted local servers, and of the packed tarball.
        test: {
          name: "client",
          sequence: { groupOrder: 2 },
          include: ["test/client/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 120_000,
          ...NODE_POOL,
        },
      },
      {
        // Plain Node tests of the operator scripts (scripts/): Cloudflare setup against a fake wrangler.
        test: {
          name: "scripts",
          sequence: { groupOrder: 3 },
          include: ["test/scripts/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          ...NODE_POOL,
        },
      },
      {
        // End-to-end tests over real HTTP: the global setup starts the whole local stack (wrangler dev + renderer)
        // on its own ports and state directory, plus a local media server that the stack's allowlist admits.
        test: {
          name: "e2e",
          sequence: { groupOrder: 4 },
          include: ["test/e2e/**/*.test.ts"],
          // Need three renderer instances: their own stack (the e2e-scale project).
          exclude: ["test/e2e/renderer-scale.test.ts", "test/e2e/segments.test.ts"],
          environment: "node",
          globalSetup: ["./test/e2e/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        // The renderer pool and split renders over real HTTP: the e2e stack with three renderer processes as three
        // instances (test/e2e/global-setup-scale.ts). Its own project, so every other e2e test keeps its one-renderer stack.
        test: {
          name: "e2e-scale",
          sequence: { groupOrder: 5 },
          include: ["test/e2e/renderer-scale.test.ts", "test/e2e/segments.test.ts"],
          environment: "node",
          globalSetup: ["./test/e2e/global-setup-scale.ts"],
          testTimeout: 300_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
}));
