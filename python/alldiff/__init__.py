"""alldiff: a constraint-programming engine with fast all-different propagation.

Build a :class:`Model` (integer variables, linear expressions with Python's
operators, global constraints), then ``solve()``, iterate ``solutions()``,
``count()``, or ``minimize``/``maximize`` an expression::

    import alldiff
    m = alldiff.Model()
    q = m.int_vars(8, 0, 7)
    m.all_different(q)
    m.all_different([v + i for i, v in enumerate(q)])
    m.all_different([v - i for i, v in enumerate(q)])
    assert m.count() == 92

Searches run in Rust with the GIL released; Ctrl-C stops them with
``KeyboardInterrupt``. ``alldiff.sudoku`` holds the Sudoku toolkit and
``alldiff.dask`` spreads one search over a Dask cluster (``pip install alldiff[dask]``).
"""

from . import sudoku
from ._expr import BoolVar, Constraint, IntVar, LinExpr, Literal
from ._model import (
    VALUE_ORDERS,
    VARIABLE_ORDERS,
    Model,
    ModelError,
    Phase,
    Restarts,
    Solution,
    Solver,
    Statistics,
    Stopped,
    Trace,
)

__all__ = [
    "Model",
    "Solver",
    "Solution",
    "Statistics",
    "Phase",
    "Restarts",
    "Trace",
    "IntVar",
    "BoolVar",
    "Literal",
    "LinExpr",
    "Constraint",
    "Stopped",
    "ModelError",
    "VARIABLE_ORDERS",
    "VALUE_ORDERS",
    "sudoku",
]
__version__ = "0.1.0"
