"""The renderer of the Hinglish transform: noun phrases (:mod:`guisekit.hinglish.nouns`)
and verb phrases, which become an English verb with ``kar`` (``negotiate karna``) or a
Hindi verb (``take`` -> ``lena``), with adverbs, objects and prepositional chains moved
before the verb in Hindi order.
"""

from __future__ import annotations

from collections.abc import Sequence

from guisekit.hinglish.nouns import NounRenderer
from guisekit.hinglish.phrases import NounPhrase, Toks, VerbPhrase, Word, hindi_toks, words_of
from guisekit.hinglish.text import Tok, is_placeholder

__all__ = ["NounPhrase", "Renderer", "VerbPhrase", "Word", "words_of"]

# focus particles go right before the verb they focus
_FOCUS = frozenset({"bhi"})


class Renderer(NounRenderer):
    """Renders the English phrases of one masked sentence in a Hindi frame."""

    def vp(self, words: Sequence[Word], kind: str) -> VerbPhrase | None:
        """A verb phrase whose verb is in English form ``kind`` (base, past, participle,
        third, ing), with adverbs, indirect object, object and prepositional chain."""
        words = self.merge(words)
        before: list[Tok] = []
        i = 0
        while i < len(words) and (size := self._phrase_at(words, i, "adverbs")):
            if self.lex.verb_forms.get(words[i].low, {}).get(kind):
                break
            before.extend(self.tagged(self.adverbs[" ".join(w.low for w in words[i : i + size])]))
            i += size
        entry, size = None, 0
        for n in (3, 2, 1):
            key = " ".join(w.low for w in words[i : i + n])
            if len(words) >= i + n and kind in self.lex.verb_forms.get(key, {}):
                entry, size = self.lex.verb_forms[key][kind], n
                break
        if entry is None:
            return None
        rest = list(words[i + size :])
        after: list[Tok] = []
        while rest and rest[-1].low in self.adverbs and not is_placeholder(rest[-1].text):
            after[:0] = self.tagged(self.adverbs[rest.pop().low])
        iobj: Toks = ()
        if rest and self._object_pronoun(rest):
            iobj = hindi_toks(self.pronouns[rest.pop(0).low][entry.person or "ko"])
        end = next((j for j in range(len(rest)) if self._chain_start(rest, j)), len(rest))
        obj = self.np(rest[:end]) if end else None
        if end and obj is None:
            return None
        chain = self._chain(rest[end:], "m", False, False) if end < len(rest) else ()
        if chain is None:
            return None
        obj_toks: Toks = ()
        if obj is not None:
            marker = entry.person if (obj.person or obj.pronoun is not None) else ""
            obj_toks = (obj.form(marker) if marker else obj.form("direct")) or ()
        adverbs = [t for t in (*before, *after) if t.text not in _FOCUS]
        focus = [t for t in (*before, *after) if t.text in _FOCUS]
        pre = (*adverbs, *chain, *iobj, *obj_toks, *focus)
        return VerbPhrase(pre, entry, obj, self.lex)
