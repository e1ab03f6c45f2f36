#!/usr/bin/env bash
# Side-by-side search of the same generic models on alldiff and on Gecode 6.2 (through
# MiniZinc, with Gecode's native all-different): solve time and nodes, medians of
# alternating runs, and a check that both find the same answer (optimum or count).
#
#   scripts/compare-gecode.sh [--rounds N] [CASE...]
#
# A CASE is MODEL:SIZE:STRENGTH, MODEL one of golomb, all_interval, langford, queens,
# STRENGTH bounds or domain (queens takes domain only: it runs the shared queens.mzn);
# without any, the table of docs/performance.md. alldiff runs `benches/generic_models.rs`
# (release build), Gecode runs `benches/gecode/MODEL.mzn` through
# ../shared/anchors/minizinc/gecode.sh. The searches are the same on both sides: golomb
# branches on the marks in order, all_interval on the series in order, langford and queens
# smallest domain first, each smallest value first. Times are each solver's own search
# time (alldiff's `solve_time`, Gecode's `solveTime`), not the process's; nodes are
# alldiff's branches taken, Gecode's nodes explored (one more: Gecode counts the root).
set -euo pipefail
rounds=3
if [[ ${1:-} == --rounds ]]; then rounds=$2; shift 2; fi
cases=("$@")
if [[ ${#cases[@]} -eq 0 ]]; then
  cases=(golomb:9:bounds golomb:9:domain golomb:10:bounds golomb:10:domain
    all_interval:11:bounds all_interval:11:domain langford:11:bounds langford:11:domain
    queens:10:domain queens:11:domain queens:12:domain)
fi

root=$(cd "$(dirname "$0")/.." && pwd)
anchors=$(cd "$root/../shared/anchors/minizinc" 2>/dev/null && pwd) \
  || anchors=/work/shared/anchors/minizinc
gecode=$anchors/gecode.sh
[[ -x $gecode ]] || { echo "not found: $gecode" >&2; exit 2; }
bench=$(cargo bench --quiet --manifest-path "$root/Cargo.toml" --bench generic_models --no-run \
  --message-format=json | grep generic_models | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
[[ -x $bench ]] || { echo "generic_models bench did not build" >&2; exit 2; }

# The value of `%%%mzn-stat: NAME=` in the text on stdin (its first occurrence).
stat() { sed -n "s/^%%%mzn-stat: $1=//p" | head -1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Runs Gecode on one case; prints its output.
run_gecode() {
  local model=$1 size=$2 strength=$3
  case $model in
    queens)
      [[ $strength == domain ]] || { echo "queens.mzn is domain strength only" >&2; exit 2; }
      "$gecode" "$anchors/queens.mzn" -a -s -D "n=$size" ;;
    golomb) "$gecode" "$root/benches/gecode/golomb.mzn" -a -s -D "m=$size" -D "strength=$strength" ;;
    *) "$gecode" "$root/benches/gecode/$model.mzn" -a -s -D "n=$size" -D "strength=$strength" ;;
  esac
}

# Gecode's answer: the last length found for golomb, else the number of solutions.
gecode_answer() {
  if [[ $1 == golomb ]]; then sed -n 's/^length \([0-9]*\):.*/\1/p' | tail -1; else stat solutions; fi
}

printf '%-22s %-7s %10s %10s %7s %11s %11s %8s\n' \
  case answer alldiff_s gecode_s ratio alldiff_n gecode_n answers
for case in "${cases[@]}"; do
  IFS=: read -r model size strength <<< "$case"
  ours=() theirs=()
  for ((i = 0; i < rounds; i++)); do
    a=$("$bench" "$model" "$size" "$strength")
    g=$(run_gecode "$model" "$size" "$strength" 2>/dev/null)
    ours+=("$(stat solveTime <<< "$a")")
    theirs+=("$(stat solveTime <<< "$g")")
  done
  # The searches are deterministic: answers and nodes are the last run's.
  answer=$(sed -n 's/^answer=//p' <<< "$a")
  theirs_answer=$(gecode_answer "$model" <<< "$g")
  agree=same
  [[ $answer == "$theirs_answer" ]] || agree="DIFFER:$theirs_answer"
  ta=$(printf '%s\n' "${ours[@]}" | median)
  tg=$(printf '%s\n' "${theirs[@]}" | median)
  printf '%-22s %-7s %10.3f %10.3f %7.2f %11d %11d %8s\n' "$case" "$answer" "$ta" "$tg" \
    "$(echo "$ta / $tg" | bc -l)" "$(stat nodes <<< "$a")" "$(stat nodes <<< "$g")" "$agree"
done
echo "ratio: alldiff's median solve time / Gecode's (below 1: alldiff faster); $rounds rounds, alternating"
