"""Work per text of fact extraction (or of spaCy's blank tokenizer), for counting
instructions under valgrind, which the load of a shared machine does not move.

Usage (the instructions of N rounds over 200 texts, less those of 0 rounds, / 200):
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
      python benchmarks/facts_instructions.py N [--no-words | --spacy]

``N=0`` runs everything but the timed rounds (imports, warm-up), so the difference of the
``Collected`` totals of ``N=1`` and ``N=0`` is the work of one round. ``--no-words`` times
``extract_facts(text, words=False)`` (no quantities, roles, negators, names); ``--spacy``
times the blank English tokenizer on new texts after a warm-up on others, as the
``ratio`` of ``bench_facts.py`` does (use ``N=1`` there: a second round would time its
cache of the texts it has seen).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import complaint_texts

from guisekit.facts import extract_facts


def main() -> None:
    rounds = int(sys.argv[1])
    mode = sys.argv[2] if len(sys.argv) > 2 else ""
    texts = complaint_texts(200, seed=100)
    if mode == "--spacy":
        import spacy

        tokenizer = spacy.blank("en").tokenizer
        for text in complaint_texts(200, seed=99):
            tokenizer(text)
        for _ in range(rounds):
            for text in texts:
                tokenizer(text)
        return
    words = mode != "--no-words"
    for text in texts[:50]:
        extract_facts(text, words=words)
    for _ in range(rounds):
        for text in texts:
            extract_facts(text, words=words)


if __name__ == "__main__":
    main()
