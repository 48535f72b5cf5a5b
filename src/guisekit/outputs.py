"""A command's output files as one transaction: all of the new set or all of the old one.

A command used to replace ``corpus.jsonl``, ``fact_report.jsonl`` and ``summary.jsonl`` one
after another, so a kill or a full disk between two replacements left a new corpus beside
an old report (issue #17, defect 1). :class:`OutputSet` instead

1. checks everything before writing anything: the target is a folder (or absent), not a
   dangling symlink, no output would clobber a file without ``overwrite``, and no output is
   one of the command's inputs (defects 8, 12, 14);
2. removes temporaries a killed run left beside the target (defect 9);
3. lets the command write its files into a fresh hidden folder beside the target,
   ``.<name>.guisekit-<id>``, on the same filesystem;
4. writes ``manifest.json`` last (command, arguments, config, version, git commit, input
   hashes, each file's rows and hash, counts per status, start and end times);
5. publishes by swapping the two folders in one ``renameat2(RENAME_EXCHANGE)`` (Linux);
   files in the target that are not part of the set (an answer cache, a user's notes) are
   hard-linked into the new folder first, and foreign sub-folders moved back after, so
   the swap replaces only the set. Where the exchange is unavailable, two renames are used
   and a kill between them is repaired by the next run.

A failure while writing (ENOSPC, EACCES) removes the hidden folder, leaves the target as it
was, and becomes a one-line :class:`~guisekit.errors.OutputError`.
"""

from __future__ import annotations

import ctypes
import datetime as dt
import errno
import hashlib
import json
import os
import shutil
import subprocess
import sys
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from guisekit.errors import GuisekitError, OutputError

__all__ = [
    "MANIFEST",
    "OutputRun",
    "OutputSet",
    "arguments_of",
    "check_set",
    "file_digest",
    "manifest_path",
    "refuse_clobber",
    "refuse_same_path",
    "run_header",
]

MANIFEST = "manifest.json"
_MARK = ".guisekit-"


def file_digest(path: Path) -> str:
    """``sha256:<hex>`` of a file, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return f"sha256:{digest.hexdigest()}"


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def _git_commit() -> str | None:
    """The commit of the checkout guisekit runs from, when it runs from one."""
    here = Path(__file__).resolve().parent
    if not (here.parent.parent / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def run_header(
    command: str, arguments: Mapping[str, Any] | None = None, config: Any = None
) -> dict[str, Any]:
    """The first fields of every manifest, taken when a run starts: a fresh run id, the
    command and its arguments, a copy of the config, the version and git commit. One
    function, so the manifests of ``corpus``, ``decide``, ``study``... read alike."""
    return {
        "run_id": uuid.uuid4().hex[:12],
        "command": command,
        "arguments": dict(arguments or {}),
        "config": config,
        "guisekit_version": _version(),
        "git_commit": _git_commit(),
        "started": _now(),
    }


def arguments_of(function: Callable[..., Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments a command was called with, for its manifest: each parameter of
    ``function`` found in ``values`` (pass ``locals()`` first thing), paths as text."""
    import inspect

    return {
        name: str(values[name]) if isinstance(values[name], Path) else values[name]
        for name in inspect.signature(function).parameters
        if name in values
    }


def manifest_path(output: Path) -> Path:
    """Where the manifest of ``output`` lives: ``manifest.json`` in an output folder,
    ``<file>.manifest.json`` beside an output file (see :mod:`guisekit.output_files`)."""
    return output / MANIFEST if output.is_dir() else output.with_name(f"{output.name}.{MANIFEST}")


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two directory entries (Linux ``renameat2``); False if unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(a))


class OutputRun(ABC):
    """What an output folder (:class:`OutputSet`) and output files (``OutputFiles``) share:
    the manifest's header and records, and the end of the block.

    The end is the one guard of publishing: when the block ends cleanly the staged files
    and their manifest are completed, synced and published; when it raises, or publishing
    fails, the hidden copies are removed (the previous outputs stay as they were) and an
    ``OSError`` becomes a one-line :class:`~guisekit.errors.OutputError`. A subclass says
    where its files are staged and how it publishes, discards and names an error."""

    def __init__(
        self,
        *,
        overwrite: bool,
        command: str,
        arguments: Mapping[str, Any] | None,
        config: Any,
        inputs: Iterable[str | Path | None],
        models: Iterable[Mapping[str, Any]],
    ) -> None:
        self.overwrite = overwrite
        self.inputs = [Path(p) for p in inputs if p is not None]
        self.manifest: dict[str, Any] = run_header(command, arguments, config)
        self.run_id: str = self.manifest["run_id"]
        self.models = [dict(m) for m in models]
        self.counts: dict[str, int] = {}
        self.files: dict[str, dict[str, Any]] = {}

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if kind is not None:
            self._discard()
            if isinstance(exc, OSError) and not isinstance(exc, GuisekitError):
                raise self._error(exc) from None
            if isinstance(exc, OutputError):
                self._unstage(exc)
            return
        try:
            self._finish()
            self._publish()
        except (OSError, GuisekitError) as error:
            self._discard()
            if isinstance(error, OSError):
                raise self._error(error) from None
            raise

    def _finish(self) -> None:
        staged, final, record = self._staged()
        complete(self, staged, final)
        write_manifest(self.manifest, record)
        for path in (*staged.values(), record):
            with path.open("rb") as handle:
                os.fsync(handle.fileno())

    @abstractmethod
    def _staged(self) -> tuple[dict[str, Path], dict[str, Path], Path]:
        """Each file's staged copy and its published path, by its name in the manifest,
        and where the manifest is staged."""

    @abstractmethod
    def _publish(self) -> None:
        """Move the staged files and manifest into place."""

    @abstractmethod
    def _discard(self) -> None:
        """Remove the hidden copies."""

    @abstractmethod
    def _error(self, exc: OSError) -> OutputError:
        """``exc`` as a one-line error naming the path the user asked for."""

    @abstractmethod
    def _unstage(self, exc: OutputError) -> None:
        """Name the published paths, not their hidden copies, in a refusal raised inside
        the block."""


class OutputSet(OutputRun):
    """Write a command's files into a hidden folder and publish them together.

    Use as a context manager; write each file at :meth:`path`, record its rows with
    :meth:`add`, and the set is published when the block ends without an exception."""

    def __init__(
        self,
        target: str | Path,
        names: Iterable[str],
        *,
        overwrite: bool,
        command: str,
        arguments: Mapping[str, Any] | None = None,
        config: Any = None,
        inputs: Iterable[str | Path] = (),
        models: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        super().__init__(
            overwrite=overwrite,
            command=command,
            arguments=arguments,
            config=config,
            inputs=inputs,
            models=models,
        )
        self.target = Path(target)
        self.names = tuple(names)
        self.staging = self.target.parent / f".{self.target.name}{_MARK}{self.run_id}"

    # -- checks -------------------------------------------------------------------------

    def check(self) -> None:
        """Every refusal, before anything is written."""
        target = self.target
        if target.is_symlink() and not target.exists():
            raise OutputError(
                f"{target} is a dangling symlink", hint="remove it or choose another folder"
            )
        for parent in (target, *target.parents):
            if parent.exists() and not parent.is_dir():
                raise OutputError(
                    f"{parent} is a file, not a folder", hint="choose another output folder"
                )
        refuse_clobber(
            {self._resolved(name): target / name for name in (*self.names, MANIFEST)},
            self.inputs,
            existing=() if self.overwrite else [target / name for name in self.names],
            input_hint="write the outputs to another folder",
            existing_hint="pass --overwrite to replace the run's outputs",
        )

    def _resolved(self, name: str) -> Path:
        return (self.target.resolve() / name).resolve()

    # -- writing ------------------------------------------------------------------------

    def __enter__(self) -> OutputSet:
        self.check()
        try:
            self.target.parent.mkdir(parents=True, exist_ok=True)
            recover(self.target)
            self.staging.mkdir()
        except OSError as exc:
            raise _output_error(self.target, exc) from None
        return self

    def path(self, name: str) -> Path:
        """Where to write output file ``name`` (inside the hidden folder)."""
        if name not in self.names:
            raise ValueError(f"{name!r} is not one of this set's files")
        return self.staging / name

    def previous(self, name: str) -> Path | None:
        """The published file ``name`` of the last run, if there is one (to append to)."""
        path = self.target / name
        return path if path.is_file() else None

    def add(self, name: str, rows: int) -> None:
        """Record that ``name`` was written with ``rows`` rows (checked by :func:`check_set`)."""
        self.files[name] = {"rows": rows}

    def _staged(self) -> tuple[dict[str, Path], dict[str, Path], Path]:
        staged = {name: self.staging / name for name in self.names}
        return staged, {name: self.target / name for name in self.names}, self.staging / MANIFEST

    def _discard(self) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)

    def _error(self, exc: OSError) -> OutputError:
        return _output_error(self.target, exc, self.staging)

    def _unstage(self, exc: OutputError) -> None:
        """Left as raised, as an output folder's refusals always were."""

    def _publish(self) -> None:
        target, staging = self.target, self.staging
        if not target.exists():
            os.rename(staging, target)
            return
        own = {*self.names, MANIFEST}
        foreign_dirs = []
        for entry in target.iterdir():
            if entry.name in own:
                continue
            if entry.is_dir() and not entry.is_symlink():
                foreign_dirs.append(entry.name)
            else:  # a cache, a note, a file of another format: keep it, same inode
                os.link(entry, staging / entry.name, follow_symlinks=False)
        if _exchange(staging, target):
            old = staging
        else:
            old = target.parent / f".{target.name}{_MARK}old-{self.run_id}"
            os.rename(target, old)
            os.rename(staging, target)
        for name in foreign_dirs:
            os.rename(old / name, target / name)
        shutil.rmtree(old, ignore_errors=True)


def complete(run: Any, staged: Mapping[str, Path], final: Mapping[str, Path]) -> None:
    """Fill ``run.manifest`` (an :class:`OutputSet` or an ``OutputFiles``) at the end of
    a run: each staged file's rows, hash and size under its name, the inputs' hashes, the
    models, the counts per status and the end time. Refuses a file that was not written."""
    for name, written in staged.items():
        entry = run.files.setdefault(name, {})
        if not written.is_file():
            raise OutputError(f"{final[name]} was not written")
        entry["sha256"] = file_digest(written)
        entry["bytes"] = written.stat().st_size
    run.manifest.update(
        inputs={str(p): file_digest(p) for p in run.inputs if p.is_file()},
        models=run.models,
        files=run.files,
        counts=run.counts,
        finished=_now(),
    )


def write_manifest(manifest: Mapping[str, Any], path: Path) -> None:
    """Write a manifest as indented JSON (values JSON cannot hold become strings)."""
    text = json.dumps(manifest, indent=2, ensure_ascii=False, default=str) + "\n"
    with path.open("w", encoding="utf-8") as handle:
        handle.write(text)


def recover(target: Path) -> None:
    """Repair and remove what killed runs left beside ``target``.

    A hidden folder is either an unpublished new set (deleted) or a replaced old set whose
    foreign sub-folders may not have been moved back yet (moved back, then deleted). If the
    target itself is missing because a kill fell between the two renames of the fallback
    publish, the old set is put back."""
    parent = target.parent
    if not parent.is_dir():
        return
    prefix = f".{target.name}{_MARK}"
    leftovers = sorted(p for p in parent.iterdir() if p.name.startswith(prefix) and p.is_dir())
    if not target.exists():
        old = [p for p in leftovers if p.name.startswith(f"{prefix}old-")]
        if old:
            os.rename(old[-1], target)
            leftovers.remove(old[-1])
    for leftover in leftovers:
        if target.is_dir():
            for entry in leftover.iterdir():
                if entry.is_dir() and not (target / entry.name).exists():
                    os.rename(entry, target / entry.name)
        shutil.rmtree(leftover, ignore_errors=True)


def refuse_clobber(
    outputs: Mapping[Path, Path],
    inputs: Iterable[Path | None],
    *,
    input_hint: str,
    existing: Iterable[Path] = (),
    existing_hint: str = "",
) -> None:
    """Refuse to write over what a run must not destroy, before anything is written: an
    input at an output path (``--overwrite`` would destroy it), then any of ``existing``
    that is already there.

    One guard for :class:`OutputSet`, ``OutputFiles`` and :func:`refuse_same_path`, so the
    refusals read alike. ``outputs`` maps each output's resolved path to the path the
    message names; ``existing`` lists the outputs that must not be there yet (none with
    ``--overwrite``; never a manifest, which is replaced with its files)."""
    for source in inputs:
        if source is not None and source.exists() and source.resolve() in outputs:
            raise OutputError(
                f"the output {outputs[source.resolve()]} is also an input", hint=input_hint
            )
    for path in existing:
        if os.path.lexists(path):
            raise OutputError(f"{path} already exists", hint=existing_hint)


def refuse_same_path(output: Path | None, *inputs: Path | None) -> None:
    """Refuse an output file that is one of the inputs (``--overwrite`` would destroy it)."""
    if output is not None:
        refuse_clobber({output.resolve(): output}, inputs, input_hint="write it to another path")


def check_set(output: Path) -> dict[str, Any]:
    """The manifest of ``output`` (a command's output folder, or an output file with its
    ``<file>.manifest.json``) after checking that every file it lists is there with the
    recorded hash: a reader's proof that the outputs are one complete run."""
    record = manifest_path(output)
    if not record.is_file():
        raise OutputError(f"{output} has no manifest ({record.name})", hint="re-run the command")
    manifest: dict[str, Any] = json.loads(record.read_text(encoding="utf-8"))
    for name, entry in manifest["files"].items():
        path = record.parent / name
        if not path.is_file() or file_digest(path) != entry["sha256"]:
            raise OutputError(
                f"{path} does not match {record}",
                hint="the outputs mix two runs; re-run the command",
            )
    return manifest


def _version() -> str:
    from guisekit import __version__

    return __version__


def _output_error(target: Path, exc: OSError, staging: Path | None = None) -> OutputError:
    reason = exc.strerror or str(exc)
    where = str(exc.filename or target)
    if staging is not None:  # name the file the user asked for, not the hidden copy
        where = where.replace(str(staging), str(target))
    hints = {
        errno.ENOSPC: "free some space; the previous outputs were left as they were",
        errno.EACCES: "choose a folder you can write to",
        errno.EROFS: "choose a folder you can write to",
    }
    hint = hints.get(exc.errno or 0, "the previous outputs were left as they were")
    return OutputError(f"cannot write {where}: {reason}", hint=hint)
