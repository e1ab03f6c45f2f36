#!/usr/bin/env bash
# Builds the alldiff Sudoku page into OUT, a static site: index.html, app.js,
# app.css, worker.js, alldiff_web.js and alldiff_web_bg.wasm. Serve OUT with any
# static file server (the page loads nothing from anywhere else); docs/web.md.
#
# Needs the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)
# and wasm-bindgen-cli at the version Cargo.lock locks for wasm-bindgen
# (cargo install wasm-bindgen-cli --version V); .ci/run installs both when missing.
# wasm-opt (binaryen) is used when it is on PATH.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: web/build.sh OUT" >&2
  exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."

locked=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$locked" ]; then
  echo "web/build.sh: wasm-bindgen $locked is needed (found: ${have:-none});" \
    "cargo install wasm-bindgen-cli --version $locked" >&2
  exit 1
fi

# The `web` profile: release (one codegen unit, fat LTO) without debug info.
cargo build --locked -p alldiff-web --target wasm32-unknown-unknown --profile web
wasm-bindgen --target web --no-typescript --out-dir "$out" \
  target/wasm32-unknown-unknown/web/alldiff_web.wasm
if command -v wasm-opt >/dev/null; then
  wasm-opt --all-features -O3 "$out/alldiff_web_bg.wasm" -o "$out/alldiff_web_bg.wasm"
fi
cp web/site/index.html web/site/app.js web/site/app.css web/site/worker.js "$out/"
du -cb "$out"/* | tail -1 | awk '{printf "web/build.sh: %s bytes in %s\n", $1, "'"$out"'"}'
