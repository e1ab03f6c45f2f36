#!/usr/bin/env bash
# The MiniZinc corpus (cli/tests/minizinc/corpus.txt) on alldiff and on Gecode 6.2, side by
# side: the same models, data, annotations and flags through `minizinc`, alternating
# between the two solvers, several rounds, and a check that both give the expected answer.
#
#   scripts/compare-minizinc.sh [--rounds N] [NAME...]      (default: 3 rounds, every entry)
#
# alldiff is a release build (`cargo build --release`, in CARGO_TARGET_DIR or target/)
# installed into a temporary folder with `alldiff minizinc install --dir`; Gecode runs
# through ../shared/anchors/minizinc/gecode.sh, which gives it its native all-different.
# Times are medians over the rounds: `solve` is each solver's own `solveTime` statistic
# (search only, reported in microseconds by both; what the ratio and the geometric mean
# are of), `call` the wall time of the whole `minizinc` call (MiniZinc's compilation to
# FlatZinc included, the same for both). `apart` is `yes` when every round of the faster
# solver beat every round of the other: the ratio is then no noise, however short the
# times. Stricter geometric means follow: over the models where Gecode takes 1 ms or
# more, and over all with times under 0.1 ms and under 1 ms counted as 0.1 ms and 1 ms
# (the last counts a model under 1 ms on both sides as a tie, and clamps the faster
# solver's time up to the floor when only the other's is above it).
# An answer that differs from the expected one is flagged MISMATCH (and the exit status is 1).
set -euo pipefail
rounds=3
if [[ ${1:-} == --rounds ]]; then rounds=$2; shift 2; fi
wanted=("$@")

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/cli/tests/minizinc
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

printf '%-16s %-13s %-13s %-13s %9s %9s %7s %5s %9s %9s\n' \
  model expected alldiff gecode "solve(a)" "solve(g)" ratio apart "call(a)" "call(g)"
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
  # The headline ratio takes the times as reported (to their microsecond); the
  # stricter ones floor them.
  ratio_at() {
    awk -v a="$a_solve" -v g="$g_solve" -v floor="$1" 'function f(t) { return t < floor ? floor : t }
      BEGIN { if (a == "nan" || g == "nan") print "-"; else printf "%.3f", f(a) / f(g) }'
  }
  ratio=$(ratio_at 0.000001)
  [[ $ratio != - ]] && echo "$ratio $(ratio_at 0.0001) $(ratio_at 0.001) $g_solve" >>"$ratios"
  # Whether the two solvers' rounds do not overlap at all.
  apart=$(awk 'FNR == 1 { f++ } { t = $2 + 0; if (f == 1) { if (FNR == 1 || t > amax) amax = t; if (FNR == 1 || t < amin) amin = t }
      else { if (FNR == 1 || t > gmax) gmax = t; if (FNR == 1 || t < gmin) gmin = t } }
      END { print (amax < gmin || gmax < amin) ? "yes" : "no" }' "$work/a" "$work/g")
  flag=
  if [[ $a_answer != "$expect" || $g_answer != "$expect" ]]; then flag=" MISMATCH"; status=1; fi
  printf '%-16s %-13s %-13s %-13s %9.6f %9.6f %7s %5s %9.2f %9.2f%s\n' \
    "$name" "$expect" "$a_answer" "$g_answer" "$a_solve" "$g_solve" "$ratio" "$apart" "$a_call" "$g_call" "$flag"
done <"$corpus/corpus.txt"
awk '$1 > 0 && $2 > 0 && $3 > 0 { s += log($1); t += log($2); u += log($3); n++ }
  $1 > 0 && $4 >= 0.001 { l += log($1); m++ }
  END {
    if (n) printf "geometric mean of solve(alldiff)/solve(gecode) over %d models: %.2f\n", n, exp(s / n)
    if (m) printf "  over the %d models where Gecode takes 1 ms or more: %.2f\n", m, exp(l / m)
    if (n) printf "  with times under 0.1 ms counted as 0.1 ms: %.2f; under 1 ms as 1 ms: %.2f\n", exp(t / n), exp(u / n)
  }' "$ratios"
echo "($rounds rounds each, medians; solve = the solver's solveTime in seconds, call = wall time of the minizinc call)"
exit $status
