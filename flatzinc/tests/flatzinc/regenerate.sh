#!/usr/bin/env bash
# Rebuilds every flatzinc/tests/flatzinc/NAME.fzn from NAME.mzn with the real MiniZinc compiler and
# alldiff's MiniZinc library (share/minizinc/alldiff), as `minizinc --solver alldiff` would.
#   flatzinc/tests/flatzinc/regenerate.sh            all of them
#   flatzinc/tests/flatzinc/regenerate.sh queens     one
# Models whose name starts with `bad_` are hand-written FlatZinc and are left alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lib=$(cd "$here/../../../share/minizinc/alldiff" && pwd)
solvers=$(mktemp -d)
trap 'rm -rf "$solvers"' EXIT
cat > "$solvers/alldiff-regenerate.msc" <<MSC
{
  "id": "org.alldiff.regenerate",
  "name": "alldiff (regenerating test FlatZinc)",
  "version": "0.1.0",
  "mznlib": "$lib",
  "executable": "/bin/false",
  "stdFlags": ["-a", "-n", "-f", "-s", "-t", "-r"],
  "supportsFzn": true
}
MSC
names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
  for model in "$here"/*.mzn; do names+=("$(basename "$model" .mzn)"); done
fi
for name in "${names[@]}"; do
  MZN_SOLVER_PATH=$solvers minizinc -c --solver org.alldiff.regenerate \
    "$here/$name.mzn" --fzn "$here/$name.fzn" --ozn /dev/null
  echo "$name.fzn"
done
