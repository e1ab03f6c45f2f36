"""One search spread over a Dask cluster (``pip install alldiff[dask]``).

The model is split by the engine's own splitting (the one the Rust
``ParallelSolver`` uses) into subproblems that partition its solutions; each is a
list of decisions, so a task is small and picklable: the model (pickled as the
calls that built it, scattered once to every worker) plus one decision list. Each
task rebuilds the model, assumes its decisions and searches; the answers are
combined here: counts summed, the first solution found taken, the best objective
of all kept. When optimising, the best objective found so far is shared through a
Dask ``Variable``: each task starts bounded by it, so later tasks prune more.

The same code runs on a real cluster: pass ``Client("tcp://scheduler:8786")``
instead of a local one. Batches of puzzles need no splitting: map
``alldiff.sudoku.solve`` over a bag or dataframe of lines (see ``docs/python.md``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ._expr import ExprLike
from ._model import Model, Solution, Solver, _split_options

try:  # pragma: no cover - exercised only with the extra installed
    from distributed import Client, get_client
except ImportError as error:  # pragma: no cover
    raise ImportError("alldiff.dask needs Dask: pip install 'alldiff[dask]'") from error

__all__ = ["subproblems", "count", "solve", "minimize", "maximize"]

Decisions = List[Tuple[int, str, int]]

#: Subproblems per worker thread unless told otherwise, as the Rust parallel solver.
SUBPROBLEMS_PER_THREAD = 30


def _client(client: Optional[Client]) -> Client:
    return client if client is not None else get_client()


def _threads(client: Client) -> int:
    return max(1, sum(client.nthreads().values()))


def subproblems(model: Model, n: int, **options: Any) -> List[Decisions]:
    """About ``n`` subproblems of ``model``'s search (with the given Solver options)."""
    setup, _limits = _split_options(dict(options))
    return Solver(model, **setup).subproblems(n)


def _count_task(model: Model, setup: Dict[str, Any], limits: Dict[str, Any], decisions: Decisions) -> int:
    solver = Solver(model, **setup)
    solver.assume(decisions)
    return solver.count(**limits)


def _solve_task(model: Model, setup: Dict[str, Any], limits: Dict[str, Any], decisions: Decisions) -> Optional[List[int]]:
    solver = Solver(model, **setup)
    solver.assume(decisions)
    solution = solver.solve(**limits)
    return None if solution is None else solution.values()


def _optimize_task(
    model: Model,
    setup: Dict[str, Any],
    limits: Dict[str, Any],
    decisions: Decisions,
    objective: Tuple[int, int, int],
    maximize: bool,
    shared: str,
) -> Optional[Tuple[int, List[int], bool]]:
    from distributed import Lock, Variable

    best_so_far = Variable(shared)
    try:
        bound = best_so_far.get(timeout=0)
    except Exception:  # not set yet: no task has finished with a solution
        bound = None
    # The scattered model is shared by the worker's tasks: bound a copy of it.
    local = model.copy() if bound is not None else model
    var, scale, offset = objective
    expr = local.var(var) * scale + offset
    if bound is not None:
        local.add(expr > bound if maximize else expr < bound)
    solver = Solver(local, **setup)
    solver.assume(decisions)
    best = solver.maximize(expr, **limits) if maximize else solver.minimize(expr, **limits)
    if best is None:
        return None
    with Lock(shared):
        try:
            current = best_so_far.get(timeout=0)
        except Exception:
            current = None
        if current is None or (best.objective > current if maximize else best.objective < current):
            best_so_far.set(best.objective)
    return best.objective, best.values()[: model.num_vars], best.optimal


def _spread(model: Model, options: Dict[str, Any], client: Optional[Client], n: Optional[int]):  # type: ignore[no-untyped-def]
    client = _client(client)
    setup, limits = _split_options(dict(options))
    parts = Solver(model, **setup).subproblems(n or SUBPROBLEMS_PER_THREAD * _threads(client))
    shared = client.scatter(model, broadcast=True, hash=False)
    return client, shared, setup, limits, parts


def count(model: Model, client: Optional[Client] = None, subproblems: Optional[int] = None, **options: Any) -> int:
    """The number of solutions, counted as one task per subproblem on ``client``
    (the current Dask client if ``None``); options as :meth:`Model.count` (limits
    apply to each task)."""
    client, shared, setup, limits, parts = _spread(model, options, client, subproblems)
    futures = client.map(_count_task, [shared] * len(parts), [setup] * len(parts), [limits] * len(parts), parts, pure=False)
    return sum(client.gather(futures))


def solve(model: Model, client: Optional[Client] = None, subproblems: Optional[int] = None, **options: Any) -> Optional[Solution]:
    """A solution (the first a task finds; the other tasks are cancelled), or ``None``."""
    from distributed import as_completed

    client, shared, setup, limits, parts = _spread(model, options, client, subproblems)
    futures = client.map(_solve_task, [shared] * len(parts), [setup] * len(parts), [limits] * len(parts), parts, pure=False)
    for future in as_completed(futures):
        values = future.result()
        if values is not None:
            client.cancel(futures)
            return Solution(model, values)
    return None


def _optimize(model: Model, expr: ExprLike, maximize: bool, client: Optional[Client], n: Optional[int], options: Dict[str, Any]) -> Optional[Solution]:
    import uuid

    from distributed import Variable

    objective = model._view(expr)
    client, shared, setup, limits, parts = _spread(model, options, client, n)
    k = len(parts)
    # The best objective any task has found: each task starts bounded by it.
    name = f"alldiff-best-{uuid.uuid4().hex}"
    futures = client.map(
        _optimize_task,
        [shared] * k,
        [setup] * k,
        [limits] * k,
        parts,
        [objective] * k,
        [maximize] * k,
        [name] * k,
        pure=False,
    )
    best: Optional[Tuple[int, List[int], bool]] = None
    optimal = True
    try:
        for found in client.gather(futures):
            if found is None:
                continue
            optimal = optimal and found[2]
            if best is None or (found[0] > best[0] if maximize else found[0] < best[0]):
                best = found
    finally:
        Variable(name, client=client).delete()
    if best is None:
        return None
    return Solution(model, best[1], best[0], optimal=optimal)


def minimize(model: Model, expr: ExprLike, client: Optional[Client] = None, subproblems: Optional[int] = None, **options: Any) -> Optional[Solution]:
    """The solution with the smallest ``expr``: each task finds its subproblem's
    best, the best of them wins."""
    return _optimize(model, expr, False, client, subproblems, options)


def maximize(model: Model, expr: ExprLike, client: Optional[Client] = None, subproblems: Optional[int] = None, **options: Any) -> Optional[Solution]:
    """:func:`minimize`, the larger the better."""
    return _optimize(model, expr, True, client, subproblems, options)
