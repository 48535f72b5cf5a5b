"""Output *files* as one transaction, with a manifest beside them.

``attributes --out scores.csv``, ``decide --out decisions.jsonl``, ``grid --out
grid.parquet`` and ``check-facts --report report.jsonl`` write files, not folders of their
own: the file often sits in a folder that holds other outputs (``attributes`` writes
beside the corpus), so the folder swap of :class:`~guisekit.outputs.OutputSet` and its
``manifest.json`` would claim a folder that is not the command's. :class:`OutputFiles`
keeps the same rules and manifest, for files:

1. every refusal before anything is written (a folder, a dangling symlink or an input at an
   output path; an existing file without ``overwrite``; two outputs at one path);
2. each file is written into a hidden folder beside its target, ``.<name>.guisekit-<id>``
   (the next run removes what a killed run left);
3. publishing removes the previous ``<first file>.manifest.json``, moves each file into
   place (an atomic replace each), and moves the new manifest in last.

The manifest is the commit mark: readers check it (:func:`~guisekit.outputs.check_set`
on the first file). A kill while publishing leaves no manifest or one whose hashes do not
match, never a manifest vouching for files from two runs; a failure before publishing
(bad input found late, a full disk) leaves the previous files and manifest as they were.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from guisekit.errors import OutputError
from guisekit.outputs import (
    _MARK,
    OutputRun,
    _output_error,
    manifest_path,
    recover,
    refuse_clobber,
)

__all__ = ["OutputFiles"]


class OutputFiles(OutputRun):
    """Write a command's output files into hidden folders and publish them together with
    ``<first file>.manifest.json``.

    Use as a context manager; write each file at :meth:`path` (keyed by its target path),
    record its rows with :meth:`add`, set :attr:`counts` (and :attr:`models`); the files
    are published when the block ends without an exception."""

    def __init__(
        self,
        targets: Iterable[str | Path | None],
        *,
        overwrite: bool,
        command: str,
        arguments: Mapping[str, Any] | None = None,
        config: Any = None,
        inputs: Iterable[str | Path | None] = (),
        models: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        self.targets = [Path(t) for t in targets if t is not None]
        if not self.targets:
            raise ValueError("an output set needs at least one file")
        super().__init__(
            overwrite=overwrite,
            command=command,
            arguments=arguments,
            config=config,
            inputs=inputs,
            models=models,
        )
        self.record = manifest_path(self.targets[0])
        self._staging = {t: t.parent / f".{t.name}{_MARK}{self.run_id}" for t in self.targets}

    # -- checks -------------------------------------------------------------------------

    def check(self) -> None:
        """Every refusal, before anything is written."""
        seen: dict[Path, Path] = {}
        for target in (*self.targets, self.record):
            resolved = target.resolve()
            if resolved in seen:
                raise OutputError(
                    f"two outputs at one path: {seen[resolved]} and {target}",
                    hint="give each output its own path",
                )
            seen[resolved] = target
            if target.is_symlink() and not target.exists():
                raise OutputError(
                    f"{target} is a dangling symlink", hint="remove it or choose another path"
                )
            if target.is_dir():
                raise OutputError(f"{target} is a folder", hint="give a file path")
            for parent in target.parents:
                if parent.exists() and not parent.is_dir():
                    raise OutputError(
                        f"{parent} is a file, not a folder", hint="choose another path"
                    )
        refuse_clobber(
            seen,
            self.inputs,
            existing=() if self.overwrite else self.targets,
            input_hint="write it to another path",
            existing_hint="pass --overwrite to replace it",
        )

    # -- writing ------------------------------------------------------------------------

    def __enter__(self) -> OutputFiles:
        self.check()
        try:
            for target, staging in self._staging.items():
                target.parent.mkdir(parents=True, exist_ok=True)
                recover(target)
                staging.mkdir()
        except OSError as exc:
            self._discard()
            raise self._error(exc) from None
        return self

    def path(self, target: str | Path) -> Path:
        """Where to write the output ``target`` (inside its hidden folder)."""
        staging = self._staging.get(Path(target))
        if staging is None:
            raise ValueError(f"{target} is not one of this run's outputs")
        return staging / Path(target).name

    def add(self, target: str | Path, rows: int) -> None:
        """Record that ``target`` was written with ``rows`` rows."""
        self.files[self._name(Path(target))] = {"rows": rows}

    def _name(self, target: Path) -> str:
        """A file's name in the manifest: its path from the manifest's folder."""
        return os.path.relpath(target, self.record.parent)

    def _staged(self) -> tuple[dict[str, Path], dict[str, Path], Path]:
        names = {self._name(t): t for t in self.targets}
        return {n: self.path(t) for n, t in names.items()}, names, self._staged_record()

    def _staged_record(self) -> Path:
        return self._staging[self.targets[0]] / self.record.name

    def _publish(self) -> None:
        """Old manifest out, files in, new manifest in: a reader never sees a manifest
        beside files it does not describe."""
        if self.record.is_symlink() or self.record.exists():
            self.record.unlink()
        for target in self.targets:
            os.replace(self.path(target), target)
        os.replace(self._staged_record(), self.record)
        self._discard()

    def _discard(self) -> None:
        for staging in self._staging.values():
            shutil.rmtree(staging, ignore_errors=True)

    def _public(self, text: str) -> str:
        """``text`` naming the files the user asked for, not their hidden copies."""
        for target, staging in self._staging.items():
            text = text.replace(str(staging / target.name), str(target))
            text = text.replace(str(staging), str(target.parent))
        return text

    def _error(self, exc: OSError) -> OutputError:
        where = self._public(str(exc.filename)) if exc.filename else str(self.targets[0])
        return _output_error(Path(where), OSError(exc.errno, exc.strerror, where))

    def _unstage(self, exc: OutputError) -> None:
        exc.message = self._public(exc.message)
        exc.args = (exc.message,)
