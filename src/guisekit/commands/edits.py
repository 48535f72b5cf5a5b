"""`guisekit edits`: read randomly drawn edits in context, or write them for judges."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from guisekit.console import err, out
from guisekit.errors import InputError, SourceError

_CONFIG_SUFFIXES = (".yaml", ".yml")


def edits_command(
    corpus: Annotated[
        Path,
        typer.Argument(
            help="A corpus config (YAML; its rules transforms are run in memory) or a corpus "
            "file written by `guisekit corpus` (.jsonl, .csv, .parquet)."
        ),
    ],
    sample: Annotated[int, typer.Option("--sample", min=1, help="Edits to draw.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the draw.")] = 0,
    by: Annotated[
        str,
        typer.Option(help="Stratify by `transform` (family label), `operator`, or `none`."),
    ] = "transform",
    sources_file: Annotated[
        Path | None,
        typer.Option(
            "--sources",
            help="Source file (id, text columns) for a corpus file without identity rows.",
        ),
    ] = None,
    jsonl: Annotated[
        bool, typer.Option("--jsonl", help="One JSON line per edit (for judges) on stdout.")
    ] = False,
    out_file: Annotated[
        Path | None, typer.Option("--out", help="Write the JSON lines to this file instead.")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing --out file.")] = False,
) -> None:
    """Print randomly drawn edits, each alone in its sentence, before and after.

    Every style edit of the corpus (fact-edit controls left out) is a candidate; strata
    (transform families by default) get equal shares of the sample, and each stratum's
    share of all edits is printed (and written with each line) to weight an error rate.
    The same edit made in several guises of a source is shown once. `--jsonl` writes
    operator, transform, label, sentence_before, sentence_after, source_id, variant_id,
    stratum and stratum_share per line: the judging sample of EDIT-JUDGING.

    **Examples**

        guisekit edits examples/quickstart.yaml --sample 30 --seed 1

        guisekit edits out/quickstart/corpus.jsonl --sample 200 --jsonl > sample.jsonl
    """
    from guisekit.outputs import arguments_of

    arguments = arguments_of(edits_command, locals())
    from guisekit.output_files import OutputFiles
    from guisekit.rules.sampling import draw

    if by not in ("transform", "operator", "none"):
        raise InputError(f"--by {by!r} is not a stratum", hint="use transform, operator or none")
    outputs = None
    if out_file is not None:  # every refusal of --out before any work
        outputs = OutputFiles(
            [out_file],
            overwrite=overwrite,
            command="edits",
            arguments=arguments,
            inputs=[corpus, sources_file],
        )
        outputs.check()
    rows, sources = _load(corpus, sources_file)
    drawn, sizes = draw(rows, sources, sample, seed, by)  # type: ignore[arg-type]
    if not sizes:
        raise InputError(
            f"{corpus} holds no style edits",
            hint="rules-engine variants record their edits; LLM rewrites have none",
        )
    lines = [json.dumps(e.to_dict(), ensure_ascii=False) for e in drawn]
    total = sum(sizes.values())
    err.print(
        f"{len(drawn)} of {total} edits drawn (seed {seed}, by {by}); "
        + ", ".join(f"{k} {v} ({v / total:.0%})" for k, v in sorted(sizes.items()))
    )
    if outputs is not None and out_file is not None:
        with outputs:  # the sample and its manifest (seed, strata drawn) together
            outputs.path(out_file).write_text(
                "".join(line + "\n" for line in lines), encoding="utf-8"
            )
            outputs.add(out_file, len(lines))
            outputs.counts = dict(Counter(e.stratum for e in drawn))
        err.print(f"written: {out_file}")
        return
    if jsonl:
        for line in lines:
            print(line)
        return
    for i, edit in enumerate(drawn, 1):
        out.print(
            Text(f"[{i}] {edit.label} · {edit.operator} · {edit.source_id} {edit.variant_id}")
        )
        out.print(Text("  - " + edit.sentence_before, style="red"))
        out.print(Text("  + " + edit.sentence_after, style="green"))


def _load(corpus: Path, sources_file: Path | None) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Variant rows (transform, spec, edits, ids) and source texts by id."""
    from guisekit.tables import read_rows

    if not corpus.exists():
        raise InputError(f"{corpus} does not exist", hint="pass a corpus config or corpus file")
    if corpus.suffix.lower() in _CONFIG_SUFFIXES:
        return _run_config(corpus)
    rows = []
    for line, row in read_rows(corpus, required=("source_id", "variant_id", "transform", "edits")):
        _check_row(row, corpus, line)
        rows.append(row)
    sources = {
        str(row["source_id"]): row["text"]
        for row in rows
        if row["transform"] == "identity" and isinstance(row.get("text"), str)
    }
    if sources_file is not None:
        for _, row in read_rows(sources_file, required=("id", "text"), text_columns=("text",)):
            sources[str(row["id"])] = row["text"]
    missing = {str(r["source_id"]) for r in rows} - set(sources)
    if missing:
        raise InputError(
            f"no source text for {len(missing)} source(s) of {corpus}, e.g. {min(missing)!r}",
            hint="include the identity transform in the corpus or pass --sources FILE",
        )
    return rows, sources


_EDIT_FIELDS = {"operator": str, "start": int, "end": int, "before": str, "after": str}


def _nested(value: Any, column: str, path: Path, line: int) -> Any:
    """A CSV cell's JSON text decoded (CSV keeps nested values as JSON text)."""
    if not isinstance(value, str):
        return value
    if not value.strip():
        return None
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        raise SourceError(
            f"column {column!r} is not JSON ({value[:40]!r})",
            path=path,
            line=line,
            column=column,
            hint="pass the corpus file guisekit corpus wrote, unedited",
        ) from None


def _check_row(row: dict[str, Any], path: Path, line: int) -> None:
    """Decode and check a row's ``spec`` and ``edits`` in place, so that a hand-edited or
    truncated record is a one-line error naming its line, not a traceback in the drawing."""

    def bad(column: str, what: str) -> SourceError:
        return SourceError(
            f"column {column!r} {what}",
            path=path,
            line=line,
            column=column,
            hint="pass the corpus file guisekit corpus wrote, unedited",
        )

    row["spec"] = _nested(row.get("spec"), "spec", path, line)
    if row["spec"] is not None and not isinstance(row["spec"], dict):
        raise bad("spec", f"is {type(row['spec']).__name__}, not a mapping")
    edits = _nested(row["edits"], "edits", path, line)
    if edits is None:
        edits = []
    if not isinstance(edits, list):
        raise bad("edits", f"is {type(edits).__name__}, not a list of edit records")
    for k, edit in enumerate(edits, 1):
        if not isinstance(edit, dict):
            raise bad("edits", f"item {k} is {type(edit).__name__}, not an edit record")
        for key, kind in (*_EDIT_FIELDS.items(), ("step", int)):
            value = edit.get(key, 0 if key == "step" else None)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise bad("edits", f"item {k}: {key}={value!r} is not a {kind.__name__}")
            if isinstance(value, int) and value < 0:
                raise bad("edits", f"item {k}: {key}={value!r} is negative")
    row["edits"] = edits


def _run_config(config: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Run a corpus config's plan in memory (no files written)."""
    from guisekit.corpus import build_plan, load_config
    from guisekit.corpus.run import label_of
    from guisekit.engines import make_engines

    settings = load_config(config)
    engines = make_engines(settings.engine, settings.base)
    plan = build_plan(settings, engines)
    rows: list[dict[str, Any]] = []
    for bank, engine in enumerate(engines):
        tasks = [(plan.sources[t.source_id], t.spec, t.key) for t in plan.tasks if t.bank == bank]
        for variant in engine.run_tasks(tasks, plan.seed):
            rows.append(
                {
                    "source_id": variant.source_id,
                    "variant_id": variant.variant_id,
                    "transform": label_of(variant.spec),
                    "spec": variant.spec.model_dump(),
                    "edits": [e.model_dump() for e in variant.provenance.edits],
                }
            )
    return rows, {sid: source.text for sid, source in plan.sources.items()}
