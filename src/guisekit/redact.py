"""Keep secrets out of what guisekit returns, stores and logs.

Provider errors sometimes echo the credential they were given, and a reason string is
returned to callers (the standardiser) or stored (a failed item's reason, the answer
cache); every such free-text reason passes through a :class:`Redactor` first.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["REDACTED", "Redactor"]

REDACTED = "[redacted]"
# Names of environment variables that hold credentials: OPENAI_API_KEY, ANTHROPIC_API_KEY,
# GUISEKIT_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD ...
_SECRET_NAME = re.compile(
    r"(?:^|_)(?:API_?KEY|ACCESS_KEY|SECRET|TOKEN|PASSWORD|PASSWD)(?:_|$)", re.IGNORECASE
)
# Shorter values would blank out ordinary words ("true", "1") wherever they occur.
_MIN_SECRET_CHARS = 8


@dataclass(frozen=True)
class Redactor:
    """Replaces each known secret value with ``[redacted]``."""

    secrets: tuple[str, ...] = ()

    @classmethod
    def from_environ(
        cls, environ: Mapping[str, str] | None = None, extra: Iterable[str | None] = ()
    ) -> Redactor:
        """Secrets from credential-named environment variables plus ``extra`` values."""
        env = os.environ if environ is None else environ
        found = {value for name, value in env.items() if _SECRET_NAME.search(name)}
        found.update(value for value in extra if value)
        # Longest first, so a secret containing another is replaced whole.
        kept = sorted((s for s in found if len(s) >= _MIN_SECRET_CHARS), key=len, reverse=True)
        return cls(tuple(kept))

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text
