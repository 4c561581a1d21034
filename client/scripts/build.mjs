// `npm run build`: dist/ (ESM, the CLI too) and dist/cjs/ (CommonJS, marked so by its own package.json).
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";

const dir = new URL("..", import.meta.url);
rmSync(new URL("dist", dir), { recursive: true, force: true });
for (const project of ["tsconfig.build.json", "tsconfig.cjs.json"])
  execFileSync("tsc", ["-p", project], { cwd: dir, stdio: "inherit" });
writeFileSync(new URL("dist/cjs/package.json", dir), `${JSON.stringify({ type: "commonjs" })}\n`);
