"""A Python loop of `alldiff.sudoku.solve` calls against the Rust CLI, one thread.

    python python/benchmarks/sudoku_throughput.py [PUZZLES] [CALLS] [CLI] [ROUNDS]

PUZZLES defaults to /work/shared/data/sudoku/top1465.txt (read where it is), CALLS to
10000 (the file's puzzles in turn), CLI to target/release/alldiff. The CLI solves the
file with `alldiff solve --input F --format line -j 1` as many times as it takes to
reach CALLS puzzles (output to /dev/null, process start-up included). The sides
alternate for ROUNDS rounds (5); each side's best round counts. Prints puzzles per
second and the ratio.
"""

import math
import os
import subprocess
import sys
import time

import alldiff


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/sudoku/top1465.txt"
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cli = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, "target", "release", "alldiff")
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    with open(path) as f:
        puzzles = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    n = len(puzzles)

    solve = alldiff.sudoku.solve
    answers = [solve(p) for p in puzzles]  # warm-up, and every answer is a solution
    assert all(a is not None and len(a) == 81 for a in answers)

    runs = math.ceil(calls / n)
    cmd = [cli, "solve", "--input", path, "--format", "line", "-j", "1"]
    py_best = cli_best = math.inf
    for _ in range(rounds):  # alternating, so that both sides see the same machine
        start = time.perf_counter()
        for i in range(calls):
            solve(puzzles[i % n])
        py_best = min(py_best, time.perf_counter() - start)
        start = time.perf_counter()
        for _ in range(runs):
            subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        cli_best = min(cli_best, time.perf_counter() - start)

    py_rate = calls / py_best
    cli_rate = runs * n / cli_best
    print(f"python: {calls} sudoku.solve calls in {py_best:.3f} s: {py_rate:,.0f} puzzles/s")
    print(f"cli:    {runs} x {n} puzzles in {cli_best:.3f} s: {cli_rate:,.0f} puzzles/s")
    print(f"python / cli throughput: {py_rate / cli_rate:.2f}")


if __name__ == "__main__":
    main()
