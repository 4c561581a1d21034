#!/usr/bin/env node
// The `avatar-video` command. Installed from a tarball or a registry it runs the compiled CLI (dist/). In this
// repository's workspace, where `npx avatar-video` finds it after `npm ci` with no build, it runs the
// TypeScript source through tsx, so it is never a stale build.
import { existsSync } from "node:fs";

const source = new URL("../src/cli/main.ts", import.meta.url);
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else {
  await import("../dist/cli/main.js");
}
