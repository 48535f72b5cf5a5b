"""The refusals of output folders, output files and single outputs, to the letter: one
guard (:func:`guisekit.outputs.refuse_clobber`) serves all three, and each must keep the
message and hint its users were shown before it was shared."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from guisekit.errors import OutputError
from guisekit.output_files import OutputFiles
from guisekit.outputs import OutputSet, refuse_same_path


def _refusal(check: Callable[[], None]) -> str:
    with pytest.raises(OutputError) as info:
        check()
    return info.value.one_line()


def test_an_output_folder_refuses_an_input_and_an_existing_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    own = out / "corpus.jsonl"
    own.write_text("{}\n", encoding="utf-8")
    names = ("corpus.jsonl", "summary.jsonl")
    reads_own = OutputSet(out, names, overwrite=True, command="t", inputs=[own])
    assert _refusal(reads_own.check) == (
        f"the output {out / 'corpus.jsonl'} is also an input (write the outputs to another folder)"
    )
    manifest = out / "manifest.json"
    manifest.write_text("{}", encoding="utf-8")
    reads_manifest = OutputSet(out, names, overwrite=True, command="t", inputs=[manifest])
    assert _refusal(reads_manifest.check) == (
        f"the output {manifest} is also an input (write the outputs to another folder)"
    )
    kept = OutputSet(out, names, overwrite=False, command="t")
    assert _refusal(kept.check) == (
        f"{own} already exists (pass --overwrite to replace the run's outputs)"
    )
    own.unlink()  # a manifest alone is replaced with its files, never refused
    OutputSet(out, names, overwrite=False, command="t").check()


def test_output_files_refuse_an_input_and_an_existing_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    second.write_text("x\n", encoding="utf-8")
    reads_own = OutputFiles([first, second], overwrite=True, command="t", inputs=[second])
    assert _refusal(reads_own.check) == (
        f"the output {second} is also an input (write it to another path)"
    )
    kept = OutputFiles([first, None, second], overwrite=False, command="t")
    assert _refusal(kept.check) == f"{second} already exists (pass --overwrite to replace it)"
    second.unlink()
    OutputFiles([first, second], overwrite=False, command="t").check()


def test_a_single_output_refuses_to_be_its_input(tmp_path: Path) -> None:
    path = tmp_path / "report.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    alias = tmp_path / "sub" / ".." / "report.jsonl"
    (tmp_path / "sub").mkdir()
    assert _refusal(lambda: refuse_same_path(alias, None, path)) == (
        f"the output {alias} is also an input (write it to another path)"
    )
    refuse_same_path(None, path)
    refuse_same_path(path, None, tmp_path / "other.jsonl")
