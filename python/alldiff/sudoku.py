"""Sudoku: solve, count, validate, rate, generate and explain puzzles.

A puzzle is text: one line of 81 characters (``1``-``9``, and ``.`` or ``0`` for an
empty cell) or a grid of rows; 4x4 to 25x25 grids are read as the Rust library
reads them. Text that is not a puzzle raises ``ValueError`` with the library's
message (which says where).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, List, Optional

from . import _alldiff

__all__ = ["solve", "count", "validate", "rate", "generate", "explain", "Validation", "Rating", "Explanation"]


def solve(puzzle: str) -> Optional[str]:
    """The solution as one line, or ``None`` if the puzzle has none. (A puzzle with
    several solutions gives one of them; :func:`count` tells them apart.)"""
    return _alldiff.sudoku_solve(puzzle)


def count(puzzle: str, limit: Optional[int] = None) -> int:
    """The number of solutions, counting at most ``limit``: ``count(p, limit=2) == 1``
    says the solution is unique."""
    return _alldiff.sudoku_count(puzzle, limit)


@dataclass(frozen=True)
class Validation:
    """Whether the clues break a rule: true when they break none.

    ``problems`` lists each repeated digit as ``row 1 has 8 twice: r1c1, r1c5``.
    """

    problems: List[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """No rule is broken (a puzzle may still have no solution)."""
        return not self.problems

    def __bool__(self) -> bool:
        return self.valid

    def __iter__(self) -> Iterator[str]:
        return iter(self.problems)

    def __len__(self) -> int:
        return len(self.problems)


def validate(puzzle: str) -> Validation:
    """The rules the clues break (none: the result is true)."""
    return Validation(_alldiff.sudoku_validate(puzzle))


class Rating(str):
    """A puzzle's grade: the weakest reasoning that solves it without guessing
    (``easy`` < ``medium`` < ``hard`` < ``fiendish`` < ``diabolical``, which needs
    search: ``nodes`` and ``failures`` say how much). It is the grade's name as a
    string (``rate(p) == "hard"``), with the counts as attributes."""

    nodes: int
    failures: int

    def __new__(cls, difficulty: str, nodes: int = 0, failures: int = 0) -> "Rating":
        rating = super().__new__(cls, difficulty)
        rating.nodes = nodes
        rating.failures = failures
        return rating

    @property
    def difficulty(self) -> str:
        """The grade's name."""
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Rating({self.difficulty!r}, nodes={self.nodes}, failures={self.failures})"

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Rating, (self.difficulty, self.nodes, self.failures))


def rate(puzzle: str) -> Rating:
    """The puzzle's grade; ``ValueError`` if it has no solution or several."""
    return Rating(*_alldiff.sudoku_rate(puzzle))


def generate(
    hints: Optional[int] = None,
    seed: int = 0,
    box_size: int = 3,
    symmetry: str = "none",
    minimal: bool = False,
    difficulty: Optional[str] = None,
) -> str:
    """A puzzle with a unique solution, as one line: ``hints`` clues (the size's
    default if ``None``), the same for the same ``seed``. ``symmetry``: none,
    rotate180, rotate90, mirror, flip, diagonal, random; ``difficulty``: a grade
    of :func:`rate` to regenerate until met."""
    puzzle, _solution = _alldiff.sudoku_generate(hints, seed, box_size, symmetry, minimal, difficulty)
    return puzzle


@dataclass(frozen=True)
class Explanation:
    """How a person could solve the puzzle: the steps, each a technique and what
    it places or removes; ``str()`` is the whole text."""

    text: str
    steps: List[str]
    difficulty: str
    guesses: int
    solution: str

    def __str__(self) -> str:
        return self.text

    def __iter__(self) -> Iterator[str]:
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)


def explain(puzzle: str) -> Explanation:
    """The steps that solve the puzzle; ``ValueError`` for a puzzle without a solution."""
    return Explanation(*_alldiff.sudoku_explain(puzzle))
