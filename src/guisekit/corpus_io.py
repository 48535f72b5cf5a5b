"""Deprecated alias of :mod:`guisekit.tables` (the module was renamed: it reads and writes
any table, not only corpora). Kept while open branches merge; import ``guisekit.tables``."""

from guisekit.tables import (
    DEFAULT_MAX_CHARS,
    Format,
    atomic_writer,
    detect_format,
    read_rows,
    read_sources,
    write_rows,
)

__all__ = [
    "DEFAULT_MAX_CHARS",
    "Format",
    "atomic_writer",
    "detect_format",
    "read_rows",
    "read_sources",
    "write_rows",
]
