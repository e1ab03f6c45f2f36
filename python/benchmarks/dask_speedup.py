"""14-queens counted on a local Dask cluster of 2 worker processes against one process.

    python python/benchmarks/dask_speedup.py [N] [ROUNDS]

Starts the cluster once (not timed), then alternates ROUNDS (default 3) rounds of
`Model.count()` in this process and `alldiff.dask.count` on the cluster, and prints
the median wall times and their ratio. On a machine where other work holds the
cores, the ratio says more about the machine than about the split: the CPU time of
the one-process count, and the workers' CPU time for the spread one, are printed
beside the wall times to tell (equal CPU times: the split adds no work; a wall time
well above its CPU time: the process waited for a core).
"""

import statistics
import sys
import time


def queens(n):
    import alldiff

    m = alldiff.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    return m


def main() -> None:
    import alldiff.dask
    from distributed import Client, LocalCluster

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 14
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    model = queens(n)
    single, spread, cpu, worker_cpu = [], [], [], []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        client.run(lambda: None)
        alldiff.dask.count(queens(8), client)  # warm the workers
        for _ in range(rounds):
            start, start_cpu = time.perf_counter(), time.process_time()
            a = model.count()
            single.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            before = sum(client.run(time.process_time).values())
            start = time.perf_counter()
            b = alldiff.dask.count(model, client)
            spread.append(time.perf_counter() - start)
            worker_cpu.append(sum(client.run(time.process_time).values()) - before)
            assert a == b, (a, b)
    one, two = statistics.median(single), statistics.median(spread)
    print(f"{n}-queens: {a} solutions; medians of {rounds} rounds")
    print(f"one process: {one:.2f} s (CPU {statistics.median(cpu):.2f} s)")
    print(f"dask, 2 worker processes: {two:.2f} s (CPU of the workers {statistics.median(worker_cpu):.2f} s)")
    print(f"speed-up: {one / two:.2f}x")


if __name__ == "__main__":
    main()
