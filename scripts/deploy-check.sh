#!/usr/bin/env bash
# `npm run deploy:check`: `wrangler deploy --dry-run` on a clean copy of this tree (tracked and new files, none
# of the git-ignored ones: no .dev.vars, no local state), then checks that no local-only value would ship.
# The Containers rollout (an image build) is skipped where no Docker engine runs; DEPLOY_CHECK_CONTAINERS=skip
# forces the skip. PUBLIC_BASE_URL in the environment is passed on as `--var PUBLIC_BASE_URL:<url>` (as a deploy
# would); the check fails unless the value that would ship is an https:// origin. Needs no network beyond npm.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH="$root/node_modules/.bin:$PATH" WRANGLER_SEND_METRICS=false CI=true NO_UPDATE_NOTIFIER=1
work=$(mktemp -d "${TMPDIR:-/tmp}/deploy-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One tar stream, not a cp per file (a fork per file took seconds); deleted files are left out.
mkdir -p "$work/tree"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [ -e "$f" ] && printf '%s\0' "$f"
done | tar --null -T - -cf - | tar -xf - -C "$work/tree"
ln -s "$root/node_modules" "$work/tree/node_modules"

rollout=()
if [ "${DEPLOY_CHECK_CONTAINERS:-}" = skip ] || ! timeout 10 docker info >/dev/null 2>&1; then
  rollout=(--containers-rollout=none)
fi
vars=()
[ -n "${PUBLIC_BASE_URL:-}" ] && vars=(--var "PUBLIC_BASE_URL:$PUBLIC_BASE_URL")
if ! (cd "$work/tree" && wrangler deploy --dry-run --outdir "$work/dist" "${rollout[@]}" "${vars[@]}") >"$work/out.txt" 2>&1; then
  cat "$work/out.txt"
  echo "deploy:check: wrangler deploy --dry-run failed"
  exit 1
fi
# The bindings table lists every var that would ship. Local-only settings belong in .dev.vars.
if grep -E "env\.(RENDERER_URL|SOURCE_ALLOWLIST|ENVIRONMENT) " "$work/out.txt"; then
  echo "deploy:check: local-only vars above would ship to production; move them to .dev.vars (scripts/lib/dev-vars.ts)"
  exit 1
fi
# Without it the Worker refuses all background work (queue, sweep: public_base_url_missing), so refuse here first.
# A --var value is printed "(hidden)": then the value passed is the one checked.
https_origin='^https://[^/"]+'
shipped=$(grep -oE 'env\.PUBLIC_BASE_URL \("[^"]*"\)' "$work/out.txt" | sed -E 's/^env\.PUBLIC_BASE_URL \("(.*)"\)$/\1/')
[ "$shipped" = "(hidden)" ] && shipped=${PUBLIC_BASE_URL:-}
if ! [[ "$shipped" =~ $https_origin ]]; then
  echo "deploy:check: PUBLIC_BASE_URL would ship as \"$shipped\"; it must be the Worker's public https:// origin (wrangler.toml [vars], or PUBLIC_BASE_URL=https://… npm run deploy:check, which passes --var); without it the Worker refuses background work"
  exit 1
fi
echo "deploy:check: ok (wrangler deploy --dry-run${rollout:+, containers rollout skipped (no Docker engine or DEPLOY_CHECK_CONTAINERS=skip)}; no local-only vars in [vars])"
