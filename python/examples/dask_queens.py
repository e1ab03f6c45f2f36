"""Counts the 14-queens solutions on a local Dask cluster of 2 worker processes,
and in this one process, and prints both times.

    pip install './python[dask]'
    python python/examples/dask_queens.py [n]

On a real cluster, replace the LocalCluster with Client("tcp://scheduler:8786").
"""

import sys
import time

import alldiff
import alldiff.dask
from distributed import Client, LocalCluster


def queens(n: int) -> alldiff.Model:
    m = alldiff.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    return m


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 14
    model = queens(n)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        client.run(lambda: None)  # workers up before the clock starts
        start = time.perf_counter()
        spread = alldiff.dask.count(model, client)
        dask_time = time.perf_counter() - start
    start = time.perf_counter()
    single = model.count()
    single_time = time.perf_counter() - start
    assert spread == single, (spread, single)
    print(f"{n}-queens: {spread} solutions")
    print(f"dask, 2 worker processes: {dask_time:.2f} s")
    print(f"one process:              {single_time:.2f} s")
    print(f"speed-up:                 {single_time / dask_time:.2f}x")


if __name__ == "__main__":
    main()
