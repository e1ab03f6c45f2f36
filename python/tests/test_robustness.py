"""No input crashes the interpreter or escapes as anything but a Python exception."""

from hypothesis import given, settings
from hypothesis import strategies as st

import alldiff

I32 = st.integers(-(2**31), 2**31 - 1)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_any_text_is_a_puzzle_or_a_value_error(text):
    for call in (alldiff.sudoku.solve, alldiff.sudoku.validate):
        try:
            call(text)
        except ValueError:
            pass


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from("123456789."), min_size=81, max_size=81))
def test_any_grid_solves_or_says_none(cells):
    p = "".join(cells)
    solution = alldiff.sudoku.solve(p)
    if solution is not None:
        assert all(c == "." or c == s for c, s in zip(p, solution))
    assert (solution is None) == (alldiff.sudoku.count(p, limit=1) == 0)


@settings(max_examples=100, deadline=None)
@given(lo=I32, hi=I32, a=I32, c=I32, rhs=I32, values=st.lists(I32, max_size=4))
def test_extreme_numbers_raise_or_work(lo, hi, a, c, rhs, values):
    m = alldiff.Model()
    try:
        x = m.int_var(lo, hi)
        y = m.int_var(-5, 5)
    except ValueError:
        return
    for post in (
        lambda: m.add(a * x + c <= rhs),
        lambda: m.add(a * x - y != rhs),
        lambda: m.all_different([x + c, y]),
        lambda: m.element(values, y, x),
        lambda: m.table([x, y], [values[:2]] if len(values) >= 2 else []),
        lambda: m.times(x, y, x),
        lambda: m.abs(x, y),
    ):
        try:
            post()
        except (ValueError, OverflowError):
            pass
    try:
        m.solve(node_limit=2000)
        m.minimize(x + c, node_limit=2000)
    except (alldiff.Stopped, ValueError, OverflowError):
        pass
