/**
 * Bundles the browser code of the Worker's pages with esbuild into static/, the Workers Static Assets of
 * wrangler.toml's [assets], at the paths the Worker serves them: the console's script and style sheet
 * (workers/console/assets → /console/assets/), the live page's (workers/motion/assets → /console/live/) and
 * the API reference's start script (workers/api/openapi/assets → /reference/; the Scalar release beside it is
 * vendored by scripts/vendor-scalar.ts).
 *
 * The output is committed, like the motion-client bundle, so `wrangler dev`, `wrangler deploy` and the Worker
 * tests need no build step; test/scripts/browser-assets.test.ts fails when it is stale. `--check` only reports.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build, type BuildOptions, type Plugin } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The live page loads motion-client from the Worker (live-page.ts serves the committed bundle), not bundled in. */
const motionClientFromWorker: Plugin = {
  name: "motion-client-from-worker",
  setup(b) {
    b.onResolve({ filter: /^@avatar-video\/motion-client$/ }, () => ({
      path: "/console/live/motion-client.js",
      external: true,
    }));
  },
};

/** Each output file (relative to the repository), its source and how it is bundled. */
const BUNDLES: { out: string; entry: string; options: BuildOptions }[] = [
  { out: "static/console/assets/console.js", entry: "workers/console/assets/console.ts", options: { format: "iife" } },
  { out: "static/console/assets/console.css", entry: "workers/console/assets/console.css", options: {} },
  {
    out: "static/console/live/live.js",
    entry: "workers/motion/assets/live.ts",
    options: { format: "esm", plugins: [motionClientFromWorker] },
  },
  { out: "static/console/live/live.css", entry: "workers/motion/assets/live.css", options: {} },
  {
    out: "static/reference/reference.js",
    entry: "workers/api/openapi/assets/reference.ts",
    options: { format: "iife" },
  },
];

const stamp = (source: string) =>
  `Built by scripts/build-assets.ts from ${source}: do not edit, run npm run build:assets.`;

async function bundle({ entry, options }: (typeof BUNDLES)[number]): Promise<string> {
  const css = entry.endsWith(".css");
  const result = await build({
    absWorkingDir: root, // the path comments in the output do not depend on where the script runs
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    target: "es2022",
    minify: false, // served files stay readable
    legalComments: "none",
    write: false,
    logLevel: "silent",
    ...options,
  });
  const text = result.outputFiles![0]!.text;
  return css ? `/* ${stamp(entry)} */\n${text}` : `// ${stamp(entry)}\n${text}`;
}

/** Every output file, relative to the repository, with its content. */
export async function buildAssets(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const b of BUNDLES) files.set(b.out, await bundle(b));
  return files;
}

/** The output files that differ from what is on disk (missing ones included). */
export async function staleAssets(): Promise<string[]> {
  const stale: string[] = [];
  for (const [path, content] of await buildAssets()) {
    let current: string | undefined;
    try {
      current = readFileSync(`${root}${path}`, "utf8");
    } catch {
      // not built yet
    }
    if (current !== content) stale.push(path);
  }
  return stale;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
  if (values.check) {
    const stale = await staleAssets();
    console.log(
      stale.length === 0 ? "browser assets are up to date" : `stale: ${stale.join(", ")}: run npm run build:assets`,
    );
    process.exit(stale.length === 0 ? 0 : 1);
  }
  for (const [path, content] of await buildAssets()) {
    mkdirSync(dirname(`${root}${path}`), { recursive: true });
    writeFileSync(`${root}${path}`, content);
    console.log(`wrote ${path} (${Math.round(content.length / 1024)} KiB)`);
  }
}
