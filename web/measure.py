"""Measures the Sudoku page's targets (docs/web.md), in headless Chromium.

usage: python3 web/measure.py OUT ALLDIFF PUZZLES_DIR

OUT is a site built by web/build.sh, ALLDIFF the native command line (a release
build: cargo build --release -p alldiff-cli), PUZZLES_DIR the folder of the puzzle
files (shared/data/sudoku), read in place. Prints:
- per file of hard 9x9 puzzles, in ms per puzzle, the page's time (the worker's
  performance.now around one `solve_many` call, proving uniqueness as `alldiff
  solve` does; a first cold call and the best of five more) against `alldiff
  solve --threads 1 --format csv --timer --input FILE`: the sum of its own
  per-puzzle times, and its wall time (process start included), best of five;
- the size of OUT;
- first paint to a solved fragment puzzle: from the page's first paint to the
  moment the solved grid is set (<html data-solved-at>), each in a new browser with
  a new profile (nothing cached).
"""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "tests"))
import cdp  # noqa: E402

FILES = ["hardest11.txt", "hardest_1106.txt", "top95.txt"]
FRAGMENT = "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2"


def native(alldiff, path):
    """Best of three: the CLI's own per-puzzle times summed (--timer), and the
    process's wall time (start and output included)."""
    timers, walls = [], []
    for _ in range(5):
        started = time.perf_counter()
        out = subprocess.run(
            [alldiff, "solve", "--threads", "1", "--format", "csv", "--timer", "--input", path],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        walls.append(time.perf_counter() - started)
        timers.append(sum(float(row.rsplit(",", 1)[1]) for row in out.splitlines()[1:]))
    return min(timers), min(walls) * 1000


def in_page(browser, server, path):
    browser.navigate(server.base + "index.html")
    browser.wait_for("document.documentElement.dataset.loaded", 30)
    with open(path) as f:
        text = f.read()
    expression = (
        "window.alldiffPage.run('solve_many', %r).then(r => ({ms: r.ms, n: JSON.parse(r.text).solutions"
        ".filter(s => s.length === 81).length}))" % text
    )
    cold = browser.eval(expression, timeout=600)
    warm = [browser.eval(expression, timeout=600) for _ in range(5)]
    return cold, min(w["ms"] for w in warm)


def first_paint(chromium, server):
    browser = cdp.Browser(chromium)
    try:
        browser.navigate(server.base + "index.html#" + FRAGMENT)
        solved_at = float(browser.wait_for("document.documentElement.dataset.solvedAt", 30))
        paint = browser.eval(
            "(performance.getEntriesByName('first-paint')[0] || {}).startTime || null"
        )
        return paint, solved_at
    finally:
        browser.close()


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    out, alldiff, folder = sys.argv[1:]
    chromium = cdp.chromium_path()
    server = cdp.Server(out)
    try:
        print(
            "| file | puzzles | page, first call | page, best of 5 | native CLI --timer, best of 5"
            " | native CLI wall, best of 5 | page / native (timer) |"
        )
        print("|---|--:|--:|--:|--:|--:|--:|")
        browser = cdp.Browser(chromium)
        try:
            for name in FILES:
                path = os.path.join(folder, name)
                count = sum(1 for line in open(path) if line.strip())
                cold, warm = in_page(browser, server, path)
                assert cold["n"] == count, (name, cold)
                timer, wall = native(alldiff, path)
                print(
                    "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.2f |"
                    % (name, count, cold["ms"] / count, warm / count, timer / count, wall / count, warm / timer)
                )
        finally:
            browser.close()
        size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
        print()
        print("site size: %d bytes (%s)" % (size, ", ".join(sorted(os.listdir(out)))))
        print()
        print("| run | first paint (ms) | solved grid set (ms) | first paint to solved (ms) |")
        print("|--:|--:|--:|--:|")
        for run in range(1, 6):
            paint, solved = first_paint(chromium, server)
            print("| %d | %.0f | %.0f | %.0f |" % (run, paint, solved, solved - paint))
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
