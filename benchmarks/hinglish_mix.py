"""How the code-mixing ratio moves the Hindi share of converted Hinglish sentences.

Usage::

    python benchmarks/hinglish_mix.py [SOURCES.jsonl ...] [--seeds 3] [--floor]

Rewrites every source (default: the bundled salary questions, complaints and interview
answers) at mix ratios 0.0, 0.25, 0.5, 0.75 and 1.0 with the rules engine, and prints a
Markdown table: per ratio, the converted sentences (those converted whole: a sentence
with a clause switched to English is left out here); their mean Hindi share (Hindi words
among Hindi and English words, by the tagger: the grammatical frame is Hindi at every
ratio, so this moves within a band); and the *mixable* words written in Hindi: among the
words the ratio governs (content words with a common Hindi equivalent, connectives and
adverbs Hinglish writers also leave in English, verbs with a Hindi and an English
rendering), the share that came out Hindi. Both must rise monotonically with the ratio;
the script exits 1 if either does not.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path
from statistics import fmean, quantiles

from guisekit.hinglish import hindi_share, hinglish_rewrite, tag_words, validate_hinglish
from guisekit.hinglish.lexicon import HinglishLexicon, default_lexicon
from guisekit.specs import HinglishSpec
from guisekit.tables import read_sources

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [
    ROOT / "examples/data/salary_questions_in.jsonl",
    ROOT / "examples/data/complaints.jsonl",
    ROOT / "examples/data/interviews.jsonl",
]
RATIOS = (0.0, 0.25, 0.5, 0.75, 1.0)


def _mixable(lexicon: HinglishLexicon) -> tuple[frozenset[str], frozenset[str]]:
    """Words the ratio governs, on their Hindi side and their English side."""
    hindi: set[str] = set()
    english: set[str] = set()
    for word, entry in lexicon.content.items():
        if entry.hindi and not entry.formal and " " not in word:
            english.update({word, word + "s"})
            hindi.update(entry.hindi.split()[:1])
    grammar = lexicon.grammar
    for word in grammar["keep_english"]:
        for table in ("adverbs", "conjunctions", "openers"):
            if word in grammar[table]:
                english.add(word)
                hindi.update(str(grammar[table][word]).split()[:1])
    for forms in lexicon.verb_forms.values():
        for entry in forms.values():
            if entry.low is not None and entry.english:
                hindi.add(entry.english.split()[0])
                english.add(entry.base)
    # words the frame writes whatever the ratio (templates, verbs without an English
    # rendering: "saal" in "meri age 22 saal hai", "kaam" in "kaam karna")
    fixed: set[str] = set()
    for template in lexicon.templates:
        for frame in template["hi"]:
            fixed.update(re.sub(r"\{[^}]*\}", " ", frame).split())
    for forms in lexicon.verb_forms.values():
        for entry in forms.values():
            if entry.low is None:
                fixed.update(entry.english.split())
    ambiguous = hindi & english
    return frozenset(hindi - ambiguous - fixed), frozenset(english - ambiguous)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also print the 10th percentile Hindi share of texts half or more converted",
    )
    args = parser.parse_args(argv)
    texts = [s.text for path in args.sources for s in read_sources(path)]
    hindi_side, english_side = _mixable(default_lexicon())
    rows = []
    for ratio in RATIOS:
        spec = HinglishSpec(mix_ratio=ratio)
        shares, kept, valid, converted, variants = [], [], 0, 0, 0
        low, high = spec.hindi_band(rules=True)
        good: list[float] = []  # whole-variant shares of texts with half or more converted
        for seed in range(args.seeds):
            for text in texts:
                result = hinglish_rewrite(text, spec, random.Random(seed))
                variants += 1
                valid += validate_hinglish(
                    text,
                    result.text,
                    min_hindi_share=low,
                    max_hindi_share=high,
                    tags=list(result.tags),
                ).passed
                if result.converted_share >= 0.5:
                    good.append(hindi_share(list(result.tags)))
                for sentence in result.sentences:
                    if sentence.status != "converted" or any(
                        t.startswith(("switch.", "frame.")) for t in sentence.templates
                    ):
                        continue  # a clause kept in English would blur the measure
                    converted += 1
                    tags = tag_words(sentence.text)
                    shares.append(hindi_share(tags))
                    words = [w.lower() for w, _ in tags]
                    hindi = sum(w in hindi_side for w in words)
                    english = sum(w in english_side for w in words)
                    if hindi + english:
                        kept.append(hindi / (hindi + english))
        rows.append((ratio, converted, fmean(shares), fmean(kept), valid, variants))
        if args.floor:
            p10 = quantiles(good, n=10)[0]
            print(f"mix {ratio:.2f}: {len(good)} texts half converted; 10th pct share {p10:.3f}")
    print(
        "| mix_ratio | converted sentences | Hindi share | mixable words in Hindi "
        "| valid variants (default band) |"
    )
    print("| --- | --- | --- | --- | --- |")
    for ratio, converted, share, kept, valid, variants in rows:
        print(f"| {ratio:.2f} | {converted} | {share:.3f} | {kept:.3f} | {valid}/{variants} |")
    monotonic = all(
        a < b
        for column in (2, 3)
        for a, b in zip([r[column] for r in rows][:-1], [r[column] for r in rows][1:], strict=True)
    )
    print(f"\nHindi share rises monotonically: {'yes' if monotonic else 'NO'}")
    return 0 if monotonic else 1


if __name__ == "__main__":
    sys.exit(main())
