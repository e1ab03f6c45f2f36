"""One search spread over a local Dask cluster of worker processes."""

import pytest

import alldiff

distributed = pytest.importorskip("distributed")
import alldiff.dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def queens(n):
    m = alldiff.Model()
    q = m.int_vars(n, 0, n - 1)
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    return m, q


def test_count_sums_the_subproblems(client):
    m, _ = queens(9)
    assert alldiff.dask.count(m, client) == 352
    assert alldiff.dask.count(m, client, subproblems=3) == 352


def test_solve_finds_a_solution_or_none(client):
    m, q = queens(8)
    sol = alldiff.dask.solve(m, client)
    assert sol is not None
    rows = sol[q]
    assert len(set(rows)) == 8 and len({r + i for i, r in enumerate(rows)}) == 8
    m, _ = queens(3)
    assert alldiff.dask.solve(m, client) is None


def test_optimum_is_the_best_of_the_tasks(client):
    m, q = queens(7)
    best = alldiff.dask.minimize(m, q[0] + 2 * q[6], client)
    assert best.objective == m.minimize(q[0] + 2 * q[6]).objective
    best = alldiff.dask.maximize(m, q[0] - q[1], client)
    assert best.objective == m.maximize(q[0] - q[1]).objective


def test_a_bag_of_puzzles(client):
    import dask.bag as db

    puzzles = [alldiff.sudoku.generate(hints=30, seed=s) for s in range(6)]
    solved = db.from_sequence(puzzles, npartitions=2).map(alldiff.sudoku.solve).compute()
    assert solved == [alldiff.sudoku.solve(p) for p in puzzles]
