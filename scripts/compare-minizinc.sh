#!/usr/bin/env bash
# The MiniZinc corpus (tests/minizinc/corpus.txt) on alldiff and on Gecode 6.2, side by
# side: the same models, data, annotations and flags through `minizinc`, alternating
# between the two solvers, several rounds, and a check that both give the expected answer.
#
#   scripts/compare-minizinc.sh [--rounds N] [NAME...]      (default: 3 rounds, every entry)
#
# alldiff is a release build (`cargo build --release`, in CARGO_TARGET_DIR or target/)
# installed into a temporary folder with `alldiff minizinc install --dir`; Gecode runs
# through ../shared/anchors/minizinc/gecode.sh, which gives it its native all-different.
# Times are medians over the rounds: `solve` is each solver's own `solveTime` statistic
# (search only, what the ratio and the geometric mean are of; under 1 ms counts as 1 ms
# there; a second geometric mean takes those under 0.1 ms as 0.1 ms), `call` the wall
# time of the whole `minizinc` call (MiniZinc's compilation to
# FlatZinc included, the same for both).
# An answer that differs from the expected one is flagged MISMATCH (and the exit status is 1).
set -euo pipefail
rounds=3
if [[ ${1:-} == --rounds ]]; then rounds=$2; shift 2; fi
wanted=("$@")

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/tests/minizinc
anchors=$(cd "$root/../shared/anchors/minizinc" 2>/dev/null && pwd) \
  || anchors=/work/shared/anchors/minizinc
gecode=$anchors/gecode.sh
command -v minizinc >/dev/null || { echo "compare-minizinc: minizinc is not installed" >&2; exit 2; }

(cd "$root" && cargo build --release --locked --quiet)
alldiff=${CARGO_TARGET_DIR:-$root/target}/release/alldiff
solvers=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$solvers" "$work"' EXIT
"$alldiff" minizinc install --dir "$solvers" >/dev/null

# One run: prints "ANSWER SOLVE_SECONDS CALL_SECONDS". ANSWER is count=N (complete), optimum=N
# (proven), unsat, sat (solutions, search not complete) or unknown.
run() {
  local solver=$1; shift
  local out=$work/out start end
  start=$(date +%s.%N)
  if [[ $solver == alldiff ]]; then
    MZN_SOLVER_PATH=$solvers minizinc --solver alldiff "$@" >"$out" 2>"$work/err" || true
  else
    "$gecode" "$@" >"$out" 2>"$work/err" || true
  fi
  end=$(date +%s.%N)
  awk -v call="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" '
    /^----------$/ { n++ }
    /^==========$/ { complete = 1 }
    /^=====UNSATISFIABLE=====$/ { unsat = 1 }
    /^_objective = / { obj = $3; sub(/;/, "", obj) }
    /^%%%mzn-stat: solveTime=/ { split($0, kv, "="); solve = kv[2] }
    END {
      if (unsat) answer = "unsat"
      else if (complete && obj != "") answer = "optimum=" obj
      else if (complete) answer = "count=" n
      else if (n > 0) answer = "sat"
      else answer = "unknown"
      printf "%s %s %.3f\n", answer, (solve == "" ? "nan" : solve), call
    }' "$out"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-16s %-13s %-13s %-13s %9s %9s %7s %9s %9s\n' \
  model expected alldiff gecode "solve(a)" "solve(g)" ratio "call(a)" "call(g)"
status=0
ratios=$work/ratios
: >"$ratios"
while read -r name _tier model data flags expect; do
  [[ -z $name || $name == \#* ]] && continue
  if [[ ${#wanted[@]} -gt 0 && ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
  args=("$corpus/$model")
  case $data in
    -) ;;
    *.dzn) args+=("$corpus/$data") ;;
    *) args+=(-D "$data") ;;
  esac
  [[ $flags != - ]] && IFS=, read -ra f <<<"$flags" && args+=("${f[@]}")
  args+=(-s --output-mode dzn --output-objective)
  : >"$work/a"; : >"$work/g"
  for ((r = 0; r < rounds; r++)); do
    # Alternate which solver goes first, so drifting machine load hits both alike.
    if ((r % 2 == 0)); then order=(alldiff gecode); else order=(gecode alldiff); fi
    for s in "${order[@]}"; do run "$s" "${args[@]}" >>"$work/${s:0:1}"; done
  done
  a_answer=$(cut -d' ' -f1 "$work/a" | sort -u | paste -sd/)
  g_answer=$(cut -d' ' -f1 "$work/g" | sort -u | paste -sd/)
  a_solve=$(cut -d' ' -f2 "$work/a" | median); g_solve=$(cut -d' ' -f2 "$work/g" | median)
  a_call=$(cut -d' ' -f3 "$work/a" | median); g_call=$(cut -d' ' -f3 "$work/g" | median)
  # Times under a millisecond count as one: a ratio of two noise levels means nothing.
  # The same with a floor of 0.1 ms (both solvers report microseconds) goes to the
  # second geometric mean.
  ratio_at() {
    awk -v a="$a_solve" -v g="$g_solve" -v floor="$1" 'function f(t) { return t < floor ? floor : t }
      BEGIN { if (a == "nan" || g == "nan") print "-"; else printf "%.2f", f(a) / f(g) }'
  }
  ratio=$(ratio_at 0.001)
  [[ $ratio != - ]] && echo "$ratio $(ratio_at 0.0001)" >>"$ratios"
  flag=
  if [[ $a_answer != "$expect" || $g_answer != "$expect" ]]; then flag=" MISMATCH"; status=1; fi
  printf '%-16s %-13s %-13s %-13s %9.4f %9.4f %7s %9.2f %9.2f%s\n' \
    "$name" "$expect" "$a_answer" "$g_answer" "$a_solve" "$g_solve" "$ratio" "$a_call" "$g_call" "$flag"
done <"$corpus/corpus.txt"
awk '$1 > 0 && $2 > 0 { s += log($1); t += log($2); n++ }
  END { if (n) printf "geometric mean of solve(alldiff)/solve(gecode) over %d models: %.2f (times under 0.1 ms as 0.1 ms: %.2f)\n", n, exp(s / n), exp(t / n) }' "$ratios"
echo "($rounds rounds each, medians; solve = the solver's solveTime in seconds, call = wall time of the minizinc call)"
exit $status
