"""Results for analysts: pandas DataFrames and compact HTML tables for notebooks.

Every result object (:class:`~guisekit.corpus.RunResult`, :class:`~guisekit.audit.AuditReport`,
:class:`~guisekit.gelbach.GelbachResult`, :class:`~guisekit.gaps.GapsResult`) is a
:class:`Tabular`: it names its tidy rows once (:meth:`Tabular.table_rows`) and gets
``to_frame()`` and ``_repr_html_()`` from them, so the DataFrame and what a notebook shows
can never disagree. pandas is the optional ``frames`` extra, imported only by
``to_frame()``; a missing pandas is a one-line :class:`~guisekit.errors.MissingExtra`.
The HTML needs nothing beyond the standard library and escapes every cell, since ids,
texts and group labels come from user input.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from guisekit.extras import require

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MAX_HTML_ROWS", "Tabular", "html_table", "to_frame"]

MAX_HTML_ROWS = 20
"""Rows a notebook shows before ``... N more rows`` (``to_frame()`` has them all)."""
_MAX_CELL = 80


def to_frame(
    rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None
) -> pd.DataFrame:
    """A DataFrame of ``rows`` (nested values stay Python objects in their cells)."""
    require("frames", feature="to_frame()")
    import pandas as pd

    if columns is None:
        columns = list(dict.fromkeys(key for row in rows for key in row))
    return pd.DataFrame.from_records([dict(row) for row in rows], columns=list(columns))


def _cell(value: Any) -> str:
    from guisekit.console import number

    if value is None:
        text = ""
    elif isinstance(value, bool):
        text = str(value)
    elif isinstance(value, int | float):
        text = number(value)
    elif isinstance(value, Mapping | list | tuple):
        text = f"{len(value)} item{'s' * (len(value) != 1)}"
    else:
        text = str(value)
    if len(text) > _MAX_CELL:
        text = text[: _MAX_CELL - 1] + "…"
    return html.escape(text)


def html_table(
    title: str,
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str] | None = None,
    *,
    max_rows: int = MAX_HTML_ROWS,
) -> str:
    """A compact HTML table: ``title`` as a caption, the first ``max_rows`` rows, numbers
    in the console's one format, nested values as their size, every text escaped."""
    if columns is None:
        columns = list(dict.fromkeys(key for row in rows for key in row))
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for row in rows[:max_rows]:
        cells = "".join(f"<td>{_cell(row.get(c))}</td>" for c in columns)
        body.append(f"<tr>{cells}</tr>")
    more = len(rows) - max_rows
    if more > 0:
        body.append(
            f'<tr><td colspan="{len(columns)}">… {more} more rows (to_frame() has them all)'
            "</td></tr>"
        )
    return (
        f'<table class="guisekit"><caption>{html.escape(title)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


class Tabular:
    """Mixin for result objects: tidy rows -> ``to_frame()`` and ``_repr_html_()``."""

    def table_rows(self) -> list[dict[str, Any]]:
        """The result's tidy rows, one dict per row (what ``to_frame()`` holds)."""
        raise NotImplementedError

    def table_title(self) -> str:
        """One line saying what the rows are (the caption of the notebook table)."""
        return type(self).__name__

    def table_columns(self) -> list[str] | None:
        """The columns shown in a notebook (default: every column)."""
        return None

    def to_frame(self) -> pd.DataFrame:
        """The tidy rows as a pandas DataFrame (needs the ``frames`` extra)."""
        return to_frame(self.table_rows())

    def _repr_html_(self) -> str:
        return html_table(self.table_title(), self.table_rows(), self.table_columns())


def finite(value: Any) -> Any:
    """``value`` with NaN and infinities as None (what a table cell shows as blank)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
