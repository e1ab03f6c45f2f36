"""Model, Solver, Solution and what a search reports."""

from __future__ import annotations

import html as _html
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _alldiff
from ._expr import BoolVar, Constraint, ExprLike, IntVar, LinExpr, Literal, as_expr

Stopped = _alldiff.Stopped
ModelError = _alldiff.ModelError

#: The variable orders a search may take (see the Rust docs of ``VariableOrder``).
VARIABLE_ORDERS = (
    "input_order",
    "smallest_domain",
    "dom_over_wdeg",
    "largest_domain",
    "smallest_value",
    "largest_value",
    "most_constraints",
    "smallest_domain_most_constraints",
    "smallest_domain_weighted_degree",
    "max_regret",
)
#: The value orders (``random`` draws from the solver's ``seed``).
VALUE_ORDERS = ("ascending", "descending", "random", "middle", "median", "split", "reverse_split", "interval")

_LIMIT_KEYS = ("time_limit", "node_limit", "failure_limit")
_SETUP_KEYS = ("variable_order", "value_order", "seed", "phases", "restarts")


@dataclass(frozen=True)
class Statistics:
    """What the latest search did (restarts included)."""

    nodes: int = 0
    failures: int = 0
    propagations: int = 0
    peak_depth: int = 0
    solutions: int = 0
    restarts: int = 0
    objective: Optional[int] = None
    #: Wall time of the search in seconds.
    solve_time: float = 0.0


class Phase:
    """A search phase: branch on ``vars`` first, in this order, before any later phase."""

    def __init__(
        self,
        vars: Iterable[IntVar],
        variable_order: str = "input_order",
        value_order: str = "ascending",
    ) -> None:
        self.vars = list(vars)
        self.variable_order = variable_order
        self.value_order = value_order

    def _spec(self) -> Tuple[List[int], str, str]:
        return [v.index for v in self.vars], self.variable_order, self.value_order

    def __repr__(self) -> str:
        return f"Phase({len(self.vars)} variables, {self.variable_order!r}, {self.value_order!r})"


class Restarts:
    """A restart policy: the failures allowed before each restart."""

    def __init__(self, kind: str, a: float, b: float = 0.0) -> None:
        self._spec = (kind, float(a), float(b))

    @staticmethod
    def luby(scale: int) -> "Restarts":
        """Luby's sequence times ``scale`` failures."""
        return Restarts("luby", scale)

    @staticmethod
    def geometric(first: int, factor: float) -> "Restarts":
        """``first`` failures, then ``factor`` times more each restart."""
        return Restarts("geometric", first, factor)

    @staticmethod
    def linear(scale: int) -> "Restarts":
        """``scale``, ``2 * scale``, ``3 * scale``, ... failures."""
        return Restarts("linear", scale)

    def __repr__(self) -> str:
        kind, a, b = self._spec
        return f"Restarts.{kind}({int(a)}{', ' + repr(b) if kind == 'geometric' else ''})"


class Solution:
    """A value for every variable: ``sol[x]`` is an ``int``, ``sol[2 * x + y]`` too."""

    __slots__ = ("_values", "_model", "objective", "optimal")

    def __init__(self, model: "Model", values: List[int], objective: Optional[int] = None, optimal: bool = True) -> None:
        self._model = model
        self._values = values
        #: The objective's value, for the answer of ``minimize``/``maximize``.
        self.objective = objective
        #: False when a limit stopped an optimisation before it proved this best.
        self.optimal = optimal

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, (list, tuple)):
            return [self[k] for k in key]
        if isinstance(key, IntVar):
            self._check(key)
            return self._values[key.index]
        if isinstance(key, (LinExpr, int)):
            expr = as_expr(key)
            self._check(expr)
            return expr._constant + sum(c * self._values[v] for v, c in expr._terms.items())
        raise TypeError(f"a solution is indexed by variables and expressions, not {type(key).__name__}")

    def value(self, expr: ExprLike) -> int:
        """The value of a variable or expression."""
        return self[expr]

    def _check(self, expr: LinExpr) -> None:
        if expr._model is not None and expr._model is not self._model:
            raise ValueError("the variable belongs to another model")

    def values(self) -> List[int]:
        """Every variable's value, in the order they were made (auxiliary ones included)."""
        return list(self._values)

    def as_dict(self) -> Dict[str, int]:
        """The values of the model's own variables (not auxiliary ones), by name."""
        return {
            self._model._name(i): v
            for i, v in enumerate(self._values)
            if i not in self._model._aux
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Solution) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(self._values))

    def __repr__(self) -> str:
        items = list(self.as_dict().items())
        shown = ", ".join(f"{k}={v}" for k, v in items[:12])
        more = f", ... ({len(items)} variables)" if len(items) > 12 else ""
        return f"Solution({shown}{more})"


class Trace:
    """A recorded search (JSON Lines at ``path``), shown in a notebook as the trace viewer."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        self.path = os.fspath(path)

    def html(self, max_nodes: int = 200_000) -> str:
        """The trace viewer: one self-contained HTML page of the search tree."""
        return _alldiff.trace_html(self.path, max_nodes)

    def summary(self) -> str:
        """Counts, depths and the busiest constraints, as text."""
        return _alldiff.trace_summary(self.path)

    def _repr_html_(self) -> str:
        # An iframe keeps the viewer's script and style apart from the notebook's.
        page = _html.escape(self.html(max_nodes=20_000), quote=True)
        return f'<iframe srcdoc="{page}" style="width:100%;height:600px;border:0"></iframe>'

    def __repr__(self) -> str:
        return f"Trace({self.path!r})"


def _split_options(options: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    setup = {k: options.pop(k) for k in _SETUP_KEYS if k in options}
    limits = {k: options.pop(k) for k in _LIMIT_KEYS if k in options}
    if options:
        raise TypeError(f"unknown option(s): {', '.join(sorted(options))}")
    return setup, limits


class Solver:
    """Searches a model with chosen orders, phases, restarts and limits.

    ``Model.solve()`` and friends make one with their keyword arguments; make your
    own to reuse a set-up or read :attr:`statistics` after each search. Each search
    starts from the model as it is when the search starts.
    """

    def __init__(
        self,
        model: "Model",
        variable_order: str = "smallest_domain",
        value_order: str = "ascending",
        seed: int = 0,
        phases: Sequence[Phase] = (),
        restarts: Optional[Restarts] = None,
        time_limit: Optional[float] = None,
        node_limit: Optional[int] = None,
        failure_limit: Optional[int] = None,
    ) -> None:
        if variable_order not in VARIABLE_ORDERS:
            raise ValueError(f"unknown variable order {variable_order!r}; one of {', '.join(VARIABLE_ORDERS)}")
        if value_order not in VALUE_ORDERS:
            raise ValueError(f"unknown value order {value_order!r}; one of {', '.join(VALUE_ORDERS)}")
        self.model = model
        self._setup = (
            variable_order,
            value_order,
            seed,
            [p._spec() for p in phases],
            restarts._spec if restarts is not None else None,
        )
        self._limits = (time_limit, node_limit, failure_limit)
        self._statistics = Statistics()
        self._decisions: List[Tuple[int, str, int]] = []

    @property
    def statistics(self) -> Statistics:
        """The statistics of the latest search."""
        return self._statistics

    def _search(self, limits: Dict[str, Any]) -> Any:
        search = _alldiff.Search(self.model._core, self._setup)
        time, nodes, failures = self._limits
        search.limits(
            limits.get("time_limit", time),
            limits.get("node_limit", nodes),
            limits.get("failure_limit", failures),
        )
        if self._decisions:
            search.assume(self._decisions)
        return search

    def _record(self, search: Any) -> None:
        self._statistics = Statistics(**search.statistics())
        self.model._last = self._statistics

    def assume(self, decisions: Iterable[Tuple[int, str, int]]) -> None:
        """Restricts every following search to a subproblem (see :meth:`subproblems`)."""
        self._decisions = [(int(v), str(b), int(x)) for v, b, x in decisions]

    def solve(self, **limits: Any) -> Optional[Solution]:
        """A solution, or ``None`` if there is none; a limit that stops first raises :class:`Stopped`."""
        search = self._search(_only_limits(limits))
        try:
            status, values = search.solve()
        finally:
            self._record(search)
        return Solution(self.model, values) if status == "solved" else None

    def solutions(self, **limits: Any) -> Iterator[Solution]:
        """Every solution, in search order; a limit that stops first raises :class:`Stopped`."""
        search = self._search(_only_limits(limits))
        try:
            while True:
                values = search.next()
                if values is None:
                    return
                yield Solution(self.model, values)
        finally:
            self._record(search)

    def count(self, limit: Optional[int] = None, **limits: Any) -> int:
        """The number of solutions (at most ``limit``); a stop raises :class:`Stopped`
        with ``.count``, the solutions found before it."""
        search = self._search(_only_limits(limits))
        try:
            n, _complete = search.count(limit)
        except Stopped as stop:
            stop.count = stop.args[1] if len(stop.args) > 1 else 0
            stop.args = stop.args[:1]
            raise
        finally:
            self._record(search)
        return n

    def _optimize(self, expr: ExprLike, maximize: bool, limits: Dict[str, Any]) -> Optional[Solution]:
        view = self.model._view(expr)
        search = self._search(_only_limits(limits))
        try:
            status, objective, values, reason = search.optimize(view, maximize)
        finally:
            self._record(search)
        if status == "unsatisfiable":
            return None
        if values is None:
            raise Stopped(reason)
        return Solution(self.model, values, objective, optimal=status == "optimal")

    def minimize(self, expr: ExprLike, **limits: Any) -> Optional[Solution]:
        """The solution with the smallest ``expr`` (``sol.objective``), or ``None`` if
        there is none. A limit that stops the search returns the best so far with
        ``sol.optimal == False``, or raises :class:`Stopped` if none was found."""
        return self._optimize(expr, False, limits)

    def maximize(self, expr: ExprLike, **limits: Any) -> Optional[Solution]:
        """:meth:`minimize`, the larger the better."""
        return self._optimize(expr, True, limits)

    def root_domains(self) -> Optional[List[List[int]]]:
        """Every variable's domain after propagation at the root, without search;
        ``None`` when propagation alone proves there is no solution."""
        search = self._search({})
        return search.root_domains()

    def subproblems(self, n: int) -> List[List[Tuple[int, str, int]]]:
        """About ``n`` subproblems that partition the solutions (the split the Rust
        ``ParallelSolver`` makes), each a list of ``(variable index, branch, value)``
        decisions with branch ``=``, ``!=``, ``<=`` or ``>``."""
        return self._search({}).subproblems(n)

    def trace(
        self,
        path: Union[str, "os.PathLike[str]"],
        count: bool = False,
        limit: Optional[int] = None,
        max_events: Optional[int] = None,
        problem: str = "python model",
    ) -> Trace:
        """Runs a search (``solve``, or ``count`` up to ``limit``) recording it as a
        trace at ``path``; the :class:`Trace` shows as the trace viewer in a notebook."""
        search = self._search({})
        try:
            search.trace(os.fspath(path), problem, count, limit, max_events)
        finally:
            self._record(search)
        return Trace(path)

    def __repr__(self) -> str:
        return f"Solver({self.model!r}, variable_order={self._setup[0]!r}, value_order={self._setup[1]!r})"


def _only_limits(limits: Dict[str, Any]) -> Dict[str, Any]:
    unknown = set(limits) - set(_LIMIT_KEYS)
    if unknown:
        raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
    return limits


def _literal(value: Any) -> Tuple[int, bool]:
    if isinstance(value, Literal):
        return value.var.index, value.negated
    if isinstance(value, IntVar):
        lo, hi = value._model._core.bounds(value.index)  # type: ignore[union-attr]
        if lo < 0 or hi > 1:
            raise ValueError(f"{value.name} is not a 0/1 variable")
        return value.index, False
    raise TypeError(f"expected a Boolean variable or its negation, got {type(value).__name__}")


class Model:
    """Variables with finite integer domains, and constraints over them.

    >>> import alldiff
    >>> m = alldiff.Model()
    >>> x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    >>> m.add(x + y == 3)
    >>> m.add(x < y)
    >>> m.count()
    2
    """

    def __init__(self) -> None:
        self._core = _alldiff.Core()
        # Every call that built the model, replayed by pickling (and so by Dask).
        self._ops: List[Tuple[str, tuple]] = []
        self._aux: set = set()
        # The auxiliary variable made for each expression, reused when it comes again
        # (an objective minimised twice).
        self._defined: Dict[Any, int] = {}
        self._bools: set = set()
        self._last = Statistics()

    # -- building ---------------------------------------------------------------

    def _call(self, method: str, *args: Any) -> Any:
        result = getattr(self._core, method)(*args)
        self._ops.append((method, args))
        return result

    def _name(self, index: int) -> str:
        return self._core.name(index)

    def int_var(self, lo: int, hi: int, name: Optional[str] = None) -> IntVar:
        """A variable taking the values ``lo..=hi``."""
        return IntVar(self, self._call("int_var", lo, hi, name))

    def int_vars(self, n: int, lo: int, hi: int, name: Optional[str] = None) -> List[IntVar]:
        """``n`` variables over ``lo..=hi``, named ``name[0]``, ``name[1]``, ... if ``name`` is given."""
        return [self.int_var(lo, hi, None if name is None else f"{name}[{i}]") for i in range(n)]

    def int_var_from_values(self, values: Iterable[int], name: Optional[str] = None) -> IntVar:
        """A variable taking exactly the given values."""
        return IntVar(self, self._call("var_from_values", list(values), name))

    def bool_var(self, name: Optional[str] = None) -> BoolVar:
        """A 0/1 variable; ``~b`` is its negation."""
        var = BoolVar(self, self._call("int_var", 0, 1, name))
        self._bools.add(var.index)
        return var

    def bool_vars(self, n: int, name: Optional[str] = None) -> List[BoolVar]:
        """``n`` Boolean variables."""
        return [self.bool_var(None if name is None else f"{name}[{i}]") for i in range(n)]

    def _view(self, value: ExprLike) -> Tuple[int, int, int]:
        """``(var, scale, offset)`` for an expression; one of several variables gets
        an auxiliary variable equal to it."""
        expr = as_expr(value)
        if expr._model is not None and expr._model is not self:
            raise ValueError("the expression belongs to another model")
        if len(expr._terms) == 1:
            ((var, coef),) = expr._terms.items()
            return var, coef, expr._constant
        if not expr._terms:
            var = self._call("var_from_values", [expr._constant], None)
            self._aux.add(var)
            return var, 1, 0
        key = (tuple(sorted(expr._terms.items())), expr._constant)
        if key in self._defined:
            return self._defined[key], 1, 0
        lo = hi = expr._constant
        for var, coef in expr._terms.items():
            a, b = self._core.bounds(var)
            lo += min(coef * a, coef * b)
            hi += max(coef * a, coef * b)
        aux = self._call("int_var", lo, hi, None)
        self._aux.add(aux)
        terms = [(c, v) for v, c in expr._terms.items()] + [(-1, aux)]
        self._call("linear", terms, "==", -expr._constant)
        self._defined[key] = aux
        return aux, 1, 0

    def _views(self, values: Iterable[ExprLike]) -> List[Tuple[int, int, int]]:
        return [self._view(v) for v in values]

    def add(self, constraint: Union[Constraint, bool, Iterable[Any]]) -> None:
        """Posts a comparison of linear expressions (``2 * x + y <= z``, ``x != 3``,
        ``sum(xs) == 10``), or each constraint of an iterable of them."""
        if isinstance(constraint, bool):
            if not constraint:
                self._call("fail")
            return
        if isinstance(constraint, Constraint):
            terms, relation, rhs = constraint._linear()
            if constraint.expr._model not in (None, self):
                raise ValueError("the constraint belongs to another model")
            if not terms:
                if not {"==": 0 == rhs, "!=": 0 != rhs, "<=": 0 <= rhs, ">=": 0 >= rhs}[relation]:
                    self._call("fail")
                return
            self._call("linear", terms, relation, rhs)
            return
        if isinstance(constraint, LinExpr):
            raise TypeError("Model.add takes a comparison such as x + y <= 3, not an expression")
        try:
            items = iter(constraint)  # type: ignore[arg-type]
        except TypeError:
            raise TypeError(f"Model.add takes a constraint, got {type(constraint).__name__}") from None
        for item in items:
            self.add(item)

    def all_different(self, exprs: Iterable[ExprLike], strength: str = "value") -> None:
        """The expressions take different values; each may be ``x``, ``x + c`` or
        ``a * x + c`` (others get an auxiliary variable). ``strength`` is ``value``,
        ``hidden_singles``, ``bounds`` or ``domain``."""
        self._call("all_different", self._views(exprs), strength)

    def all_different_system(self, groups: Iterable[Iterable[IntVar]]) -> None:
        """Several groups of variables, each all-different, propagated together
        (naked and hidden singles on all groups at once): the Sudoku solver's
        constraint. Every value must fit one window of 64 values."""
        self._call("all_different_system", [[v.index for v in g] for g in groups])

    def intersection(self, a: Sequence[ExprLike], b: Sequence[ExprLike]) -> None:
        """Two overlapping all-different groups prune each other (a value one group
        can only place in the shared part leaves the rest of the other); post it
        beside ``all_different`` on each group."""
        self._call("intersection", self._views(a), self._views(b))

    def element(self, array: Sequence[ExprLike], index: ExprLike, value: ExprLike) -> None:
        """``value == array[index]``, ``index`` counted from 0; ``array`` of ints or expressions."""
        array = list(array)
        if all(isinstance(a, int) and not isinstance(a, bool) for a in array):
            self._call("element", array, self._view(index), self._view(value))
        else:
            self._call("element_var", self._views(array), self._view(index), self._view(value))

    def table(self, exprs: Sequence[ExprLike], tuples: Iterable[Sequence[int]]) -> None:
        """The expressions take, in order, the values of one of ``tuples``."""
        self._call("table", self._views(exprs), [list(t) for t in tuples])

    def circuit(self, successors: Sequence[ExprLike], offset: int = 0) -> None:
        """``successors[i]`` is the node after ``i`` (numbered from ``offset``) on one
        circuit through every node."""
        self._call("circuit", self._views(successors), offset, False)

    def subcircuit(self, successors: Sequence[ExprLike], offset: int = 0) -> None:
        """:meth:`circuit` where a node may point to itself (left out of the circuit)."""
        self._call("circuit", self._views(successors), offset, True)

    def global_cardinality(self, exprs: Sequence[ExprLike], values: Sequence[int], counts: Sequence[ExprLike]) -> None:
        """``values[i]`` occurs ``counts[i]`` times among ``exprs`` (counts ints or expressions)."""
        counts = list(counts)
        if all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
            self._call("global_cardinality", self._views(exprs), list(values), counts)
        else:
            self._call("global_cardinality_vars", self._views(exprs), list(values), self._views(counts))

    def inverse(self, f: Sequence[ExprLike], g: Sequence[ExprLike], f_offset: int = 0, g_offset: int = 0) -> None:
        """``f[i] == j`` exactly when ``g[j] == i`` (indices from the offsets)."""
        self._call("inverse", self._views(f), f_offset, self._views(g), g_offset)

    def lex_less(self, xs: Sequence[ExprLike], ys: Sequence[ExprLike]) -> None:
        """``xs`` comes strictly before ``ys`` in lexicographic order."""
        self._call("lex", self._views(xs), self._views(ys), True)

    def lex_less_eq(self, xs: Sequence[ExprLike], ys: Sequence[ExprLike]) -> None:
        """``xs`` comes before or equals ``ys`` in lexicographic order."""
        self._call("lex", self._views(xs), self._views(ys), False)

    def disjunctive(self, starts: Sequence[ExprLike], durations: Sequence[int]) -> None:
        """Tasks starting at ``starts`` with ``durations`` never overlap."""
        self._call("disjunctive", self._views(starts), list(durations))

    def cumulative(self, starts: Sequence[ExprLike], durations: Sequence[int], demands: Sequence[int], capacity: int) -> None:
        """At every time the running tasks' demands add up to at most ``capacity``."""
        self._call("cumulative", self._views(starts), list(durations), list(demands), capacity)

    def times(self, x: ExprLike, y: ExprLike, z: ExprLike) -> None:
        """``z == x * y``."""
        self._call("arithmetic", "times", self._view(x), self._view(y), self._view(z))

    def div(self, x: ExprLike, y: ExprLike, z: ExprLike) -> None:
        """``z == x / y``, rounded towards zero."""
        self._call("arithmetic", "div", self._view(x), self._view(y), self._view(z))

    def mod(self, x: ExprLike, y: ExprLike, z: ExprLike) -> None:
        """``z == x % y``, with the sign of ``x`` (as Rust's ``%``)."""
        self._call("arithmetic", "mod", self._view(x), self._view(y), self._view(z))

    def abs(self, x: ExprLike, z: ExprLike) -> None:
        """``z == |x|``."""
        view = self._view(x)
        self._call("arithmetic", "abs", view, view, self._view(z))

    def power(self, x: ExprLike, k: int, z: ExprLike) -> None:
        """``z == x ** k``."""
        self._call("power", self._view(x), k, self._view(z))

    def maximum(self, exprs: Sequence[ExprLike], z: ExprLike) -> None:
        """``z == max(exprs)``."""
        self._call("extremum", self._views(exprs), self._view(z), True)

    def minimum(self, exprs: Sequence[ExprLike], z: ExprLike) -> None:
        """``z == min(exprs)``."""
        self._call("extremum", self._views(exprs), self._view(z), False)

    def abs_difference(self, x: ExprLike, y: ExprLike, z: ExprLike) -> None:
        """``z == |x - y|``."""
        self._call("abs_difference", self._view(x), self._view(y), self._view(z))

    def difference_in(self, x: ExprLike, y: ExprLike, offsets: Iterable[int]) -> None:
        """``x - y`` is one of ``offsets``."""
        self._call("difference_in", self._view(x), self._view(y), list(offsets))

    def add_or(self, literals: Iterable[Any]) -> None:
        """At least one literal (a Boolean variable or ``~b``) is true."""
        self._call("logic", "or", [_literal(l) for l in literals])

    def add_and(self, literals: Iterable[Any]) -> None:
        """Every literal is true."""
        self._call("logic", "and", [_literal(l) for l in literals])

    def add_xor(self, literals: Iterable[Any]) -> None:
        """An odd number of the literals are true."""
        self._call("logic", "xor", [_literal(l) for l in literals])

    def add_implication(self, a: Any, b: Any) -> None:
        """``a -> b`` over literals."""
        self._call("implies", _literal(a), _literal(b))

    def reify_or(self, target: Any, literals: Iterable[Any]) -> None:
        """``target <-> (l1 or l2 or ...)``."""
        self._call("reify_logic", "or", _literal(target), [_literal(l) for l in literals])

    def reify_and(self, target: Any, literals: Iterable[Any]) -> None:
        """``target <-> (l1 and l2 and ...)``."""
        self._call("reify_logic", "and", _literal(target), [_literal(l) for l in literals])

    def _condition(self, constraint: Constraint) -> Tuple[str, list, str, int, list]:
        terms, relation, rhs = constraint._linear()
        if not terms:
            raise ValueError("the condition has no variables")
        return ("linear", [(c, v) for c, v in terms], relation, rhs, [])

    def reify(self, b: Any, constraint: Constraint) -> None:
        """``b <-> constraint``: ``b`` is 1 exactly when the comparison holds."""
        self._call("reify", _literal(b), self._condition(constraint), True)

    def add_implied(self, b: Any, constraint: Constraint) -> None:
        """``b -> constraint`` (half reification): a true ``b`` enforces it."""
        self._call("reify", _literal(b), self._condition(constraint), False)

    def reify_in(self, b: Any, x: IntVar, values: Iterable[int], negate: bool = False) -> None:
        """``b <-> x in values`` (``not in`` with ``negate``)."""
        kind = "not_in" if negate else "in"
        self._call("reify", _literal(b), (kind, [(1, x.index)], "==", 0, list(values)), True)

    # -- searching --------------------------------------------------------------

    def solver(self, **options: Any) -> Solver:
        """A :class:`Solver` for this model with the given options."""
        return Solver(self, **options)

    def _solver(self, options: Dict[str, Any]) -> Tuple[Solver, Dict[str, Any]]:
        setup, limits = _split_options(dict(options))
        return Solver(self, **setup), limits

    def solve(self, **options: Any) -> Optional[Solution]:
        """A solution, or ``None`` when the model has none. Options: ``time_limit``
        (seconds), ``node_limit``, ``failure_limit`` (a stop raises :class:`Stopped`),
        and the :class:`Solver` options."""
        solver, limits = self._solver(options)
        return solver.solve(**limits)

    def solutions(self, **options: Any) -> Iterator[Solution]:
        """Every solution, one at a time."""
        solver, limits = self._solver(options)
        return solver.solutions(**limits)

    def count(self, limit: Optional[int] = None, **options: Any) -> int:
        """The number of solutions (at most ``limit``)."""
        solver, limits = self._solver(options)
        return solver.count(limit, **limits)

    def minimize(self, expr: ExprLike, **options: Any) -> Optional[Solution]:
        """The solution with the smallest ``expr``, or ``None``."""
        solver, limits = self._solver(options)
        return solver.minimize(expr, **limits)

    def maximize(self, expr: ExprLike, **options: Any) -> Optional[Solution]:
        """The solution with the largest ``expr``, or ``None``."""
        solver, limits = self._solver(options)
        return solver.maximize(expr, **limits)

    @property
    def statistics(self) -> Statistics:
        """The statistics of the latest search made through this model."""
        return self._last

    @property
    def num_vars(self) -> int:
        """The number of variables, auxiliary ones included."""
        return self._core.var_count()

    @property
    def num_constraints(self) -> int:
        """The number of constraints posted."""
        return self._core.constraint_count()

    def var(self, index: int) -> IntVar:
        """The variable made ``index``-th."""
        if not 0 <= index < self.num_vars:
            raise IndexError(f"no variable #{index} in this model")
        return BoolVar(self, index) if index in self._bools else IntVar(self, index)

    # -- copying and pickling ---------------------------------------------------

    def __getstate__(self) -> Dict[str, Any]:
        return {"ops": self._ops, "aux": self._aux, "bools": self._bools}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]
        for method, args in state["ops"]:
            self._call(method, *args)
        self._aux = set(state["aux"])
        self._bools = set(state["bools"])

    def copy(self) -> "Model":
        """An independent copy (the same variables by index)."""
        clone = Model.__new__(Model)
        clone.__setstate__(self.__getstate__())
        return clone

    def __repr__(self) -> str:
        return f"Model({self.num_vars} variables, {self.num_constraints} constraints)"
