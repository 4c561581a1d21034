/**
 * Compiles the renderer (container/src) to plain JavaScript in container/dist, so the image runs `node` on it
 * with no TypeScript transpiler at run time (container/Dockerfile; docs/renderer.md "Running it"). esbuild
 * bundles each entry — the server, the paint worker thread it starts beside itself, the build's selfcheck —
 * with the workspace packages (@avatar-video/*, TypeScript sources) inlined; every other package stays an
 * import from node_modules (native sharp, the face models that locate their files from there). The warp
 * kernel's WebAssembly is copied beside them (read relative to the module). `npm run build:renderer`.
 */
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const OUT = "container/dist";

/** Bare imports stay imports of node_modules, except the workspace packages, whose sources are bundled. */
const dependenciesFromNodeModules: Plugin = {
  name: "dependencies-from-node-modules",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@avatar-video/") ? undefined : { path: args.path, external: true },
    );
  },
};

rmSync(`${root}${OUT}`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    server: "container/src/server.ts",
    "paint-worker": "container/src/paint/paint-worker.ts",
    selfcheck: "container/src/runs/selfcheck.ts",
  },
  outdir: OUT,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  sourcemap: true, // stack traces in the logs name the TypeScript lines
  legalComments: "none",
  plugins: [dependenciesFromNodeModules],
  logLevel: "warning",
});
mkdirSync(`${root}${OUT}`, { recursive: true });
copyFileSync(`${root}container/src/paint/wasm/warp.wasm`, `${root}${OUT}/warp.wasm`);
console.log(`wrote ${OUT}/server.js, paint-worker.js, selfcheck.js, warp.wasm`);
