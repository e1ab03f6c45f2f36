"""Variables and linear expressions, with Python's operators.

``2 * x + y - 3`` is a :class:`LinExpr`; comparing two expressions (``<=``, ``==``,
...) gives a :class:`Constraint`, which :meth:`alldiff.Model.add` posts. Each
expression belongs to the model whose variables it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterable, Optional, Tuple, Union

if TYPE_CHECKING:  # pragma: no cover
    from ._model import Model

__all__ = ["IntVar", "BoolVar", "Literal", "LinExpr", "Constraint", "ExprLike"]


class LinExpr:
    """``sum(coef * var) + constant`` over the variables of one model."""

    __slots__ = ("_model", "_terms", "_constant")

    def __init__(self, model: Optional["Model"], terms: Dict[int, int], constant: int) -> None:
        self._model = model
        self._terms = {v: c for v, c in terms.items() if c != 0}
        self._constant = constant

    @property
    def terms(self) -> Dict[int, int]:
        """The coefficient of each variable, by variable index."""
        return dict(self._terms)

    @property
    def constant(self) -> int:
        """The constant term."""
        return self._constant

    def _combine(self, other: "ExprLike", sign: int) -> "LinExpr":
        other = as_expr(other)
        model = _same_model(self._model, other._model)
        terms = dict(self._terms)
        for var, coef in other._terms.items():
            terms[var] = terms.get(var, 0) + sign * coef
        return LinExpr(model, terms, self._constant + sign * other._constant)

    def __add__(self, other: "ExprLike") -> "LinExpr":
        if not _is_exprlike(other):
            return NotImplemented
        return self._combine(other, 1)

    def __radd__(self, other: "ExprLike") -> "LinExpr":
        # `sum()` starts from 0.
        if not _is_exprlike(other):
            return NotImplemented
        return self._combine(other, 1)

    def __sub__(self, other: "ExprLike") -> "LinExpr":
        if not _is_exprlike(other):
            return NotImplemented
        return self._combine(other, -1)

    def __rsub__(self, other: "ExprLike") -> "LinExpr":
        if not _is_exprlike(other):
            return NotImplemented
        return as_expr(other)._combine(self, -1)

    def __mul__(self, other: int) -> "LinExpr":
        if isinstance(other, bool) or not isinstance(other, int):
            if isinstance(other, (LinExpr, IntVar, Literal)):
                raise TypeError(
                    "alldiff expressions are linear: multiply by an int, or post "
                    "z == x * y with Model.times(x, y, z)"
                )
            return NotImplemented
        return LinExpr(self._model, {v: c * other for v, c in self._terms.items()}, self._constant * other)

    __rmul__ = __mul__

    def __neg__(self) -> "LinExpr":
        return self * -1

    def __pos__(self) -> "LinExpr":
        return self

    # Comparisons make constraints.
    def __eq__(self, other: object) -> "Constraint":  # type: ignore[override]
        if not _is_exprlike(other):
            return NotImplemented
        return Constraint(self - other, "==")  # type: ignore[operator]

    def __ne__(self, other: object) -> "Constraint":  # type: ignore[override]
        if not _is_exprlike(other):
            return NotImplemented
        return Constraint(self - other, "!=")  # type: ignore[operator]

    def __le__(self, other: "ExprLike") -> "Constraint":
        if not _is_exprlike(other):
            return NotImplemented
        return Constraint(self - other, "<=")

    def __lt__(self, other: "ExprLike") -> "Constraint":
        if not _is_exprlike(other):
            return NotImplemented
        return Constraint(self - other + 1, "<=")

    def __ge__(self, other: "ExprLike") -> "Constraint":
        if not _is_exprlike(other):
            return NotImplemented
        return Constraint(self - other, ">=")

    def __gt__(self, other: "ExprLike") -> "Constraint":
        if not _is_exprlike(other):
            return NotImplemented
        return Constraint(self - other - 1, ">=")

    def __hash__(self) -> int:
        return hash((id(self._model), tuple(sorted(self._terms.items())), self._constant))

    def __bool__(self) -> bool:
        raise TypeError("an alldiff expression has no truth value; compare it to build a constraint")

    def _describe(self) -> str:
        parts = []
        for var, coef in self._terms.items():
            name = self._model._name(var) if self._model is not None else f"v{var}"
            if coef == 1:
                parts.append(f"+ {name}")
            elif coef == -1:
                parts.append(f"- {name}")
            elif coef < 0:
                parts.append(f"- {-coef} * {name}")
            else:
                parts.append(f"+ {coef} * {name}")
        if self._constant or not parts:
            parts.append(f"{'-' if self._constant < 0 else '+'} {abs(self._constant)}")
        text = " ".join(parts)
        return text[2:] if text.startswith("+ ") else "-" + text[2:]

    def __repr__(self) -> str:
        return f"LinExpr({self._describe()})"

    def __str__(self) -> str:
        return self._describe()


class IntVar(LinExpr):
    """An integer variable of a :class:`~alldiff.Model`: an expression ``1 * var``.

    Hashable (by model and index), so it can key a dict; ``sol[x]`` reads its value.
    """

    __slots__ = ("index",)

    def __init__(self, model: "Model", index: int) -> None:
        super().__init__(model, {index: 1}, 0)
        self.index = index

    @property
    def name(self) -> str:
        """The name given when it was made, or one made up (``x12``)."""
        return self._model._name(self.index)  # type: ignore[union-attr]

    @property
    def model(self) -> "Model":
        """The model it belongs to."""
        return self._model  # type: ignore[return-value]

    @property
    def lb(self) -> int:
        """The smallest value of its initial domain."""
        return self._model._core.bounds(self.index)[0]  # type: ignore[union-attr]

    @property
    def ub(self) -> int:
        """The largest value of its initial domain."""
        return self._model._core.bounds(self.index)[1]  # type: ignore[union-attr]

    def domain(self) -> list:
        """Every value of its initial domain, ascending."""
        return self._model._core.domain(self.index)  # type: ignore[union-attr]

    def __hash__(self) -> int:
        return hash((id(self._model), self.index))

    def __repr__(self) -> str:
        lo, hi = self._model._core.bounds(self.index)  # type: ignore[union-attr]
        return f"IntVar({self.name!r}, {lo}..{hi})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (_var_of, (self._model, self.index, type(self) is BoolVar))


def _var_of(model: "Model", index: int, boolean: bool) -> "IntVar":
    return BoolVar(model, index) if boolean else IntVar(model, index)


class BoolVar(IntVar):
    """A 0/1 variable: in linear expressions it counts as 0 or 1, ``~b`` is its negation."""

    __slots__ = ()

    def __invert__(self) -> "Literal":
        return Literal(self, True)

    def __repr__(self) -> str:
        return f"BoolVar({self.name!r})"


class Literal(LinExpr):
    """A Boolean variable or its negation ``~b`` (worth ``1 - b`` in an expression)."""

    __slots__ = ("var", "negated")

    def __init__(self, var: BoolVar, negated: bool) -> None:
        if negated:
            super().__init__(var._model, {var.index: -1}, 1)
        else:
            super().__init__(var._model, {var.index: 1}, 0)
        self.var = var
        self.negated = negated

    def __invert__(self) -> "Literal":
        return Literal(self.var, not self.negated)

    def __hash__(self) -> int:
        return hash((id(self._model), self.var.index, self.negated))

    def __repr__(self) -> str:
        return f"~{self.var.name}" if self.negated else self.var.name


ExprLike = Union[LinExpr, int]


class Constraint:
    """``expr <relation> 0``, made by comparing expressions; post it with ``Model.add``.

    The relation is one of ``==``, ``!=``, ``<=``, ``>=`` (``<`` and ``>`` become
    ``<=`` and ``>=`` with the constant moved by one).
    """

    __slots__ = ("expr", "relation")

    def __init__(self, expr: LinExpr, relation: str) -> None:
        self.expr = expr
        self.relation = relation

    def _linear(self) -> Tuple[list, str, int]:
        """``(terms, relation, rhs)``: ``sum(coef * var) relation rhs``."""
        terms = [(coef, var) for var, coef in self.expr._terms.items()]
        return terms, self.relation, -self.expr._constant

    def holds(self, values: Dict[int, int]) -> bool:
        """Whether the constraint holds when each variable index takes ``values[index]``."""
        total = self.expr._constant + sum(c * values[v] for v, c in self.expr._terms.items())
        return {
            "==": total == 0,
            "!=": total != 0,
            "<=": total <= 0,
            ">=": total >= 0,
        }[self.relation]

    def __bool__(self) -> bool:
        # `x == y` as a test (in `list.index`, `in`, dict look-ups) compares structure.
        if self.relation == "==":
            return not self.expr._terms and self.expr._constant == 0
        if self.relation == "!=":
            return bool(self.expr._terms) or self.expr._constant != 0
        raise TypeError("a constraint has no truth value; post it with Model.add")

    def __repr__(self) -> str:
        terms, relation, rhs = self._linear()
        lhs = LinExpr(self.expr._model, self.expr._terms, 0)._describe() if terms else "0"
        return f"Constraint({lhs} {relation} {rhs})"


def _is_exprlike(value: object) -> bool:
    return isinstance(value, LinExpr) or (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, bool)


def as_expr(value: "ExprLike") -> LinExpr:
    """An expression from an expression or an int."""
    if isinstance(value, LinExpr):
        return value
    if isinstance(value, int):
        return LinExpr(None, {}, int(value))
    raise TypeError(f"expected an alldiff expression or an int, got {type(value).__name__}")


def _same_model(a: Optional["Model"], b: Optional["Model"]) -> Optional["Model"]:
    if a is None:
        return b
    if b is None or a is b:
        return a
    raise ValueError("the expression mixes variables of two models")


def exprs(values: Iterable["ExprLike"]) -> list:
    """Each value as an expression."""
    return [as_expr(v) for v in values]
