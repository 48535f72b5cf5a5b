"""``guisekit attributes``: measure every variant of a corpus, and report what the guises
changed (the manipulation report)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from guisekit.failures import FailureTally, MaxErrorRate, finish, tally

if TYPE_CHECKING:
    from guisekit.attributes import AttributeSet
    from guisekit.llm import ModelRef


def attributes_command(
    corpus: Annotated[
        Path, typer.Argument(help="Corpus file (.jsonl/.csv/.parquet), e.g. corpus.jsonl.")
    ],
    out: Annotated[
        Path,
        typer.Option("--out", help="Attribute table to write (.jsonl, .csv or .parquet)."),
    ],
    engine: Annotated[
        Literal["rules", "llm"],
        typer.Option(help="rules: the objective measures, offline; llm: also LLM-scored ones."),
    ] = "rules",
    model: Annotated[
        str | None,
        typer.Option(
            help="Scorer for --engine llm: openai:NAME, anthropic:NAME or "
            "openai-compatible:NAME@URL (key from the provider's environment variable)."
        ),
    ] = None,
    cache: Annotated[
        Path | None,
        typer.Option(help="LLM answer cache (SQLite); default llm-cache.sqlite beside --out."),
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            min=1,
            help="Answers per score where the provider gives no log-probabilities "
            "(use a temperature above 0 in the model).",
        ),
    ] = 1,
    concurrency: Annotated[int, typer.Option(min=1, help="Concurrent LLM calls.")] = 16,
    attribute_set: Annotated[
        str,
        typer.Option(
            help="Attribute set: complaints, complaints_paper, interviews or a YAML file path."
        ),
    ] = "complaints",
    id_column: Annotated[str, typer.Option(help="Variant id column.")] = "variant_id",
    text_column: Annotated[str, typer.Option(help="Text column.")] = "text",
    source_column: Annotated[str, typer.Option(help="Source id column.")] = "source_id",
    persona_column: Annotated[
        str, typer.Option(help="Column naming each variant's persona (manipulation report).")
    ] = "persona",
    report: Annotated[
        Path | None,
        typer.Option(help="Also write the manipulation report (.jsonl, .csv or .parquet)."),
    ] = None,
    resamples: Annotated[
        int, typer.Option(help="Source-cluster bootstrap resamples for the report's CIs.")
    ] = 2000,
    seed: Annotated[int, typer.Option(min=0, help="Bootstrap seed.")] = 0,
    overwrite: Annotated[bool, typer.Option(help="Replace existing outputs.")] = False,
    max_error_rate: MaxErrorRate = 0.0,
    workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Processes for the objective measures (default: the usable cores); the "
            "table is the same for any number.",
        ),
    ] = None,
) -> None:
    """Measure the style attributes of every variant, one row per variant.

    With --engine llm and --model, every attribute of --attribute-set is also scored by the
    model through the cached, resumable runner: each score in [0, 1] is the expected level
    (low 0, medium 0.5, high 1), from the level token's log-probabilities where the provider
    returns them, else from --samples answers, else the single answer; a `<name>_method`
    column says which.

    With --engine rules (the default) every objective measure is computed offline:
    mean sentence length, Flesch-Kincaid grade, mean |VADER compound| over sentences and
    the rules engine's cue rates (hedges, boosters, contractions, misspellings, register
    and formality markers). Refused or failed variants get empty attributes. When the
    corpus has personas, a manipulation report follows: for each attribute, the share of
    within-source variance the persona explains (eta squared) with a bootstrap CI.

    Exit status: 0 done, 2 bad input, 3 when more than --max-error-rate of the LLM scores
    ended in error or truncated (the table is written; the last line says why).

    **Examples**

        guisekit corpus examples/quickstart.yaml --overwrite

        guisekit attributes out/quickstart/corpus.jsonl --out out/quickstart/attributes.csv

        guisekit attributes corpus.jsonl --out scores.csv --engine llm --model openai:gpt-4o-mini
    """
    from guisekit.extras import require
    from guisekit.outputs import arguments_of

    arguments = arguments_of(attributes_command, locals())
    require("attributes", feature="guisekit attributes")
    if engine == "llm":
        require("llm", feature="guisekit attributes --engine llm")
    from guisekit.attributes import attribute_rows, load_attribute_set, measurable_text
    from guisekit.console import err
    from guisekit.errors import ConfigError
    from guisekit.llm.refs import parse_model
    from guisekit.output_files import OutputFiles
    from guisekit.parallel import chunked, usable_cores
    from guisekit.stages import MEASURE_CHUNK, measure_chunk, run_chunks
    from guisekit.tables import read_rows, write_rows

    if engine == "llm" and model is None:
        raise ConfigError("--engine llm needs --model", hint="e.g. --model openai:gpt-4o-mini")
    scorer = parse_model(model) if engine == "llm" and model is not None else None
    if scorer is not None:
        scorer.api_key()  # a missing key is an error before any work
    if resamples < 1:
        raise ConfigError(f"--resamples {resamples}: need at least 1", hint="e.g. --resamples 999")
    attributes = load_attribute_set(attribute_set)
    outputs = OutputFiles(
        (out, report),
        overwrite=overwrite,
        command="attributes",
        arguments=arguments,
        config=attributes.model_dump(mode="json"),
        inputs=(corpus, Path(attribute_set) if Path(attribute_set).is_file() else None),
        models=[] if scorer is None else [{"model": scorer.label, "prompt": _prompt_label()}],
    )
    outputs.check()  # every refusal before any work
    families = attributes.families()
    rows = [
        row
        for _, row in read_rows(
            corpus, required=(id_column, text_column, source_column), id_column=id_column
        )
    ]
    texts = [measurable_text(row, text_column=text_column) for row in rows]
    err.print(f"measuring {sum(t is not None for t in texts)} of {len(rows)} variants")
    objective = run_chunks(
        measure_chunk, list(chunked(texts, MEASURE_CHUNK)), workers=workers or usable_cores()
    )
    scored, failures = (
        _llm_scores(
            texts,
            attributes,
            scorer,
            cache or out.parent / "llm-cache.sqlite",
            samples,
            concurrency,
        )
        if scorer is not None
        else ([None] * len(texts), None)
    )
    table = attribute_rows(rows, [objective, scored], drop_columns=(text_column,))
    measured = [
        (row, {**values, **{k: v.score for k, v in (llm or {}).items() if v is not None}})
        for row, values, llm in zip(rows, objective, scored, strict=True)
        if values is not None and row.get(persona_column) not in (None, "")
    ]
    with outputs:  # the table and the report are published together, with the manifest
        report_rows = _manipulation(
            measured, families, source_column, persona_column, report, resamples, seed
        )
        if report is not None and report_rows is not None:
            write_rows(outputs.path(report), report_rows, overwrite=True)
            outputs.add(report, len(report_rows))
        write_rows(outputs.path(out), table, overwrite=True)
        outputs.add(out, len(table))
        outputs.counts = _status_counts(table, failures)
    err.print(f"attributes: {out}")
    if report is not None:
        err.print(f"manipulation report: {report}")
    if failures is not None:
        finish(failures, max_error_rate)


def _prompt_label() -> str:
    """The scoring prompt and its version (``attribute/score.v2``), for the manifest."""
    from guisekit.attributes.llm import PROMPT
    from guisekit.llm.prompts import load_prompt

    template = load_prompt(PROMPT)
    return f"{template.id}.{template.version_label}"


def _status_counts(table: list[dict[str, Any]], failures: FailureTally | None) -> dict[str, int]:
    """Rows per corpus status (``ok`` where the corpus has no status column), and with
    LLM scores, the scores per status (``llm_ok``, ``llm_error``...)."""
    from collections import Counter

    counts = Counter(str(row.get("status", "ok")) for row in table)
    if failures is not None:
        counts.update({f"llm_{k}": n for k, n in failures.by_status.items()})
    return dict(counts)


def _llm_scores(
    texts: list[str | None],
    attributes: AttributeSet,
    ref: ModelRef,
    cache: Path,
    samples: int,
    concurrency: int,
) -> tuple[list[dict[str, Any] | None], FailureTally]:
    """Each measurable text's LLM scores (attribute -> AttributeScore or None), ``None``
    for texts not measured, and how the scores ended."""
    from guisekit.attributes.llm import score_llm_attributes
    from guisekit.backend import shared_runner
    from guisekit.console import err

    present = [i for i, text in enumerate(texts) if text is not None]
    err.print(
        f"scoring {len(present)} texts on {len(attributes.attributes)} attributes with {ref.label}"
    )
    runner = shared_runner(cache, {"concurrency": concurrency})
    rows = score_llm_attributes(
        [texts[i] or "" for i in present], attributes, runner, ref, samples=samples
    )
    out: list[dict[str, Any] | None] = [None] * len(texts)
    for i, row in zip(present, rows, strict=True):
        out[i] = {item.attribute: item.score for item in row}
    failed = sum(item.score is None for row in rows for item in row)
    if failed:
        err.print(f"{failed} scores could not be made (refused or invalid answers); left empty")
    return out, tally("LLM scores", ((i.status, i.reason) for row in rows for i in row))


def _manipulation(
    measured: list[tuple[dict[str, Any], dict[str, float]]],
    families: Mapping[str, str],
    source_column: str,
    persona_column: str,
    report: Path | None,
    resamples: int,
    seed: int,
) -> list[dict[str, Any]] | None:
    """Print the manipulation report and return its rows, or say why there is none
    (an error when ``report`` asks for one)."""
    from rich.table import Table

    from guisekit.attributes import manipulation_report
    from guisekit.console import err, interval, number, out
    from guisekit.errors import InputError

    personas = {str(row[persona_column]) for row, _ in measured}
    if len(personas) < 2:
        if report is not None:
            raise InputError(
                f"no manipulation report: fewer than two personas in column {persona_column!r}",
                hint="name the persona column with --persona-column",
            )
        err.print(f"no manipulation report: fewer than two personas in {persona_column!r}")
        return None
    # only measures every variant has (an LLM score may be missing for a few)
    names = [n for n in measured[0][1] if all(n in values for _, values in measured)]
    rows = manipulation_report(
        {name: [values[name] for _, values in measured] for name in names},
        [str(row[persona_column]) for row, _ in measured],
        [str(row[source_column]) for row, _ in measured],
        families=families,
        n_resamples=resamples,
        seed=seed,
    )
    first = rows[0]
    table = Table(
        title=f"Manipulation: share of within-source variance explained by persona "
        f"({first.n_obs} variants, {first.n_sources} sources, {first.n_personas} personas)"
    )
    for column in ("attribute", "family", "eta^2", "95% CI"):
        table.add_column(column, justify="left" if column in ("attribute", "family") else "right")
    for r in sorted(rows, key=lambda r: -(r.eta_squared or 0.0)):
        eta = "no within-source variation" if r.eta_squared is None else number(r.eta_squared)
        table.add_row(r.attribute, r.family or "-", eta, interval(r.ci_low, r.ci_high))
    out.print(table)
    return [r.model_dump() for r in rows]
