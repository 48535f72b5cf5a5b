"""The one exception hierarchy of guisekit.

Every error a user can cause or meet derives from :class:`GuisekitError`. The CLI turns
any of them into a one-line message and exit code 2; library callers can catch the root
or a specific subclass and read its structured attributes::

    GuisekitError
    ├── InputError          bad user input: a file, a row, a value
    │   └── SourceError     a corpus row or file that cannot be read (file, line, column)
    ├── ConfigError         a config or spec that does not validate (where, what)
    │   └── MissingExtra    a feature whose optional dependencies are not installed
    ├── ResourceError       a packaged or user lexicon/prompt that is missing or malformed
    └── OutputError         an output that would clobber existing data, or cannot be written
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

_M = TypeVar("_M", bound="BaseModel")

__all__ = [
    "ConfigError",
    "GuisekitError",
    "InputError",
    "MissingExtra",
    "OutputError",
    "ResourceError",
    "SourceError",
    "validate",
]


class GuisekitError(Exception):
    """Root of every error guisekit raises on purpose.

    ``hint`` says how to fix the problem; the CLI prints ``message (hint)`` on one line.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def one_line(self) -> str:
        """The message and hint flattened onto a single line, for terminals and logs."""
        text = self.message if not self.hint else f"{self.message} ({self.hint})"
        return " ".join(text.split())


class InputError(GuisekitError):
    """A value given by the user is unusable (empty text, unknown persona level, ...)."""


class SourceError(InputError):
    """A corpus file or one of its rows cannot be used; says which file and line/row."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        column: str | None = None,
        hint: str | None = None,
    ) -> None:
        where = str(path) if path is not None else "<input>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {message}", hint=hint)
        self.path = None if path is None else Path(path)
        self.line = line
        self.column = column


class ConfigError(GuisekitError):
    """A configuration or spec failed validation; ``location`` says where in it."""

    def __init__(self, message: str, *, location: str | None = None, hint: str | None = None):
        text = f"{location}: {message}" if location else message
        super().__init__(text, hint=hint)
        self.location = location


class MissingExtra(ConfigError):
    """A feature needs an optional extra that is not installed (``pip install
    'guisekit[llm]'``); ``extra`` names it."""

    def __init__(self, extra: str, feature: str):
        super().__init__(
            f"{feature} needs the optional '{extra}' extra, which is not installed",
            hint=f"pip install 'guisekit[{extra}]'",
        )
        self.extra = extra


def validate(model: type[_M], data: Any, *, where: str = "", hint: str | None = None) -> _M:
    """``model`` validated from ``data``; a validation error becomes a one-line
    :class:`ConfigError` located at ``where`` plus the failing field (the first error;
    ``where`` ending in a colon names a file: ``config.yaml: seed``).

    The one conversion of pydantic errors into guisekit errors: configs, settings blocks
    and data files all report through it.
    """
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        # "file.yaml:" + "seed" -> "file.yaml: seed"; "engine" + "runner" -> "engine.runner"
        sep = " " if where.endswith(":") else "."
        location = sep.join(p for p in (where, field) if p).rstrip(":") or None
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ConfigError(message, location=location, hint=hint) from None


class ResourceError(GuisekitError):
    """A lexicon, persona grid or prompt file is missing or malformed."""


class OutputError(GuisekitError):
    """An output cannot be written, or would overwrite data without ``--overwrite``."""
