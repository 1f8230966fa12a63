"""Plain Python types of ccdlab's results (picklable, comparable)."""

from typing import NamedTuple

__all__ = ["Toi"]


class Toi(NamedTuple):
    """The earliest time of impact of a colliding query, as a bracket.

    The true time lies in ``[lower, upper]``; ``lower`` is never later than
    it (the conservative value a simulator should use).
    """

    lower: float
    upper: float
