"""Hindi verb forms and agreement, for the verbs the Hinglish transform writes.

A Hindi verb is a stem (``kar``, ``le``, ``kha ja``); its forms follow the regular
patterns of Hindi morphology, with the irregular forms listed in
``lexicons/hinglish/hindi_verbs.yaml``. Agreeing forms (perfective, habitual, future, the
progressive ``raha``, genitive ``ka``, possessives ``mera``) change with the gender and
number of their controller; a controller of unknown gender (the writer, who is never
assumed to be a man) makes the form unavailable, so a template that would need it does
not apply.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

__all__ = ["VERB_FORMS", "Gender", "VerbForm", "hindi_verb_form", "inflect"]

Gender = Literal["m", "f"]
VerbForm = Literal[
    "stem",
    "inf",
    "obl",
    "subj1",
    "subj",
    "subj_pl",
    "perf",
    "hab",
    "hab_obl",
    "prog",
    "fut",
    "imp",
    "bina",
]
VERB_FORMS: tuple[VerbForm, ...] = get_args(VerbForm)
_AGREEING = frozenset({"perf", "hab", "prog", "fut"})


def inflect(word: str, gender: Gender | None, plural: bool, oblique: bool = False) -> str | None:
    """``word`` (a masculine singular form in -a, or ``hai``) agreeing with a controller;
    None when the controller's gender is unknown and the word would show it."""
    if word == "hai":
        return "hain" if plural else "hai"
    if word == "hoon" or not word.endswith("a"):
        return word
    if gender is None:
        return None
    future = word.endswith(("ega", "oga"))  # karega, hoga: plural karenge, honge
    if gender == "f":
        if word.endswith("iya"):
            return word[:-2]
        return word[:-2] + "ngi" if future and plural else word[:-1] + "i"
    if future:
        return word[:-2] + "nge" if plural else word
    if plural or oblique:
        return word[:-1] + "e"
    return word


def _regular(stem: str, form: VerbForm) -> str:
    vowel = stem[-1] in "aeiou"
    if form == "stem":
        return stem
    if form == "inf":
        return stem + "na"
    if form == "obl":
        return stem + "ne"
    if form == "subj1":
        return stem + "un"
    if form == "subj":  # third person singular: kare, bataye, de
        return stem + ("ye" if stem.endswith(("a", "i")) else "" if vowel else "e")
    if form == "subj_pl":
        return stem + ("yein" if vowel else "ein")
    if form == "perf":
        return stem + ("ya" if vowel else "a")
    if form in ("hab", "hab_obl"):
        return stem + ("ta" if form == "hab" else "te")
    if form == "fut":
        return stem + ("yega" if stem.endswith("a") else "ega")
    if form == "imp":
        return stem + "iye"
    return _regular(stem, "perf")[:-1] + "e"  # bina: the oblique perfective (kiye, khoye)


def hindi_verb_form(
    stem: str,
    form: VerbForm,
    irregular: Mapping[str, Mapping[str, str]],
    gender: Gender | None = "m",
    plural: bool = False,
) -> list[str] | None:
    """The words of ``form`` of a Hindi verb (a compound stem inflects its last word),
    agreeing where the form agrees; None when agreement needs an unknown gender."""
    *prefix, last = stem.split(" ")
    if form == "subj" and plural:
        form = "subj_pl"  # "woh karein": the subjunctive agrees in number only
    if form == "prog":
        words = [*prefix, last, "raha"]
    else:
        listed = irregular.get(last, {})
        base = listed.get(form)
        if base is None and form in ("obl", "hab_obl", "bina"):
            source = listed.get({"obl": "inf", "hab_obl": "hab", "bina": "perf"}[form])
            base = source[:-1] + "e" if source else None
        words = [*prefix, *(base if base is not None else _regular(last, form)).split(" ")]
    if form in _AGREEING:
        agreed = inflect(words[-1], gender, plural)
        if agreed is None:
            return None
        words[-1] = agreed
    return words
