"""The issue's contract, line by line, as a program written only from it would use it."""

import threading
import time

import pytest

import alldiff

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def contract_model():
    m = alldiff.Model()
    x = m.int_var(0, 9, "x")  # lower, upper, optional name
    xs = m.int_vars(8, 0, 7)  # a list of 8 variables
    b = m.bool_var("b")  # usable in linear expressions as 0/1
    m.all_different([x, xs[0]])  # also over expressions with an offset
    m.add(2 * x + xs[0] - 3 <= b)
    return m, x, xs, b


def test_variables():
    m, x, xs, b = contract_model()
    assert isinstance(x, alldiff.IntVar) and x.name == "x" and (x.lb, x.ub) == (0, 9)
    assert isinstance(xs, list) and len(xs) == 8 and all((v.lb, v.ub) == (0, 7) for v in xs)
    assert b.name == "b" and (b.lb, b.ub) == (0, 1)


def test_solve_gives_ints_that_satisfy_the_constraints():
    m, x, xs, b = contract_model()
    sol = m.solve()
    assert sol is not None
    assert all(type(sol[v]) is int for v in [x, b, *xs])
    assert sol[x] != sol[xs[0]]
    assert 2 * sol[x] + sol[xs[0]] - 3 <= sol[b]


def test_solve_none_when_unsatisfiable():
    m = alldiff.Model()
    xs = m.int_vars(3, 0, 1)
    m.all_different(xs)
    assert m.solve() is None


def test_all_different_over_offsets():
    m = alldiff.Model()
    q = m.int_vars(6, 0, 5)
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    assert m.count() == 4


@pytest.mark.parametrize(
    "make, holds",
    [
        (lambda x, y: x + y == 4, lambda a, b: a + b == 4),
        (lambda x, y: x + y != 4, lambda a, b: a + b != 4),
        (lambda x, y: 2 * x < y, lambda a, b: 2 * a < b),
        (lambda x, y: 2 * x <= y, lambda a, b: 2 * a <= b),
        (lambda x, y: x - y > 1, lambda a, b: a - b > 1),
        (lambda x, y: x - y >= 1, lambda a, b: a - b >= 1),
        (lambda x, y: sum([x, y, 1]) == 5, lambda a, b: a + b + 1 == 5),
        (lambda x, y: 3 >= x - 2 * y, lambda a, b: 3 >= a - 2 * b),
    ],
)
def test_every_comparison(make, holds):
    m = alldiff.Model()
    x, y = m.int_var(0, 4, "x"), m.int_var(0, 4, "y")
    m.add(make(x, y))
    found = {(s[x], s[y]) for s in m.solutions()}
    assert found == {(a, b) for a in range(5) for b in range(5) if holds(a, b)}


def test_bool_in_linear_expressions():
    m = alldiff.Model()
    bs = [m.bool_var() for _ in range(4)]
    m.add(sum(bs) == 2)
    assert m.count() == 6


def test_solutions_count_and_iteration_agree():
    m, x, xs, b = contract_model()
    m2 = alldiff.Model()
    ys = m2.int_vars(4, 1, 4)
    m2.all_different(ys)
    sols = list(m2.solutions())
    assert len(sols) == m2.count() == 24
    assert len({tuple(s[ys]) for s in sols}) == 24


def test_minimize_and_maximize():
    m = alldiff.Model()
    x, y = m.int_var(0, 10, "x"), m.int_var(0, 10, "y")
    m.add(2 * x + 3 * y >= 12)
    best = m.minimize(x + y)
    assert best is not None and best[x] + best[y] == 4 and best.objective == 4
    best = m.maximize(x - y)
    assert best[x] - best[y] == 10
    m.add(x + y > 30)
    assert m.minimize(x + y) is None


def test_time_limit_raises_stopped():
    m = alldiff.Model()
    q = m.int_vars(14, 0, 13)
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    start = time.monotonic()
    with pytest.raises(alldiff.Stopped) as stop:
        m.count(time_limit=0.2)
    assert time.monotonic() - start < 5
    assert stop.value.count >= 0
    assert "time limit" in str(stop.value)


def test_sudoku_functions():
    assert alldiff.sudoku.solve(PUZZLE) == SOLUTION
    assert alldiff.sudoku.count(PUZZLE, limit=2) == 1
    assert alldiff.sudoku.count("." * 81, limit=5) == 5
    assert alldiff.sudoku.validate(PUZZLE)
    bad = "11" + PUZZLE[2:]
    problems = alldiff.sudoku.validate(bad)
    assert not problems and "twice" in problems.problems[0]
    assert str(alldiff.sudoku.rate(PUZZLE)) in {"easy", "medium", "hard", "fiendish", "diabolical"}
    p = alldiff.sudoku.generate(hints=30, seed=1)
    assert len(p) == 81 and sum(c != "." for c in p) == 30
    assert p == alldiff.sudoku.generate(hints=30, seed=1)
    assert alldiff.sudoku.count(p, limit=2) == 1
    explanation = alldiff.sudoku.explain(p)
    assert explanation.steps and explanation.solution == alldiff.sudoku.solve(p)
    assert str(explanation)


def test_sudoku_no_solution():
    # Two 1s in a row cannot be completed.
    assert alldiff.sudoku.solve("11" + "." * 79) is None


@pytest.mark.parametrize("text", ["abc", "1" * 80, "x" * 81, ""])
def test_sudoku_bad_text_raises_value_error(text):
    for call in (alldiff.sudoku.solve, alldiff.sudoku.count, alldiff.sudoku.validate, alldiff.sudoku.rate, alldiff.sudoku.explain):
        with pytest.raises(ValueError):
            call(text)


def test_search_releases_the_gil():
    m = alldiff.Model()
    q = m.int_vars(11, 0, 10)
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    try:
        assert m.count() == 2680
    finally:
        done.set()
        t.join()
    assert len(ticks) > 3


def test_rating_reads_as_its_name():
    rating = alldiff.sudoku.rate(PUZZLE)
    assert rating == rating.difficulty and isinstance(rating, str)
    assert rating.nodes >= 0 and rating.failures >= 0
    import pickle

    assert pickle.loads(pickle.dumps(rating)).nodes == rating.nodes
