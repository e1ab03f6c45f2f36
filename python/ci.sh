#!/usr/bin/env bash
# Builds the Python package into a fresh virtual environment and runs its tests.
# Called by .ci/run; runs alone too: python/ci.sh [venv directory]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-$(mktemp -d)/venv}
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --upgrade pip
"$venv/bin/pip" install --quiet './python[dask]' pytest hypothesis
# From the repository root, so that `import alldiff` finds the installed package,
# not the source folder python/alldiff (which has no compiled module).
"$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
