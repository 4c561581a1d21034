#!/usr/bin/env bash
# Commit subjects are a short line naming the change (CONTRIBUTING.md): ≤ 72 characters for every commit made
# since the rule was enforced (SINCE); figures and reasons go in the body. Prints each longer subject, exits 1.
# Outside a git checkout (a source tarball) there is no history to check.
set -uo pipefail
cd "$(dirname "$0")/.."
SINCE=636c279
MAX=72
git rev-parse --verify -q "$SINCE^{commit}" >/dev/null || { echo "no git history with $SINCE: nothing to check"; exit 0; }
export LC_ALL=C.UTF-8 # ${#subject} counts characters, not bytes
long=$(git log --format=%s "$SINCE..HEAD" | while IFS= read -r subject; do
  [ ${#subject} -gt $MAX ] && echo "${#subject}: $subject"
done)
[ -z "$long" ] && exit 0
echo "commit subjects over $MAX characters (put the detail in the body):"
echo "$long"
exit 1
