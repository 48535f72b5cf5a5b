"""Shared steps of the end-to-end tests that run the commands in this process (corpus ->
decide -> gaps / attributes -> gelbach, or ``study``): the CLI call, the small rules-engine
corpus they build, and the ``gelbach`` run that must put the planted age gap on the
planted attribute. One copy, so the tests cannot drift apart on what "the small corpus"
or "the planted attribution" means."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
COMPLAINTS = ROOT / "examples" / "data" / "complaints.jsonl"


def cli(*args: str) -> int:
    """``guisekit ARGS`` in this process, through the console-script entry point (so a
    guisekit error is a one-line message and exit code 2): the exit code."""
    from guisekit.cli import main

    try:
        main(list(args))
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def rules_corpus(*, limit: int, out: Path | str, personas: str = "all", extra: str = "") -> str:
    """A corpus config: the rules engine (seed 0) on the first ``limit`` bundled
    complaints, each as itself and as ``personas`` (every persona of the built-in grid by
    default), then the ``extra`` transforms (YAML list items), written as JSONL to
    ``out``."""
    return (
        f"sources: {{path: {COMPLAINTS}, limit: {limit}}}\n"
        "engine: {name: rules}\n"
        "seed: 0\n"
        "transforms:\n"
        "  - transform: identity\n"
        "  - transform: persona\n"
        f"    personas: {personas}\n"
        f"{extra}"
        f"output: {{dir: {out}, format: jsonl}}\n"
    )


def decide_remedy(corpus: Path, model: str, out: Path, *extra: str) -> Path:
    """``decide`` of the complaint-remedy task on ``corpus`` by ``model`` into ``out``
    (with the ``extra`` options), which must succeed: ``out``."""
    assert (
        cli(
            "decide",
            str(corpus),
            "--task",
            "complaint_remedy",
            "--model",
            model,
            "--out",
            str(out),
            *extra,
        )
        == 0
    )
    return out


def planted_gelbach(attributes: Path, decisions: Path, out: Path) -> pd.DataFrame:
    """``gelbach`` of the age gap (old - young, the other persona axes held fixed) in the
    monetary-action probability of ``decisions``, over four attributes of which the
    planted model reads only ``informal_marker_rate``: the terms (``gelbach.csv``)."""
    args = (
        "gelbach",
        str(attributes),
        "--decisions",
        str(decisions),
        "--outcome",
        "prob_monetary_action",
        "--focal-column",
        "age",
        "--focal-level",
        "old",
        "--base-level",
        "young",
        "--control",
        "geography,education,ses",
        "--attributes",
        "informal_marker_rate,fk_grade,hedge_density,misspelling_rate",
        "--resamples",
        "200",
        "--out",
        str(out),
    )
    assert cli(*args) == 0
    return pd.read_csv(out / "gelbach.csv")


def estimate(terms: pd.DataFrame, term: str) -> float:
    """The estimate of one term of a Gelbach decomposition."""
    return float(terms.loc[terms.term == term, "estimate"].iloc[0])
