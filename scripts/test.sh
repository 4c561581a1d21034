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

# run NAME COMMAND…: runs a step quietly, keeping its output, exit status and seconds in $logs.
run() {
  local name=$1 started=$SECONDS
  shift
  "$@" >"$logs/$name.log" 2>&1
  echo "$? $((SECONDS - started))" >"$logs/$name.status"
}

# report NAME…: prints "✓ NAME (Ns)" for each step, or the step's output and "✗ NAME".
report() {
  local name code seconds
  for name; do
    read -r code seconds <"$logs/$name.status"
    if [ "$code" = 0 ]; then
      echo "✓ $name (${seconds}s)"
    else
      cat "$logs/$name.log"
      echo "✗ $name (${seconds}s; full output in $logs/$name.log)"
      status=1
    fi
  done
}

# step NAME COMMAND…: runs a step and prints its line.
step() {
  run "$@"
  report "$1"
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

# The static checks side by side, their lines printed in this order once all are done: tsc is single-threaded,
# so its six runs go two at a time (largest first), and the other checks run in a lane of their own beside them.
typecheck_projects=(. tsconfig.scripts.json container client tsconfig.browser.json packages/motion-client)
run typecheck bash -c 'printf "%s\n" "$@" | xargs -P 2 -I {} tsc --noEmit -p {}' typecheck "${typecheck_projects[@]}" &
(
  # The linter and the formatter are configured in biome.json.
  run lint biome lint .
  # Docs are reference: ≤ 400 lines, no commit hashes (history lives in docs/history/ and git).
  run docs tsx scripts/check-docs.ts
  # Commit subjects: ≤ 72 characters since the rule was enforced.
  run commit-subjects bash scripts/check-commit-subjects.sh
  run format biome format .
  # worker-configuration.d.ts (the Worker's Env) must match wrangler.toml and .dev.vars.example.
  run worker-types npm run --silent types:worker -- --check
  # No import cycles anywhere (tests included); the Worker's wings meet only through their public.ts
  # (.dependency-cruiser.cjs).
  run import-rules depcruise --config .dependency-cruiser.cjs workers container/src packages client/src scripts test
  # A deploy names its public origin (PUBLIC_BASE_URL); without one the check must fail (issue 24, point 8).
  run deploy-check env PUBLIC_BASE_URL=https://avatar-video.example.com bash scripts/deploy-check.sh
  run deploy-check-needs-base-url bash -c '! out=$(PUBLIC_BASE_URL= bash scripts/deploy-check.sh 2>&1) && grep -q "PUBLIC_BASE_URL would ship as \"\"" <<<"$out"'
) &
wait
report typecheck lint docs commit-subjects format worker-types import-rules deploy-check deploy-check-needs-base-url

# One vitest project per suite (vitest.config.ts), one after the other: each prints its own line.
for suite in workers renderer client scripts e2e e2e-scale; do
  step "$suite-tests" vitest run --project "$suite" --reporter=dot --reporter=json \
    --outputFile.json="$logs/${suite}.json" --silent=passed-only "$@"
  tsx scripts/lib/summarize-tests.ts "$logs/${suite}.json" | sed "s/^/  ${suite}: /"
done
# One closing line over all suites, in the plain "N passed, N failed" form CI reads.
tsx scripts/lib/summarize-tests.ts "$logs"/*.json || status=1
exit $status
