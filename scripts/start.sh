#!/usr/bin/env bash
# `npm start`: install what is missing (packages; Debian's ffmpeg when root), migrate local D1, start the Worker
# (wrangler dev) and the renderer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/lib/ensure-ffmpeg.sh
export PATH="$PWD/node_modules/.bin:$PATH"
export WRANGLER_SEND_METRICS=false
exec tsx scripts/start.ts
