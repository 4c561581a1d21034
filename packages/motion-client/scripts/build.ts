/**
 * `npm run build` (and `npm pack`): dist/index.js, one ES module for browsers with the workspace packages it
 * uses bundled in, its source map, and dist/index.d.ts, its types with theirs inlined (tsconfig.build.json reads
 * them from source): the published package depends on nothing.
 */
import { rmSync, writeFileSync } from "node:fs";
import { generateDtsBundle } from "dts-bundle-generator";
import { bundleMotionClient } from "./bundle";

const dir = new URL("..", import.meta.url).pathname;

rmSync(`${dir}dist`, { recursive: true, force: true });
await bundleMotionClient({ outfile: "dist/index.js", sourcemap: true, logLevel: "warning" });
const [types] = generateDtsBundle(
  [{ filePath: `${dir}src/index.ts`, output: { noBanner: true, exportReferencedTypes: false } }],
  { preferredConfigPath: `${dir}tsconfig.build.json` },
);
writeFileSync(`${dir}dist/index.d.ts`, types!);
console.log("built packages/motion-client/dist: index.js, index.js.map, index.d.ts");
