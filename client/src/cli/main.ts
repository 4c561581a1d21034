#!/usr/bin/env node
// `avatar-video <command>`: the Avatar Video Open API from a terminal or a script (see `avatar-video --help`).
import { run } from "./run.js";

process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
