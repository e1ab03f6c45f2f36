"""The rest of the library from Python: globals, logic, search set-up, errors,
pickling, traces."""

import pickle

import pytest

import alldiff


def queens(n):
    m = alldiff.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    return m, q


def test_names_and_repr():
    m, q = queens(4)
    assert q[2].name == "q[2]"
    assert "q[0]" in repr(m.solve())
    assert repr(q[0]) == "IntVar('q[0]', 0..3)"
    assert "q[0]" in repr(q[0] + 2 * q[1] <= 3)


def test_circuit():
    m = alldiff.Model()
    succ = m.int_vars(5, 0, 4)
    m.circuit(succ)
    assert m.count() == 24  # (5 - 1)! Hamiltonian cycles


def test_global_cardinality_and_scheduling():
    m = alldiff.Model()
    xs = m.int_vars(4, 1, 3)
    m.global_cardinality(xs, [1, 2, 3], [2, 1, 1])
    assert m.count() == 12
    m = alldiff.Model()
    starts = m.int_vars(3, 0, 5)
    m.disjunctive(starts, [2, 2, 2])
    for s in m.solutions():
        spans = sorted((s[v], s[v] + 2) for v in starts)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    m = alldiff.Model()
    starts = m.int_vars(3, 0, 3)
    m.cumulative(starts, [2, 2, 2], [1, 1, 1], 2)
    assert m.count() > 0


def test_arithmetic_and_logic():
    m = alldiff.Model()
    x, y, z = m.int_var(-3, 3), m.int_var(-3, 3), m.int_var(-9, 9)
    m.times(x, y, z)
    assert all(s[x] * s[y] == s[z] for s in m.solutions())
    m = alldiff.Model()
    a, b, c = m.bool_var("a"), m.bool_var("b"), m.bool_var("c")
    m.add_or([a, ~b])
    m.add_implication(a, c)
    m.add_xor([b, c])
    for s in m.solutions():
        assert s[a] or not s[b]
        assert not s[a] or s[c]
        assert (s[b] + s[c]) % 2 == 1
    assert m.count() == 2


def test_phases_restarts_orders_and_statistics():
    m, q = queens(8)
    solver = alldiff.Solver(
        m,
        variable_order="dom_over_wdeg",
        value_order="random",
        seed=3,
        phases=[alldiff.Phase(q[:4], "input_order", "descending")],
        restarts=alldiff.Restarts.luby(10),
    )
    assert solver.count() == 92
    stats = solver.statistics
    assert stats.nodes > 0 and stats.solutions == 92
    with pytest.raises(ValueError):
        alldiff.Solver(m, variable_order="nope")


def test_node_limit_stops():
    m, q = queens(10)
    with pytest.raises(alldiff.Stopped):
        m.solve(node_limit=1, variable_order="input_order")
    with pytest.raises(alldiff.Stopped):
        list(m.solutions(node_limit=5))


def test_errors_are_python_exceptions():
    m = alldiff.Model()
    with pytest.raises(alldiff.ModelError):
        m.int_var(5, 1)
    with pytest.raises(ValueError):
        m.int_var(5, 1)
    x = m.int_var(0, 3)
    with pytest.raises(ValueError):
        m.element([], x, x)
    with pytest.raises(TypeError):
        m.add(x + 1)
    with pytest.raises(TypeError):
        x * x
    other = alldiff.Model()
    y = other.int_var(0, 3)
    with pytest.raises(ValueError):
        x + y
    with pytest.raises(ValueError):
        other.solve()[x]
    with pytest.raises(OverflowError):
        m.int_var(0, 2**40)
    with pytest.raises(TypeError):
        m.solve(bogus=1)


def test_pickle_replays_the_model():
    m, q = queens(6)
    clone = pickle.loads(pickle.dumps(m))
    assert clone.count() == 4
    q2 = pickle.loads(pickle.dumps(q))
    assert q2[0].model.count() == 4
    copy = m.copy()
    copy.add(copy.var(q[0].index) == 1)
    assert copy.count() == 1 and m.count() == 4


def test_trace_and_viewer(tmp_path):
    m, q = queens(5)
    solver = alldiff.Solver(m)
    trace = solver.trace(tmp_path / "t.jsonl", count=True)
    page = trace._repr_html_()
    assert page.startswith("<iframe") and "DOCTYPE" in page
    assert trace.html().startswith("<!DOCTYPE html>")
    assert trace.summary()


def test_an_expression_gets_one_auxiliary_variable():
    m = alldiff.Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    m.add(x < y)
    first = m.minimize(x + 2 * y)
    size = m.num_vars
    again = m.minimize(x + 2 * y)
    assert m.num_vars == size and first.objective == again.objective == 2
    assert m.count() == 6
    assert set(first.as_dict()) == {"x", "y"}


def test_all_different_relatives_and_root_domains():
    m = alldiff.Model()
    cells = m.int_vars(4, 1, 4)
    m.all_different_system([cells[:2], cells[2:], [cells[0], cells[2]], [cells[1], cells[3]]])
    brute = sum(
        1
        for a in range(1, 5)
        for b in range(1, 5)
        for c in range(1, 5)
        for d in range(1, 5)
        if a != b and c != d and a != c and b != d
    )
    assert m.count() == brute
    m = alldiff.Model()
    x = m.int_var(0, 9)
    m.add(x >= 7)
    m.add(x != 8)
    assert alldiff.Solver(m).root_domains()[x.index] == [7, 9]
    m.add(x < 7)
    assert alldiff.Solver(m).root_domains() is None
    m = alldiff.Model()
    row, box = m.int_vars(3, 1, 3), m.int_vars(2, 1, 3)
    m.all_different(row)
    m.all_different([row[0], *box])
    m.intersection(row, [row[0], *box])
    assert m.count() == 6 * 2
