#!/usr/bin/env bash
# Installs the project's packages when they are missing or the lockfile changed since the last install.
# Node 22 comes from the `node` dev dependency (the machine's Node 20 is too old for wrangler/workerd).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  echo "Installing packages (npm install)…" >&2
  npm install --no-audit --no-fund --loglevel=error >&2
  touch "$stamp"
fi
# npm 11 skips install scripts that are not approved: make the shipped ffmpeg binaries executable ourselves.
chmod +x node_modules/@ffmpeg-installer/linux-x64/ffmpeg node_modules/@ffprobe-installer/linux-x64/ffprobe 2>/dev/null || true
