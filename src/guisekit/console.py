"""The two consoles every command prints to (results on stdout, progress and notes on
stderr) and the one number format of every console table."""

from __future__ import annotations

import math
import sys

from rich.console import Console

__all__ = ["cell", "err", "interval", "number", "out"]

out = Console(width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True)

_DIGITS = 4
_FIXED_FROM = 1e-3


def number(value: float | int | None) -> str:
    """The one format of numbers in console tables (and notebook tables).

    Whole numbers as they are; other values with 4 significant digits, in fixed notation
    for ``|x| >= 0.001`` and in scientific notation below (``2.702e-04``), so one column
    never mixes ``0.0002702`` with ``-1.854e-05``. Zero is ``0``; None, NaN and
    infinities are ``-``.

    >>> [number(x) for x in (12, 0.5, 12.3456, -0.0002702, 0.0, 1234.5678, None)]
    ['12', '0.5000', '12.35', '-2.702e-04', '0', '1235', '-']
    """
    if value is None or isinstance(value, bool):
        return "-" if value is None else str(value)
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return "-"
    if value == 0:
        return "0"
    if abs(value) < _FIXED_FROM:
        return f"{value:.{_DIGITS - 1}e}"
    rounded = float(f"{value:.{_DIGITS}g}")  # 4 significant digits, then fixed notation
    exponent = math.floor(math.log10(abs(rounded)))
    return f"{value:.{max(0, _DIGITS - 1 - exponent)}f}"


def cell(value: object) -> str:
    """A console table cell: numbers through :func:`number`, None as ``-``, else text."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return number(value)
    return "-" if value is None else str(value)


def interval(low: float | None, high: float | None) -> str:
    """``[low, high]`` in the one number format, ``-`` without bounds."""
    return "-" if low is None or high is None else f"[{number(low)}, {number(high)}]"
