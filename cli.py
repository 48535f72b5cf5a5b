"""Thin shim: ``python cli.py ARGS`` behaves exactly like ``guisekit ARGS``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))

from guisekit.cli import main

if __name__ == "__main__":
    main()
