#!/usr/bin/env bash
# Before `npm start`: a maintained ffmpeg for the renderer. It runs the first ffmpeg on PATH when that is ≥ 5
# (with ffprobe beside it), else the npm build (ffmpeg 4.1 of 2018, unmaintained): container/src/media/ffmpeg.ts.
# Installs Debian's when run as root with apt-get (as `npm test` does); otherwise says how. Never stops the start.
set -uo pipefail
first_line=$(ffmpeg -hide_banner -version 2>/dev/null | head -n 1)
major=$(sed -n 's/^ffmpeg version n\{0,1\}\([0-9][0-9]*\)\..*/\1/p' <<<"$first_line")
if [ -n "$major" ] && [ "$major" -ge 5 ] && [ -x "$(dirname "$(command -v ffmpeg)")/ffprobe" ]; then
  exit 0
fi
how="Debian/Ubuntu: sudo apt-get install -y ffmpeg; macOS: brew install ffmpeg"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's ffmpeg for the renderer (apt-get install ffmpeg)…" >&2
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null; then
    exit 0
  fi
  echo "apt-get could not install ffmpeg: the renderer uses the npm build (ffmpeg 4.1, 2018)." >&2
else
  echo "No ffmpeg ≥ 5 on PATH: the renderer uses the npm build (ffmpeg 4.1, 2018, unmaintained). ${how}" >&2
fi
