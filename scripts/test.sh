#!/usr/bin/env bash
# `npm test`: every check. System tools, typecheck, import cycles, the deploy dry run, then the Worker
# integration tests (workerd: real local D1/DO/Queues/R2), renderer tests (plain Node) and end-to-end tests
# over real HTTP against a local stack started by the e2e setup. Green prints one line per step; red prints
# the failures (and the console output of the failing tests only).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
export PATH="$PWD/node_modules/.bin:$PATH" WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
logs=.local/test-results
rm -rf "$logs" && mkdir -p "$logs"
status=0

# step NAME COMMAND…: runs quietly; prints "✓ NAME (Ns)" or the command's output and "✗ NAME".
step() {
  local name=$1 started=$SECONDS
  shift
  if "$@" >"$logs/$name.log" 2>&1; then
    echo "✓ $name ($((SECONDS - started))s)"
  else
    cat "$logs/$name.log"
    echo "✗ $name ($((SECONDS - started))s; full output in $logs/$name.log)"
    status=1
  fi
}

# Debian's chromium (browser tests) and ffmpeg (the renderer prefers a maintained system build), espeak-ng and
# flite (speech of known words for the mouth-shape tests): CI runs as root.
missing=()
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v espeak-ng >/dev/null || missing+=(espeak-ng)
command -v flite >/dev/null || missing+=(flite)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step system-packages bash -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends ${missing[*]}"
  else
    echo "✗ missing ${missing[*]}: install them (Debian: sudo apt-get install -y ${missing[*]})"
    status=1
  fi
fi

step typecheck bash -c "tsc --noEmit -p . && tsc --noEmit -p tsconfig.scripts.json && tsc --noEmit -p container && tsc --noEmit -p packages/motion-client && tsc --noEmit -p client && tsc --noEmit -p tsconfig.browser.json"
# The linter and the formatter are configured in biome.json.
step lint biome lint .
# Docs are reference: ≤ 400 lines, no commit hashes (history lives in docs/history/ and git).
step docs tsx scripts/check-docs.ts
step format biome format .
# worker-configuration.d.ts (the Worker's Env) must match wrangler.toml and .dev.vars.example.
step worker-types npm run --silent types:worker -- --check
# No import cycles anywhere (tests included); the Worker's wings meet only through their public.ts
# (.dependency-cruiser.cjs).
step import-rules depcruise --config .dependency-cruiser.cjs workers container/src packages client/src scripts test
# A deploy names its public origin (PUBLIC_BASE_URL); without one the check must fail (issue 24, point 8).
step deploy-check env PUBLIC_BASE_URL=https://avatar-video.example.com bash scripts/deploy-check.sh
step deploy-check-needs-base-url bash -c '! out=$(PUBLIC_BASE_URL= bash scripts/deploy-check.sh 2>&1) && grep -q "PUBLIC_BASE_URL would ship as \"\"" <<<"$out"'

# One vitest project per suite (vitest.config.ts), one after the other: each prints its own line.
for suite in workers renderer client scripts e2e e2e-scale; do
  step "$suite-tests" vitest run --project "$suite" --reporter=dot --reporter=json \
    --outputFile.json="$logs/${suite}.json" --silent=passed-only "$@"
  tsx scripts/lib/summarize-tests.ts "$logs/${suite}.json" | sed "s/^/  ${suite}: /"
done
# One closing line over all suites, in the plain "N passed, N failed" form CI reads.
tsx scripts/lib/summarize-tests.ts "$logs"/*.json || status=1
exit $status
