/**
 * How motion-client is bundled, for its package (scripts/build.ts: dist/index.js) and for the Worker, which
 * serves it (scripts/build-motion-client.ts at the repository root): one ES module for browsers, with the
 * workspace packages it uses (contract, face-rig, motion-model) bundled in.
 */
import { build, type BuildOptions, type BuildResult, type Plugin } from "esbuild";

const dir = new URL("..", import.meta.url).pathname;
const WORKSPACE_SOURCE = /\/packages\/(contract|face-rig|motion-model)\/src\//;

/**
 * Marks the workspace packages' modules free of side effects, so what motion-client does not use is left out:
 * contract's zod schemas (and zod, ipaddr.js) are for the Worker and the renderer. 530 KB → 55 KB minified.
 */
const workspaceWithoutSideEffects: Plugin = {
  name: "workspace-without-side-effects",
  setup(b) {
    b.onResolve({ filter: /.*/ }, async ({ path, pluginData, ...args }) => {
      if (pluginData === "inner") return undefined;
      const resolved = await b.resolve(path, { ...args, pluginData: "inner" });
      if (resolved.errors.length > 0 || !WORKSPACE_SOURCE.test(resolved.path)) return resolved;
      return { ...resolved, sideEffects: false };
    });
  },
};

/** `options` say where it goes: a file (`outfile`) or, with `write: false`, the result's `outputFiles`. */
export function bundleMotionClient(options: BuildOptions): Promise<BuildResult> {
  return build({
    absWorkingDir: dir,
    entryPoints: ["src/index.ts"],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    legalComments: "none",
    logLevel: "silent",
    plugins: [workspaceWithoutSideEffects],
    ...options,
  });
}
