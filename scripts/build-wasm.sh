#!/bin/sh
# Rebuild the committed container/src/paint/wasm/warp.wasm from warp.as.ts (AssemblyScript, not a dependency).
set -e; d="$(cd "$(dirname "$0")/../container/src/paint/wasm" && pwd)"
npx -y -p assemblyscript@0.27.37 asc "$d/warp.as.ts" -O3 --runtime stub --importMemory --sharedMemory --initialMemory 1 --maximumMemory 65536 --enable simd,threads --noExportMemory -o "$d/warp.wasm"
