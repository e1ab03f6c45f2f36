#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), from the committed seeds
# (fuzz/seeds/TARGET: the inputs that once found a bug, and a minimised corpus) and
# the local corpus (fuzz/corpus/TARGET, ignored by git, grown by each run). A crash
# or a failed oracle stops the run with libFuzzer's report and the input saved
# under fuzz/artifacts/TARGET/; copy it into fuzz/seeds/TARGET/ with the fix.
#   fuzz/run.sh [SECONDS] [TARGET ...]
# Needs cargo-fuzz (`cargo install cargo-fuzz`) and a nightly toolchain; without
# one, the stable toolchain is told to accept nightly flags (RUSTC_BOOTSTRAP=1).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(cargo fuzz list)
fi
toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  toolchain=(+nightly)
else
  export RUSTC_BOOTSTRAP=1
fi
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "seeds/$target"
  echo "fuzzing $target for ${seconds}s"
  log=$(mktemp)
  # -len_control=0: long inputs (many variables and constraints) from the start.
  if ! cargo "${toolchain[@]}" fuzz run "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -len_control=0 -max_len=1024 \
    -print_final_stats=1 >"$log" 2>&1; then
    # libFuzzer's report: the panic or oracle message and the input it saved.
    grep -v -E '^#[0-9]+' "$log" | tail -n 60 >&2
    rm -f "$log"
    echo "fuzz target $target failed" >&2
    exit 1
  fi
  grep -E '^(Done|stat::number_of_executed_units)' "$log" || true
  rm -f "$log"
done
