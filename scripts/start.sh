#!/usr/bin/env bash
# `npm start`: install what is missing, migrate local D1, start the Worker (wrangler dev) and the renderer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
export PATH="$PWD/node_modules/.bin:$PATH"
export WRANGLER_SEND_METRICS=false
exec tsx scripts/start.ts
