"""Validation of a Hinglish variant, whichever engine made it.

Four checks, each failure reported with what went wrong:

- script: only Latin letters (or Latin and Devanagari when Devanagari was asked for);
- facts: the exact fact check (:func:`guisekit.facts.check_facts`) passes against the
  original;
- mix: the share of Hindi-tagged words lies within the requested band;
- roles: every number keeps its role, sentence by sentence (from/to of a change, a count;
  :mod:`guisekit.hinglish.roles`).

A variant that fails any check is not ``ok``: the corpus runner makes it an ``error`` row
with these failures as its reason.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Literal

from guisekit.facts import check_facts
from guisekit.hinglish.roles import role_problems
from guisekit.hinglish.tagging import hindi_share, tag_words
from guisekit.hinglish.text import LanguageTag

__all__ = ["HinglishValidation", "script_problems", "validate_hinglish"]

Script = Literal["latin", "devanagari"]
_ALLOWED = {"latin": ("LATIN",), "devanagari": ("LATIN", "DEVANAGARI")}
_SHOWN = 5


@dataclass(frozen=True)
class HinglishValidation:
    """Outcome of validating one Hinglish variant; ``failures`` says what failed."""

    script_ok: bool
    facts_ok: bool
    mix_ok: bool
    hindi_share: float
    band: tuple[float, float]
    failures: tuple[str, ...]
    roles_ok: bool = True

    @property
    def passed(self) -> bool:
        return self.script_ok and self.facts_ok and self.mix_ok and self.roles_ok

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "script_ok": self.script_ok,
            "facts_ok": self.facts_ok,
            "mix_ok": self.mix_ok,
            "roles_ok": self.roles_ok,
            "hindi_share": self.hindi_share,
            "band": list(self.band),
            "failures": list(self.failures),
        }


def script_problems(text: str, script: Script = "latin") -> list[str]:
    """Letters (and digits) written in a script other than those ``script`` allows, each
    once, as ``'क' (DEVANAGARI)``."""
    allowed = _ALLOWED[script]
    found: dict[str, str] = {}
    for char in text:
        if not (char.isalpha() or char.isdigit() or unicodedata.category(char) in ("Mn", "Mc")):
            continue
        if char.isascii():
            continue
        name = unicodedata.name(char, "UNKNOWN")
        if not name.startswith(allowed) and char not in found:
            found[char] = name.split(" ")[0]
    return [f"{char!r} ({script_name})" for char, script_name in found.items()]


def validate_hinglish(
    original: str,
    rewrite: str,
    *,
    script: Script = "latin",
    min_hindi_share: float = 0.0,
    max_hindi_share: float = 1.0,
    tags: list[tuple[str, LanguageTag]] | None = None,
) -> HinglishValidation:
    """Validate ``rewrite`` as a Hinglish variant of ``original``.

    ``tags`` are the rewrite's per-word language tags when the engine knows them (the
    rules engine does); otherwise the rewrite is tagged with :func:`tag_words`.
    """
    failures: list[str] = []
    problems = script_problems(rewrite, script)
    if problems:
        allowed = " or ".join(s.title() for s in _ALLOWED[script])
        failures.append(
            f"script: {allowed} only, found "
            + ", ".join(problems[:_SHOWN])
            + (f" and {len(problems) - _SHOWN} more" if len(problems) > _SHOWN else "")
        )
    facts = check_facts(original, rewrite)
    if not facts.passed:
        failures.append(
            "facts: " + "; ".join(d.describe() for d in facts.discrepancies if d.severity == "fail")
        )
    share = hindi_share(tags if tags is not None else tag_words(rewrite))
    mix_ok = min_hindi_share <= share <= max_hindi_share
    if not mix_ok:
        failures.append(
            f"mix: Hindi share {share:.2f} outside [{min_hindi_share:.2f}, {max_hindi_share:.2f}]"
        )
    roles = role_problems(original, rewrite)
    if roles:
        failures.append("roles: " + "; ".join(roles[:_SHOWN]))
    return HinglishValidation(
        not problems,
        facts.passed,
        mix_ok,
        share,
        (min_hindi_share, max_hindi_share),
        tuple(failures),
        not roles,
    )
