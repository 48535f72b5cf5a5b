"""``guisekit study STUDY.yaml``: corpus -> (audit) -> decide -> attributes -> gaps -> gelbach
from one config, each stage cached, with a manifest.

A stage is skipped when its key (a hash of its settings, the hashes of its input files and
the package version) matches the one recorded by the previous run and its outputs are
unchanged; ``--rerun`` runs every stage again, which still costs no model calls because the
decide stage reads the answer cache. A failing stage stops the study with a non-zero exit
and is recorded as failed in the manifest. The manifest (``manifest.json``) has the fields
of every command's manifest (:func:`guisekit.outputs.run_header`: command, arguments, a
copy of the config, version, git commit, start and end times; input hashes, models and
prompt versions, counts per stage status) and per stage its settings, the hashes of its
inputs and outputs, its times and counts. Each stage is itself a command that publishes
its outputs as one set with its own manifest, so a failing stage leaves none of its files;
the study's manifest is also the record the next run resumes from, so it is written after
every stage, with ``status`` ``running``, ``failed`` or ``complete``.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from guisekit import __version__
from guisekit.errors import ConfigError, GuisekitError
from guisekit.ids import stable_hash
from guisekit.outputs import _now, file_digest, run_header, write_manifest
from guisekit.resources import read_config_file

__all__ = ["StudyConfig", "load_study", "run_study"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AuditStage(_Strict):
    """Screen the corpus with LLM auditors (``guisekit audit``); needs ``corpus:``."""

    auditors: list[str] = Field(default_factory=list)
    domain: str | None = None
    config: str | None = None
    bootstrap: int = Field(default=2000, ge=0)


class DecideStage(_Strict):
    task: str
    model: str
    orders: int | Literal["all"] = 1
    repeats: int = Field(default=1, ge=1)
    samples: int = Field(default=1, ge=1)
    seed: int = 0
    max_failure_rate: float = Field(default=0.05, ge=0, le=1)
    model_version: str = ""


class AttributesStage(_Strict):
    engine: Literal["rules", "llm"] = "rules"
    model: str | None = None
    attribute_set: str = "complaints"


class GapsStage(_Strict):
    outcome: str = "outcome"
    resamples: int = Field(default=2000, ge=0)
    seed: int = 0
    ci: float = 0.95
    margin: float | None = None
    margin_h: float = 0.20
    margin_air: float = 0.80
    alpha: float = 0.05
    reference: dict[str, str] = Field(default_factory=dict)
    canonical: dict[str, str] = Field(default_factory=dict)


class GelbachStage(_Strict):
    outcome: str | None = None
    focal_column: str
    focal_level: list[str] = Field(default_factory=list)
    base_level: list[str] = Field(default_factory=list)
    attributes: list[str] = Field(default_factory=list)
    attribute_set: str = "complaints"
    control: list[str] = Field(default_factory=list)
    resamples: int = Field(default=2000, ge=0)
    seed: int = 0


class StudyConfig(_Strict):
    """A study: where the corpus comes from and what each stage does."""

    name: str = "study"
    corpus: str | None = Field(default=None, description="Corpus config (YAML) to build.")
    corpus_file: str | None = Field(default=None, description="An existing corpus or grid.")
    audit: AuditStage | None = None
    decide: DecideStage
    attributes: AttributesStage | None = None
    gaps: GapsStage = GapsStage()
    gelbach: GelbachStage | None = None
    output: str = "study"
    base: Path = Path(".")

    def path(self, value: str) -> Path:
        candidate = Path(value)
        return candidate if candidate.is_absolute() else (self.base / candidate).resolve()


def load_study(path: Path) -> tuple[StudyConfig, str]:
    """The validated config and its text (copied into the manifest)."""
    data = read_config_file(path, "a mapping with corpus, decide, gaps, ...", "study config")
    try:
        config = StudyConfig.model_validate({**data, "base": path.resolve().parent})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(first["msg"], location=f"{path}: {where}") from None
    if (config.corpus is None) == (config.corpus_file is None):
        raise ConfigError(
            "give exactly one of corpus (a config) or corpus_file", location=str(path)
        )
    if config.audit is not None and config.corpus is None:
        raise ConfigError("the audit stage needs corpus: (a corpus config)", location=str(path))
    if config.gelbach is not None and config.attributes is None:
        raise ConfigError("the gelbach stage needs an attributes stage", location=str(path))
    return config, path.read_text(encoding="utf-8")


def _hashes(paths: list[Path]) -> dict[str, str]:
    return {str(p): file_digest(p) for p in paths if p.is_file()}


Stage = Callable[[], tuple[list[Path], dict[str, Any]]]


class _Runner:
    """Runs stages in order, skipping those whose key and outputs are unchanged."""

    def __init__(self, out: Path, rerun: bool, manifest: dict[str, Any]) -> None:
        self.out = out
        self.rerun = rerun
        self.manifest = manifest
        record = out / "manifest.json"
        previous = json.loads(record.read_text()) if record.is_file() else {}
        self.previous = {s["name"]: s for s in previous.get("stages", [])}

    def write(self) -> None:
        """Replace the manifest atomically (a kill leaves the previous one)."""
        stages = self.manifest["stages"]
        self.manifest["counts"] = dict(Counter(str(s.get("status", "running")) for s in stages))
        self.manifest["models"] = [
            {"model": s["counts"].get("model"), "prompt": s["counts"].get("prompt")}
            for s in stages
            if s["name"] == "decide" and "counts" in s
        ]
        self.out.mkdir(parents=True, exist_ok=True)
        tmp = self.out / f".manifest.json.{os.getpid()}.tmp"
        write_manifest(self.manifest, tmp)
        tmp.replace(self.out / "manifest.json")

    def stage(self, name: str, settings: Any, inputs: list[Path], run: Stage) -> list[Path]:
        import typer

        from guisekit.console import err

        key = stable_hash(name, settings, _hashes(inputs), __version__)
        before = self.previous.get(name)
        if (
            not self.rerun
            and before is not None
            and before.get("status") in ("ran", "cached")
            and before.get("key") == key
            and all(
                Path(p).is_file() and file_digest(Path(p)) == h
                for p, h in before["outputs"].items()
            )
        ):
            err.print(f"[study] {name}: cached (inputs and settings unchanged)")
            cached = {**before, "status": "cached", "checked": _now()}
            self.manifest["stages"].append(cached)
            return [Path(p) for p in before["outputs"]]
        entry: dict[str, Any] = {
            "name": name,
            "key": key,
            "settings": settings,
            "inputs": _hashes(inputs),
            "started": _now(),
        }
        self.manifest["stages"].append(entry)
        err.print(f"[study] {name}: running")
        try:
            outputs, counts = run()
        except GuisekitError as exc:
            entry.update(status="failed", error=exc.one_line(), finished=_now())
            self.manifest["status"] = "failed"
            self.write()
            raise
        except typer.Exit as exc:
            if exc.exit_code:
                entry.update(status="failed", error=f"exit {exc.exit_code}", finished=_now())
                self.manifest["status"] = "failed"
                self.write()
                raise
            outputs, counts = [], {}
        entry.update(status="ran", outputs=_hashes(outputs), counts=counts, finished=_now())
        self.write()
        return outputs


def run_study(path: Path, *, out: Path | None = None, rerun: bool = False) -> dict[str, Any]:
    """Run every stage of the study at ``path``; returns the manifest."""
    config, text = load_study(path)
    folder = out if out is not None else config.path(config.output)
    arguments = {"config": str(path), "out": None if out is None else str(out), "rerun": rerun}
    corpus_input = config.path(config.corpus or config.corpus_file or "")
    manifest: dict[str, Any] = {
        **run_header("study", arguments, text),
        "study": config.name,
        "config_file": str(path),
        "output": str(folder),
        "inputs": _hashes([path, corpus_input]),
        "status": "running",
        "stages": [],
    }
    _preflight(config)
    runner = _Runner(folder, rerun, manifest)
    corpus = _corpus_stage(config, folder, runner)
    if config.audit is not None:
        _audit_stage(config, folder, runner, corpus)
    decisions = _decide_stage(config, folder, runner, corpus)
    attributes = None
    if config.attributes is not None:
        attributes = _attributes_stage(config, folder, runner, corpus)
    _gaps_stage(config, folder, runner, corpus, decisions)
    if config.gelbach is not None and attributes is not None:
        _gelbach_stage(config, folder, runner, attributes, decisions)
    manifest.update(status="complete", finished=_now())
    runner.write()
    return manifest


def _preflight(config: StudyConfig) -> None:
    """The decide stage's task and model name checked before the first stage runs, so a
    typo there is refused with nothing written (it was found after the corpus was built)."""
    from guisekit.decide import load_task

    task = load_task(config.decide.task)
    _check_outcome(config.gaps.outcome, task.label_names(), "gaps.outcome")
    if config.gelbach is not None:
        _check_gelbach(config.gelbach, config.gaps.outcome, task.label_names())
        _check_focal_levels(config.gelbach, _persona_axes(config))
    spec = config.decide.model
    if spec.startswith(("http://", "https://")):
        from guisekit.decide.model import check_endpoint

        check_endpoint(spec)
    elif not spec.startswith("python:"):
        from guisekit.llm import parse_model

        parse_model(spec)


def _check_outcome(outcome: str, labels: tuple[str, ...], where: str) -> None:
    """The decide stage writes ``outcome``, ``label`` and one ``prob_<label>`` per task
    label, so a gaps or gelbach outcome can be checked against the task before any stage
    runs (it was refused only when the gaps stage read the decisions)."""
    name, eq, wanted = outcome.partition("=")
    choices = ["outcome", *(f"prob_{n}" for n in labels), *(f"label={n}" for n in labels)]
    if eq:
        ok = name == "label" and wanted in labels
    else:
        ok = outcome == "outcome" or (outcome.startswith("prob_") and outcome[5:] in labels)
    if not ok:
        raise ConfigError(
            f"{outcome!r} is not an outcome the decide task writes; use one of "
            f"{', '.join(choices)}",
            location=where,
        )


def _check_gelbach(stage: GelbachStage, gaps_outcome: str, labels: tuple[str, ...]) -> None:
    """What the gelbach stage names that is known before any data: its outcome (against
    the decide task) and its attributes (against the attribute set's families). The focal
    column and levels and the controls are columns and values of the attributes table
    (persona axes, or a grid's identifier axes, and whatever the corpus carries); they are
    checked by ``gelbach`` when it reads that table, since a corpus file or grid given as
    ``corpus_file`` is only known by reading it."""
    from guisekit.attributes.sets import load_attribute_set

    _check_outcome(stage.outcome or gaps_outcome, labels, "gelbach.outcome")
    attribute_set = load_attribute_set(stage.attribute_set)
    for item in stage.attributes:
        attribute_set.family_of(item, "gelbach.attributes")


def _persona_axes(config: StudyConfig) -> dict[str, set[str]]:
    """Axis -> levels of the persona grids the corpus config's persona transforms use
    (empty for a ``corpus_file``, which is only known by reading it)."""
    if config.corpus is None:
        return {}
    from guisekit.corpus import load_config
    from guisekit.personas import load_grid

    axes: dict[str, set[str]] = {}
    for entry in load_config(config.path(config.corpus)).transforms:
        if isinstance(entry, dict) and entry.get("transform") == "persona":
            for axis in load_grid(entry.get("grid")).axes:
                axes.setdefault(axis.name, set()).update(lv.name for lv in axis.levels)
    return axes


def _check_focal_levels(stage: GelbachStage, axes: dict[str, set[str]]) -> None:
    """A focal or base level that the persona axis named as the focal column does not have
    matched no row, and was refused only after every earlier stage had written."""
    levels = axes.get(stage.focal_column)
    if levels is None:
        return  # not a persona axis of the corpus config: a column gelbach checks on reading
    for where, wanted in (("focal_level", stage.focal_level), ("base_level", stage.base_level)):
        for level in wanted:
            if level not in levels:
                raise ConfigError(
                    f"{level!r} is not a level of the persona axis {stage.focal_column!r}; "
                    f"use one of {', '.join(sorted(levels))}",
                    location=f"gelbach.{where}",
                )


def _corpus_stage(config: StudyConfig, folder: Path, runner: _Runner) -> Path:
    if config.corpus_file is not None:
        corpus = config.path(config.corpus_file)
        if not corpus.is_file():
            raise ConfigError(f"{corpus}: corpus file not found", location="corpus_file")
        return corpus
    from guisekit.commands.corpus import corpus_command
    from guisekit.corpus import load_config

    corpus_config = config.path(config.corpus or "")
    settings = load_config(corpus_config)
    sources = settings.path(settings.sources.path)
    target = folder / "corpus"
    ext = {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet"}[settings.output_format]

    def run() -> tuple[list[Path], dict[str, Any]]:
        corpus_command(corpus_config, overwrite=True, out_dir=target)
        path = target / f"corpus{ext}"
        from guisekit.tables import read_rows

        rows = read_rows(path, required=())
        ok = sum(1 for _, r in rows if r.get("status") == "ok")
        return [path], {"variants": len(rows), "ok": ok}

    [path] = runner.stage("corpus", {"config": str(corpus_config)}, [corpus_config, sources], run)
    return path


_Stage = TypeVar("_Stage", bound=BaseModel)


def _configured(stage: _Stage | None, name: str) -> _Stage:
    """The settings of an optional stage: the study runs it only when configured, and this
    says so to a reader (and to mypy) where the stage begins."""
    if stage is None:
        raise ConfigError(f"the study has no {name} stage")
    return stage


def _audit_stage(config: StudyConfig, folder: Path, runner: _Runner, corpus: Path) -> None:
    from guisekit.commands.audit import audit_command

    stage = _configured(config.audit, "audit")
    target = folder / "audit"

    def run() -> tuple[list[Path], dict[str, Any]]:
        audit_command(
            corpus,
            config=config.path(stage.config) if stage.config else None,
            corpus_config=config.path(config.corpus or ""),
            auditor=stage.auditors or None,
            domain=stage.domain,
            out_dir=target,
            cache=folder / "audit-cache.sqlite",
            bootstrap=stage.bootstrap,
            overwrite=True,
        )
        outputs = sorted(p for p in target.iterdir() if p.is_file())
        return outputs, {"files": len(outputs)}

    runner.stage("audit", stage.model_dump(), [corpus], run)


def _decide_stage(config: StudyConfig, folder: Path, runner: _Runner, corpus: Path) -> Path:
    from guisekit.commands.decide import run_decide

    stage = config.decide
    is_grid = _is_grid(corpus)
    out = folder / "decisions.jsonl"

    def run() -> tuple[list[Path], dict[str, Any]]:
        result = run_decide(
            corpus,
            task_name=stage.task,
            model_spec=stage.model,
            out=out,
            id_column="id" if is_grid else "variant_id",
            carry=("cell", "axis", "identifier") if is_grid else ("source_id",),
            orders=stage.orders,
            repeats=stage.repeats,
            samples=stage.samples,
            seed=stage.seed,
            cache=folder / "decide-cache.sqlite",
            max_failure_rate=stage.max_failure_rate,
            model_version=stage.model_version,
            overwrite=True,
        )
        if result["failure_rate"] > stage.max_failure_rate:
            from guisekit.errors import InputError

            raise InputError(
                f"{result['failed']} of {result['decisions']} decisions failed",
                hint=f"see {out}; raise decide.max_failure_rate to accept them",
            )
        counts = {
            k: result[k]
            for k in (
                "task",
                "model",
                "prompt",
                "variants",
                "decisions",
                "new_decisions",
                "failed",
                "health",
            )
        }
        return [out], counts

    [path] = runner.stage("decide", stage.model_dump(), [corpus], run)
    return path


def _attributes_stage(config: StudyConfig, folder: Path, runner: _Runner, corpus: Path) -> Path:
    from guisekit.commands.attributes import attributes_command

    stage = _configured(config.attributes, "attributes")
    out = folder / "attributes.csv"

    def run() -> tuple[list[Path], dict[str, Any]]:
        attributes_command(
            corpus,
            out=out,
            engine=stage.engine,
            model=stage.model,
            attribute_set=stage.attribute_set,
            report=None,
            overwrite=True,
            cache=folder / "attributes-cache.sqlite",
        )
        from guisekit.tables import read_rows

        return [out], {"rows": len(read_rows(out, required=()))}

    [path] = runner.stage("attributes", stage.model_dump(), [corpus], run)
    return path


def _gaps_stage(
    config: StudyConfig, folder: Path, runner: _Runner, corpus: Path, decisions: Path
) -> None:
    from guisekit.commands.gaps import run_gaps
    from guisekit.gaps.report import print_result

    stage = config.gaps

    def run() -> tuple[list[Path], dict[str, Any]]:
        result, paths = run_gaps(
            corpus,
            decisions,
            folder / "gaps",
            outcome=stage.outcome,
            reference=",".join(f"{k}={v}" for k, v in stage.reference.items()) or None,
            canonical=",".join(f"{k}={v}" for k, v in stage.canonical.items()) or None,
            margin=stage.margin,
            margin_h=stage.margin_h,
            margin_air=stage.margin_air,
            alpha=stage.alpha,
            resamples=stage.resamples,
            seed=stage.seed,
            ci=stage.ci,
            overwrite=True,
        )
        print_result(result)
        verdicts = {k: len(v) for k, v in result.verdicts().items()}
        return list(paths.values()), {"contrasts": len(result.contrasts), **verdicts}

    runner.stage("gaps", stage.model_dump(), [corpus, decisions], run)


def _gelbach_stage(
    config: StudyConfig, folder: Path, runner: _Runner, attributes: Path, decisions: Path
) -> None:
    from guisekit.commands.gelbach import gelbach_command

    stage = _configured(config.gelbach, "gelbach")
    target = folder / "gelbach"

    def run() -> tuple[list[Path], dict[str, Any]]:
        gelbach_command(
            attributes,
            outcome=stage.outcome or config.gaps.outcome,
            focal_column=stage.focal_column,
            out_dir=target,
            focal_level=",".join(stage.focal_level) or None,
            base_level=",".join(stage.base_level) or None,
            attributes=",".join(stage.attributes) or None,
            attribute_set=stage.attribute_set,
            resamples=stage.resamples,
            seed=stage.seed,
            decisions=decisions,
            control=",".join(stage.control) or None,
            overwrite=True,
        )
        outputs = sorted(p for p in target.iterdir() if p.name.startswith("gelbach."))
        return outputs, {"files": len(outputs)}

    runner.stage("gelbach", stage.model_dump(), [attributes, decisions], run)


def _is_grid(path: Path) -> bool:
    from guisekit.tables import read_rows

    rows = read_rows(path, required=())
    return bool(rows) and all(k in rows[0][1] for k in ("axis", "identifier", "cell"))
