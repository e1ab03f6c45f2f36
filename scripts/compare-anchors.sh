#!/usr/bin/env bash
# Side-by-side throughput of `alldiff solve` against the `sudoku` crate harness, as
# whole processes on the same puzzle files, single-threaded, alternating runs.
# Prints the median time of each and the throughput ratio (alldiff / anchor).
#
#   scripts/compare-anchors.sh [--rounds N] [--generate COUNT] [FILE...]
#
# With --generate, each round also times `alldiff generate --minimal --symmetry rotate180
# --count COUNT --threads 1` (seed = the round) as a whole process against the anchor's
# in-process `--generate` rate (BENCH_SECS=1), after checking with the anchor that the
# first round's puzzles are all unique.
#
# Needs the anchor harness built (see ../shared/anchors/README.md); set ANCHOR to its
# binary if it is not at /tmp/anchor-target/release/sudoku-crate-bench. Set ALLDIFF to
# time another build of alldiff than this repository's release binary, and ALLDIFF_ARGS
# to add options to its `solve` (say, `--propagation root-locked`). Set BEFORE to an older
# build to time it in the same rounds, each round running it, alldiff and the anchor in
# turn: its ratio is printed as `before`, and `after/before` is the change.
set -euo pipefail
rounds=5 generate=0
if [[ ${1:-} == --rounds ]]; then rounds=$2; shift 2; fi
if [[ ${1:-} == --generate ]]; then generate=$2; shift 2; fi
[[ $# -gt 0 || $generate -gt 0 ]] || { echo "usage: $0 [--rounds N] [--generate COUNT] [FILE...]" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
anchor=${ANCHOR:-/tmp/anchor-target/release/sudoku-crate-bench}
[[ -x $anchor ]] || { echo "anchor not found: $anchor (see ../shared/anchors/README.md)" >&2; exit 2; }
if [[ -z ${ALLDIFF:-} ]]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin alldiff
fi
alldiff=${ALLDIFF:-$root/target/release/alldiff}
read -r -a extra <<< "${ALLDIFF_ARGS:-}"

# Seconds taken by one run of the command, output discarded.
seconds() {
  local start end
  start=$(date +%s%N)
  "$@" > /dev/null || true   # exit 1 only means some puzzle was not unique
  end=$(date +%s%N)
  echo "scale=6; ($end - $start) / 1000000000" | bc
}

# The median of the arguments.
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

before=${BEFORE:-}
printf '%-28s %9s %12s %12s %14s %14s %7s' file puzzles alldiff_s anchor_s alldiff/s anchor/s ratio
[[ -n $before ]] && printf ' %9s %7s %12s' before_s before after/before
echo
for file in "$@"; do
  n=$(grep -cv '^\s*$' "$file")
  # The two must agree line for line before their times mean anything.
  if ! cmp -s <("$alldiff" solve --threads 1 --format line "${extra[@]}" --input "$file") <("$anchor" --solve "$file"); then
    echo "$file: alldiff and the anchor disagree" >&2
    exit 1
  fi
  ours=() theirs=() olds=()
  for ((i = 0; i < rounds; i++)); do
    if [[ -n $before ]]; then
      olds+=("$(seconds "$before" solve --threads 1 --format line "${extra[@]}" --input "$file")")
    fi
    ours+=("$(seconds "$alldiff" solve --threads 1 --format line "${extra[@]}" --input "$file")")
    theirs+=("$(seconds "$anchor" --solve "$file")")
  done
  a=$(median "${ours[@]}")
  b=$(median "${theirs[@]}")
  printf '%-28s %9d %12.3f %12.3f %14.0f %14.0f %7.3f' "$(basename "$file")" "$n" "$a" "$b" \
    "$(echo "$n / $a" | bc -l)" "$(echo "$n / $b" | bc -l)" "$(echo "$b / $a" | bc -l)"
  if [[ -n $before ]]; then
    o=$(median "${olds[@]}")
    printf ' %9.3f %7.3f %12.3f' "$o" "$(echo "$b / $o" | bc -l)" "$(echo "$o / $a" | bc -l)"
  fi
  echo
done

# Generation: puzzles a second, alldiff's whole process against the anchor's own count.
if [[ $generate -gt 0 ]]; then
  gen=(generate --minimal --symmetry rotate180 --count "$generate" --threads 1)
  sample=$(mktemp)
  trap 'rm -f "$sample"' EXIT
  "$alldiff" "${gen[@]}" --seed 1 > "$sample"
  if grep -qv '^[1-9.]\{81\}$' "$sample" || [[ $(wc -l < "$sample") -ne $generate ]] ||
    "$anchor" --solve "$sample" | grep -qE '^(multiple|none)$'; then
    echo "generate: alldiff's puzzles are not $generate unique 9x9 lines" >&2
    exit 1
  fi
  ours=() theirs=() olds=()
  for ((i = 1; i <= rounds; i++)); do
    if [[ -n $before ]]; then
      olds+=("$(echo "$generate / $(seconds "$before" "${gen[@]}" --seed "$i")" | bc -l)")
    fi
    ours+=("$(echo "$generate / $(seconds "$alldiff" "${gen[@]}" --seed "$i")" | bc -l)")
    theirs+=("$(BENCH_SECS=1 "$anchor" --generate | sed -E 's/^generate: ([0-9.]+) .*/\1/')")
  done
  a=$(median "${ours[@]}")
  b=$(median "${theirs[@]}")
  printf '%-28s %9d %12s %12s %14.0f %14.0f %7.3f' "generate (rotate180, minimal)" "$generate" - - \
    "$a" "$b" "$(echo "$a / $b" | bc -l)"
  if [[ -n $before ]]; then
    o=$(median "${olds[@]}")
    printf ' %9s %7.3f %12.3f' - "$(echo "$o / $b" | bc -l)" "$(echo "$a / $o" | bc -l)"
  fi
  echo
fi
