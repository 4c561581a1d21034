#!/usr/bin/env bash
# `npm test`: every test. Worker integration tests (workerd: real local D1/DO/Queues/R2), renderer tests
# (plain Node), then end-to-end tests over real HTTP against a local stack started by the e2e setup.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
export PATH="$PWD/node_modules/.bin:$PATH" WRANGLER_SEND_METRICS=false
rm -rf .local/test-results && mkdir -p .local/test-results
status=0
echo "── typecheck ──"
tsc --noEmit -p . && tsc --noEmit -p container || status=1
for suite in workers renderer e2e; do
  echo "── ${suite} tests ──"
  vitest run -c "vitest.${suite}.config.ts" --reporter=default --reporter=json \
    --outputFile.json=".local/test-results/${suite}.json" "$@" || status=1
done
# One closing line over all suites, in the plain "N passed, N failed" form CI reads.
tsx scripts/lib/summarize-tests.ts .local/test-results/*.json || status=1
exit $status
