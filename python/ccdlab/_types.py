"""Plain Python types of ccdlab's results (picklable, comparable)."""

from typing import NamedTuple

__all__ = ["Toi"]


class Toi(NamedTuple):
    """The earliest time of impact of a colliding query, as a bracket.

    With the exact solver (the default), the true time lies in
    ``[lower, upper]``, and ``lower`` is never later than it (the
    conservative value a simulator should use). The float baseline
    ``solver="cubic"`` gives no such guarantee: it can miss contacts, and
    its bracket can miss the true time by rounding.
    """

    lower: float
    upper: float
