"""The Sudoku page in headless Chromium, driven over the DevTools protocol.

usage: python3 web/tests/browser_test.py OUT [--screenshot FILE.png]

OUT is a site built by web/build.sh. The page is served from a local server
under /site/ and checked: a puzzle loaded by URL fragment is solved in the page
(<html data-solution>), several solutions and no solution are told apart,
Validate marks the conflicting cells, Hint names the next placement and
highlights its cells, Explain lists steps that show the board at each step,
Rate grades, Generate makes a puzzle that solves uniquely, the search tree shows
a node's candidates on the board, 4x4 and 16x16 grids solve, a 16x16 generation
leaves the page responsive and Cancel stops a long search, the FlatZinc box solves a model
(and says when it has no solution or does not read), the keyboard fills and
moves, and a phone-sized window has no sideways scrolling. Throughout, the
console has no error and nothing is requested outside the page's folder. Prints
one line per check and `N passed, N failed`; exits 1 if any failed.
"""

import json
import sys
import traceback

import cdp

HARD = "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2"
EASY = "3.65.84..52........87....31..3.1..8.9..863..5.5..9.6..13....25........74..52.63.."
TWO_SOLUTIONS = "." * 81
CONFLICT = "11" + "." * 79
FOUR = "1..4.41.4..1.14."
# A 16x16 puzzle: a full grid by the pattern, every other cell blanked in a
# checkerboard's worth of places; several solutions or one, the page must answer.
SIXTEEN_SOLUTION = "".join(
    "123456789ABCDEFG"[((r % 4) * 4 + r // 4 + c) % 16] for r in range(16) for c in range(16)
)
SIXTEEN = "".join(ch if (i * 7) % 3 else "." for i, ch in enumerate(SIXTEEN_SOLUTION))


def units(side):
    box = int(side ** 0.5)
    for r in range(side):
        yield [r * side + c for c in range(side)]
    for c in range(side):
        yield [r * side + c for r in range(side)]
    for b in range(side):
        r0, c0 = (b // box) * box, (b % box) * box
        yield [(r0 + r) * side + c0 + c for r in range(box) for c in range(box)]


def is_solution(puzzle, solution):
    side = int(len(puzzle) ** 0.5)
    if len(solution) != len(puzzle):
        return False
    if any(p != "." and p != s for p, s in zip(puzzle, solution)):
        return False
    symbols = set("123456789ABCDEFG"[:side])
    return all({solution[i] for i in u} == symbols for u in units(side))


class Run:
    def __init__(self, browser, server):
        self.b = browser
        self.s = server
        self.passed = 0
        self.failed = 0

    def check(self, name, test):
        try:
            test()
            self.passed += 1
            print("ok   " + name, flush=True)
        except Exception:  # noqa: BLE001 - every failure is reported, then the next check runs
            self.failed += 1
            print("FAIL " + name, flush=True)
            traceback.print_exc(limit=3)

    def open(self, fragment=""):
        b = self.b
        b.navigate("about:blank")
        b.navigate(self.s.base + "index.html" + ("#" + fragment if fragment else ""))
        b.wait_for("document.documentElement.dataset.loaded", 30)

    def click(self, button_id):
        """Clicks a button and waits until the page's worker is idle again."""
        self.b.eval("document.getElementById(%r).click()" % button_id)
        self.b.wait_for("document.documentElement.dataset.status !== 'busy'", 120)

    def load(self, text):
        self.b.eval("window.alldiffPage.load(%r)" % text)

    def html(self, name):
        return self.b.eval("document.documentElement.dataset.%s || null" % name)

    def output(self):
        return self.b.eval("document.getElementById('output').textContent")

    def board_cells(self, cls=None):
        selector = "#board .cell" + ("." + cls if cls else "")
        return self.b.eval(
            "Array.from(document.querySelectorAll(%r)).map(c => Number(c.dataset.index))" % selector
        )

    def board_text(self):
        return self.b.eval(
            "Array.from(document.querySelectorAll('#board .cell')).map(c => c.textContent || '.').join('')"
        )


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    out = args[0]
    shot = args[args.index("--screenshot") + 1] if "--screenshot" in args else None
    chromium = cdp.chromium_path()
    if not chromium:
        print("no chromium on PATH (apt-get install chromium)")
        return 1
    server = cdp.Server(out)
    browser = cdp.Browser(chromium)
    run = Run(browser, server)
    b = browser
    try:

        def fragment_solved():
            run.open(HARD)
            solution = b.wait_for("document.documentElement.dataset.solution", 30)
            assert is_solution(HARD, solution), solution
            assert run.html("solveStatus") == "unique"
            assert run.board_text() == solution, run.board_text()
            assert "unique" in run.output()

        run.check("a puzzle in the fragment is solved in the page (data-solution)", fragment_solved)

        def several_and_none():
            run.open(TWO_SOLUTIONS)
            b.wait_for("document.documentElement.dataset.solveStatus", 30)
            assert run.html("solveStatus") == "multiple", run.html("solveStatus")
            assert is_solution(TWO_SOLUTIONS, run.html("solution"))
            assert "Several solutions" in run.output()
            # A contradiction that repeats no digit: r1c1..r1c8 are 1-8, r2c9 is 9.
            blocked = "12345678." + "........9" + "." * 63
            run.load(blocked)
            b.wait_for("window.alldiffPage.line() === %r" % blocked)
            run.click("solve")
            assert run.html("solveStatus") == "none", run.html("solveStatus")
            assert run.html("solution") is None
            assert "No solution" in run.output()

        run.check("several solutions and no solution are told apart", several_and_none)

        def validate():
            run.open()
            run.load(CONFLICT)
            b.wait_for("window.alldiffPage.line() === %r" % CONFLICT)
            run.click("validate")
            assert run.board_cells("conflict") == [0, 1], run.board_cells("conflict")
            assert "row 1 has 1 twice" in run.output(), run.output()
            run.load(EASY)
            b.wait_for("window.alldiffPage.line() === %r" % EASY)
            run.click("validate")
            assert run.board_cells("conflict") == []
            assert "No digit is repeated" in run.output()

        run.check("Validate marks the conflicting cells", validate)

        def hint():
            run.open()
            run.load(EASY)
            b.wait_for("window.alldiffPage.line() === %r" % EASY)
            run.click("solve")
            solution = run.html("solution")
            run.load(EASY)
            b.wait_for("window.alldiffPage.line() === %r" % EASY)
            run.click("hint")
            out = b.eval("Object.assign({}, document.getElementById('output').dataset)")
            cell, digit = int(out["cell"]), int(out["digit"])
            assert EASY[cell] == "." and solution[cell] == str(digit), (cell, digit)
            assert out["technique"] in ("naked single", "hidden single"), out
            assert run.board_cells("target") == [cell]
            assert run.board_cells("unit") or out["technique"] == "naked single"
            assert "Next: r%dc%d = %d" % (cell // 9 + 1, cell % 9 + 1, digit) in run.output()
            # "Place it" puts the digit on the board.
            b.eval("document.querySelector('#output button').click()")
            assert run.board_text()[cell] == str(digit)

        run.check("Hint names the next placement, its technique and cells", hint)

        def explain():
            run.open()
            run.load(HARD)
            b.wait_for("window.alldiffPage.line() === %r" % HARD)
            run.click("explain")
            steps = b.eval("document.querySelectorAll('#steps li').length")
            assert steps > 50, steps
            texts = b.eval("Array.from(document.querySelectorAll('#steps li')).map(l => l.textContent)")
            assert any("guess" in t or "single" in t for t in texts), texts[:5]
            placements = [i for i, t in enumerate(texts) if " = " in t]
            k = placements[len(placements) // 2]
            b.eval("window.alldiffPage.clickStep(%d)" % k)
            assert b.eval("document.getElementById('board').dataset.step") == str(k)
            filled = sum(ch != "." for ch in run.board_text())
            clues = sum(ch != "." for ch in HARD)
            assert filled == clues + sum(1 for i in placements if i <= k), (filled, k)
            assert run.board_cells("target"), "the step's cell is marked"
            assert "Step %d of %d" % (k + 1, steps) in b.eval("document.getElementById('board-note').textContent")

        run.check("Explain lists every step; a step shows the board then", explain)

        def rate():
            run.open()
            for puzzle, grade in ((EASY, "medium"), (FOUR, "medium"), (HARD, "diabolical")):
                run.load(puzzle)
                b.wait_for("window.alldiffPage.line() === %r" % puzzle)
                run.click("rate")
                got = b.eval("document.getElementById('output').dataset.difficulty")
                assert got == grade, (puzzle, got)

        run.check("Rate grades", rate)

        def generate():
            run.open()
            b.eval("document.getElementById('hints').value = '28'")
            b.eval("document.getElementById('symmetry').value = 'rotate180'")
            run.click("generate")
            puzzle = b.wait_for("document.getElementById('output').dataset.puzzle", 60)
            assert len(puzzle) == 81 and sum(ch != "." for ch in puzzle) == 28, puzzle
            assert all((puzzle[i] == ".") == (puzzle[80 - i] == ".") for i in range(81)), "symmetric"
            assert run.board_text() == puzzle
            run.click("solve")
            assert run.html("solveStatus") == "unique"

        run.check("Generate makes a puzzle with the hints and symmetry asked, solved uniquely", generate)

        def generate_difficulty():
            run.open()
            b.eval("document.getElementById('difficulty').value = 'easy'")
            run.click("generate")
            b.wait_for("document.getElementById('output').dataset.puzzle", 60)
            run.click("rate")
            assert b.eval("document.getElementById('output').dataset.difficulty") == "easy"

        run.check("Generate by difficulty: an easy puzzle rates easy", generate_difficulty)

        def grid_text():
            run.open()
            rows = [EASY[r * 9 : r * 9 + 9] for r in range(9)]
            grid = []
            for r, row in enumerate(rows):
                if r in (3, 6):
                    grid.append("------+-------+------")
                grid.append(" | ".join(" ".join(row[c : c + 3]) for c in (0, 3, 6)))
            b.eval("document.getElementById('text').value = %r" % "\n".join(grid))
            b.eval("document.getElementById('load').click()")
            b.wait_for("window.alldiffPage.line() === %r" % EASY)
            assert run.board_text() == EASY

        run.check("a puzzle pasted as a grid (with separators) loads", grid_text)

        def tree():
            run.open()
            run.load(HARD)
            b.wait_for("window.alldiffPage.line() === %r" % HARD)
            run.click("tree")
            b.wait_for("document.documentElement.dataset.tree === 'ready'", 30)
            frame = "document.getElementById('tree-frame').contentWindow"
            nodes = b.eval(frame + ".document.getElementById('stat-nodes').dataset.value")
            assert nodes == "366", nodes
            b.eval(frame + ".alldiffView.select(5)")
            b.wait_for("document.getElementById('board').dataset.node === '5'")
            # The board shows node 5's candidates: those the viewer lists.
            viewer = b.eval(
                "Array.from(%s.document.querySelectorAll('#domains td.dom')).map(t => t.dataset.values)" % frame
            )
            board = b.eval(
                "Array.from(document.querySelectorAll('#board .cell')).map(c => c.querySelector('.cands')"
                " ? Array.from(c.querySelectorAll('.cands span')).map(s => s.textContent).filter(x => x).join(' ')"
                " : c.textContent)"
            )
            assert board == viewer, (board[:10], viewer[:10])
            assert any(" " in v for v in viewer), "some cell has candidates"
            # A click on the canvas at node 1 selects it, as a person would.
            at = b.eval(frame + ".alldiffView.clientPosition(1)")
            rect = b.eval("(r => ({x: r.left, y: r.top}))(document.getElementById('tree-frame').getBoundingClientRect())")
            b.eval("document.getElementById('tree-frame').scrollIntoView()")
            rect = b.eval("(r => ({x: r.left, y: r.top}))(document.getElementById('tree-frame').getBoundingClientRect())")
            x, y = rect["x"] + at["x"], rect["y"] + at["y"]
            for kind in ("mousePressed", "mouseReleased"):
                b.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
            b.wait_for("document.getElementById('board').dataset.node === '1'")

        run.check("the search tree: a node's candidates show on the board", tree)

        def sizes():
            run.open(FOUR)
            solution = b.wait_for("document.documentElement.dataset.solution", 30)
            assert is_solution(FOUR, solution), solution
            assert b.eval("document.querySelectorAll('#board .cell').length") == 16
            run.open(SIXTEEN)
            b.wait_for("document.documentElement.dataset.solveStatus", 60)
            solution = run.html("solution")
            assert is_solution(SIXTEEN, solution), solution
            assert b.eval("document.querySelectorAll('#board .cell').length") == 256
            b.eval("document.getElementById('size').value = '4'")
            b.eval("document.getElementById('size').dispatchEvent(new Event('change'))")
            b.eval("document.getElementById('hints').value = '0'")
            run.click("generate")
            puzzle = b.wait_for("document.getElementById('output').dataset.puzzle", 120)
            assert len(puzzle) == 256, puzzle

        run.check("4x4 and 16x16 grids load, solve and generate", sizes)

        def cancel():
            import time

            run.open()
            b.eval("document.getElementById('size').value = '4'")
            b.eval("document.getElementById('size').dispatchEvent(new Event('change'))")
            # A 16x16 generation asked for too few clues: 20 attempts in the worker,
            # from a third of a second (native, quiet) to seconds on a loaded machine.
            b.eval("document.getElementById('hints').value = '30'")
            b.eval("document.getElementById('generate').click()")
            # The page answers while the worker works: it is not frozen.
            started = time.monotonic()
            assert b.eval("document.getElementById('size').value") == "4"
            assert time.monotonic() - started < 2.0
            b.wait_for("document.documentElement.dataset.status !== 'busy'", 120)
            # Work that takes minutes, whatever the machine: 12 pigeons in 11 holes,
            # pairwise different through int_ne alone (no all-different to count
            # them), in the FlatZinc box. Cancel shows and stops it.
            names = ["p%d" % i for i in range(12)]
            model = "".join("var 1..11: %s :: output_var;\n" % n for n in names)
            model += "".join(
                "constraint int_ne(%s, %s);\n" % (a, c)
                for i, a in enumerate(names)
                for c in names[i + 1 :]
            )
            model += "solve satisfy;\n"
            b.eval("document.getElementById('fzn-box').open = true")
            b.eval("document.getElementById('fzn-text').value = %s" % json.dumps(model))
            b.eval("document.getElementById('fzn-solve').click()")
            b.wait_for("!document.getElementById('cancel').hidden", 10)
            assert b.eval("document.documentElement.dataset.status") == "busy"
            b.eval("document.getElementById('cancel').click()")
            assert b.eval("document.documentElement.dataset.status") == "ready"
            assert "Cancelled" in run.output(), run.output()
            # A new worker takes the next request.
            run.load(FOUR)
            b.wait_for("window.alldiffPage.line() === %r" % FOUR)
            run.click("solve")
            assert is_solution(FOUR, run.html("solution") or ""), run.output()

        run.check("long work runs in the worker (a 16x16 generation, a FlatZinc search) and Cancel stops it", cancel)

        def flatzinc():
            run.open()
            b.eval("document.getElementById('fzn-box').open = true")
            b.eval("document.getElementById('fzn-all').checked = true")
            run.click("fzn-solve")
            out = b.eval("document.getElementById('fzn-output').textContent")
            # 5-queens has 10 solutions, every one printed, then the end mark.
            assert out.count("----------") == 10 and "==========" in out, out
            assert "q = array1d(1..5, [" in out, out
            assert b.eval("document.getElementById('fzn-output').dataset.status") == "complete"
            b.wait_for("document.documentElement.dataset.tree === 'ready'", 30)
            frame = "document.getElementById('tree-frame').contentWindow"
            assert b.eval(frame + ".document.getElementById('stat-solutions').dataset.value") == "10"
            b.eval("document.getElementById('fzn-text').value = 'var 1..3: x;\\nconstraint int_lt(x, 1);\\nsolve satisfy;\\n'")
            run.click("fzn-solve")
            out = b.eval("document.getElementById('fzn-output').textContent")
            assert "=====UNSATISFIABLE=====" in out, out
            b.eval("document.getElementById('fzn-text').value = 'var 1..3: x;\\nconstraint no_such(x);\\nsolve satisfy;\\n'")
            run.click("fzn-solve")
            out = b.eval("document.getElementById('fzn-output').textContent")
            assert "line 2" in out and "no_such" in out, out

        run.check("the FlatZinc box solves a model and shows its tree", flatzinc)

        def keyboard():
            run.open()
            b.eval("document.querySelector('#board .cell').focus()")

            def key(k, code=None):
                for kind in ("keyDown", "keyUp"):
                    params = {"type": kind, "key": k, "code": code or k}
                    if kind == "keyDown" and len(k) == 1:
                        params["text"] = k
                    b.call("Input.dispatchKeyEvent", params)

            key("5", "Digit5")  # r1c1 = 5, focus moves right
            key("ArrowDown")  # r2c2
            key("7", "Digit7")
            key("ArrowLeft")
            key("ArrowLeft")  # r2c1
            key("Backspace")
            text = run.board_text()
            assert text[0] == "5" and text[10] == "7", text[:20]
            assert b.eval("document.activeElement.dataset.index") == "9"
            key("s")  # a letter is no digit on a 9x9 board
            assert run.board_text()[9] == "."
            # Shortcuts outside the board: S solves.
            b.eval("document.activeElement.blur()")
            key("s")
            b.wait_for("document.documentElement.dataset.solveStatus", 30)
            assert run.html("solveStatus") == "multiple"

        run.check("the keyboard fills cells, moves and runs commands", keyboard)

        def phone():
            b.call(
                "Emulation.setDeviceMetricsOverride",
                {"width": 390, "height": 800, "deviceScaleFactor": 1, "mobile": True},
            )
            try:
                run.open(HARD)
                b.wait_for("document.documentElement.dataset.solution", 30)
                width = b.eval("document.documentElement.scrollWidth")
                board = b.eval("document.getElementById('board').getBoundingClientRect().width")
                assert width <= 390, width
                assert 300 <= board <= 390, board
            finally:
                b.call("Emulation.clearDeviceMetricsOverride")

        run.check("a phone-sized window: the board fits, no sideways scrolling", phone)

        if shot:

            def screenshot():
                import base64

                b.call(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": 1000, "height": 640, "deviceScaleFactor": 1, "mobile": False},
                )
                run.open()
                run.load(HARD)
                b.wait_for("window.alldiffPage.line() === %r" % HARD)
                run.click("explain")
                b.eval("window.alldiffPage.clickStep(12)")
                data = b.call("Page.captureScreenshot", {"format": "png"})["data"]
                b.call("Emulation.clearDeviceMetricsOverride")
                with open(shot, "wb") as f:
                    f.write(base64.b64decode(data))

            run.check("screenshot written to " + shot, screenshot)

        def clean():
            assert not b.console_errors, b.console_errors
            outside = [u for u in b.requests if not (u.startswith(server.base) or u.startswith(("about:", "data:", "blob:")))]
            assert not outside, outside
            asked = [p for p in server.requested if not p.startswith("/site/")]
            assert not asked, asked
            assert "worker" in b.workers, b.workers

        run.check("no console error; nothing requested outside the page's folder", clean)

        def size():
            import os

            total = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
            assert total < 2_000_000, total
            print("     the site is %d bytes" % total)

        run.check("the site (HTML, JS, CSS, wasm) is under 2 MB", size)
    finally:
        browser.close()
        server.close()
    print("%d passed, %d failed" % (run.passed, run.failed))
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
