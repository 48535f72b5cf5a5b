"""Hinglish: romanised Hindi-English code-mixing with Hindi as the grammatical frame.

The rules engine's transform (clause templates, casual romanisation with spelling
variants, a code-mixing ratio, per-word language tags) and the validation every Hinglish
variant goes through whichever engine made it (script, exact facts, Hindi share).
"""

from guisekit.hinglish.tagging import hindi_share, tag_words
from guisekit.hinglish.text import LanguageTag
from guisekit.hinglish.transform import HinglishResult, SentenceReport, hinglish_rewrite
from guisekit.hinglish.validate import HinglishValidation, script_problems, validate_hinglish

__all__ = [
    "HinglishResult",
    "HinglishValidation",
    "LanguageTag",
    "SentenceReport",
    "hindi_share",
    "hinglish_rewrite",
    "script_problems",
    "tag_words",
    "validate_hinglish",
]
