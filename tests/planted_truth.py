"""The true persona contrasts of the planted decision model
(guisekit.testing.decision_responder), shared by the gaps tests that recover them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from guisekit.testing.decision_responder import escalation_probability


def true_contrasts(corpus: Path) -> dict[str, float]:
    """The planted contrasts computed from the planted probabilities, same definition."""
    rows = [json.loads(line) for line in corpus.read_text().splitlines()]
    p = {r["variant_id"]: escalation_probability(r["text"]) for r in rows if r["status"] == "ok"}
    out: dict[str, float] = {}
    sources = sorted({r["source_id"] for r in rows})

    def mean(src: str, keep) -> float:
        values = [p[r["variant_id"]] for r in rows if r["source_id"] == src and keep(r)]
        return float(np.mean(values))

    axes = {
        "age": ("young", "old"),
        "ses": ("low", "high"),
        "education": ("high_school", "college"),
    }
    for axis, (ref, focal) in axes.items():
        diffs = [
            mean(s, lambda r, a=axis, f=focal: r.get(a) == f)
            - mean(s, lambda r, a=axis, b=ref: r.get(a) == b)
            for s in sources
        ]
        out[f"{axis}: {focal} - {ref}"] = float(np.mean(diffs))
    out["fact_edit:scale_amounts - identity"] = float(
        np.mean(
            [
                mean(s, lambda r: r["transform"] == "fact_edit:scale_amounts")
                - mean(s, lambda r: r["transform"] == "identity")
                for s in sources
            ]
        )
    )
    return out
