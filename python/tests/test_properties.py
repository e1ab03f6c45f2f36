"""Hypothesis properties: small random models against brute force."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import alldiff

RELATIONS = ["==", "!=", "<=", ">=", "<", ">"]


def compare(a, rel, b):
    return {"==": a == b, "!=": a != b, "<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b}[rel]


def expr_of(vars_, coefs, const):
    return sum((c * v for c, v in zip(coefs, vars_)), const)


linear = st.tuples(
    st.lists(st.integers(-3, 3), min_size=3, max_size=3),
    st.sampled_from(RELATIONS),
    st.integers(-6, 6),
)


@settings(max_examples=60, deadline=None)
@given(
    domains=st.lists(st.tuples(st.integers(-3, 2), st.integers(0, 3)), min_size=3, max_size=3),
    constraints=st.lists(linear, max_size=3),
    alldiff_offsets=st.one_of(st.none(), st.lists(st.integers(-2, 2), min_size=3, max_size=3)),
)
def test_count_and_solutions_match_brute_force(domains, constraints, alldiff_offsets):
    m = alldiff.Model()
    xs = [m.int_var(lo, lo + width) for lo, width in domains]
    for coefs, rel, rhs in constraints:
        lhs = expr_of(xs, coefs, 0)
        m.add(compare(lhs, rel, rhs) if isinstance(lhs, int) else {
            "==": lhs == rhs, "!=": lhs != rhs, "<=": lhs <= rhs, ">=": lhs >= rhs, "<": lhs < rhs, ">": lhs > rhs,
        }[rel])
    if alldiff_offsets is not None:
        m.all_different([x + o for x, o in zip(xs, alldiff_offsets)])

    def ok(values):
        for coefs, rel, rhs in constraints:
            if not compare(sum(c * v for c, v in zip(coefs, values)), rel, rhs):
                return False
        if alldiff_offsets is not None:
            shifted = [v + o for v, o in zip(values, alldiff_offsets)]
            if len(set(shifted)) != len(shifted):
                return False
        return True

    ranges = [range(lo, lo + width + 1) for lo, width in domains]
    expected = {values for values in itertools.product(*ranges) if ok(values)}
    found = [tuple(s[xs]) for s in m.solutions()]
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert m.count() == len(expected)
    sol = m.solve()
    assert (sol is None) == (not expected)
    if expected:
        objective = expr_of(xs, [1, -2, 3], 0)
        best = m.minimize(objective)
        assert best.objective == min(v[0] - 2 * v[1] + 3 * v[2] for v in expected)
        best = m.maximize(objective)
        assert best.objective == max(v[0] - 2 * v[1] + 3 * v[2] for v in expected)


@settings(max_examples=40, deadline=None)
@given(
    array=st.lists(st.integers(-3, 3), min_size=1, max_size=5),
    tuples=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=6),
)
def test_element_and_table_match_brute_force(array, tuples):
    m = alldiff.Model()
    i, v = m.int_var(-1, 6), m.int_var(-4, 4)
    m.element(array, i, v)
    expected = {(k, array[k]) for k in range(len(array))}
    assert {(s[i], s[v]) for s in m.solutions()} == expected

    m = alldiff.Model()
    x, y = m.int_var(0, 3), m.int_var(0, 3)
    m.table([x, y], tuples)
    assert {(s[x], s[y]) for s in m.solutions()} == set(tuples)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 6), pieces=st.integers(2, 12), order=st.sampled_from(["ascending", "split", "reverse_split", "median"]))
def test_subproblems_partition_the_solutions(n, pieces, order):
    m = alldiff.Model()
    q = m.int_vars(n, 0, n - 1)
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    solver = alldiff.Solver(m, value_order=order)
    total = 0
    seen = set()
    branches = set()
    for decisions in solver.subproblems(pieces):
        branches |= {b for _, b, _ in decisions}
        part = alldiff.Solver(m, value_order=order)
        part.assume(decisions)
        sols = [tuple(s[q]) for s in part.solutions()]
        assert not seen & set(sols)
        seen |= set(sols)
        total += part.count()
    assert total == m.count() == len(seen)
    assert branches <= ({"=", "!="} if order in ("ascending", "median") else {"<=", ">"})


@settings(max_examples=30, deadline=None)
@given(rel=st.sampled_from(["==", "!=", "<=", ">="]), rhs=st.integers(-2, 8))
def test_reification_matches_brute_force(rel, rhs):
    m = alldiff.Model()
    x, y = m.int_var(0, 3), m.int_var(0, 3)
    b = m.bool_var()
    m.reify(b, {"==": x + y == rhs, "!=": x + y != rhs, "<=": x + y <= rhs, ">=": x + y >= rhs}[rel])
    found = {(s[x], s[y], s[b]) for s in m.solutions()}
    expected = {(a, c, int(compare(a + c, rel, rhs))) for a in range(4) for c in range(4)}
    assert found == expected
