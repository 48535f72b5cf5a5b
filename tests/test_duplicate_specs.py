"""Repeated specs (issue #17, defect 2): ``factor: [10, 10.0, 1e1]`` and a second identity
entry normalise to specs already planned; the corpus keeps each once, so every variant id
is unique, and the run warns naming the repeats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guisekit.cli import main

FIXTURE = Path(__file__).parent / "data" / "duplicate_specs.yaml"


def test_duplicate_specs_give_unique_ids_and_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["corpus", str(FIXTURE), "--out", str(tmp_path / "out")])
    assert exited.value.code in (0, None)
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert warnings == [
        "warning: transforms[1] repeats a spec of transforms[1] (fact_edit:scale_amounts); "
        "kept once",
        "warning: transforms[1] repeats a spec of transforms[1] (fact_edit:scale_amounts); "
        "kept once",
        "warning: transforms[2] repeats a spec of transforms[0] (identity); kept once",
    ]
    assert "3 sources x 2 specs = 6 variants" in err
    rows = (tmp_path / "out" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    ids = [json.loads(row)["variant_id"] for row in rows]
    assert len(ids) == 6 and len(set(ids)) == 6
