"""The two consoles every command prints to: results on stdout, progress and notes on stderr."""

from __future__ import annotations

import sys

from rich.console import Console

__all__ = ["err", "out"]

out = Console(width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True)
