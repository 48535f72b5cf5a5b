"""CLI commands beyond the core ones, one module per command, registered in ``guisekit.cli``.

Each module keeps heavy imports inside its command function so ``guisekit --help`` stays fast.
"""

__all__: list[str] = []  # commands are registered in guisekit.cli, not imported from here
