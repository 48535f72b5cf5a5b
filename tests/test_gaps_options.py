"""gaps options and bad input: population weights, reference levels, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_helpers import cli


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    """Two sources x two education levels; the college - high_school gap is 0.2 in s1 and
    0.6 in s2."""
    corpus, decisions = [], []
    values = {
        ("s1", "high_school"): 0.2,
        ("s1", "college"): 0.4,
        ("s2", "high_school"): 0.1,
        ("s2", "college"): 0.7,
    }
    for (source, level), value in values.items():
        vid = f"{source}-{level}"
        corpus.append(
            {
                "variant_id": vid,
                "source_id": source,
                "transform": "persona",
                "status": "ok",
                "text": "x",
                "spec": {"version": 1, "transform": "persona", "persona": {"education": level}},
            }
        )
        decisions.append(
            {"variant_id": vid, "repeat": 0, "order": 0, "status": "ok", "outcome": value}
        )
    c, d = tmp_path / "corpus.jsonl", tmp_path / "d.jsonl"
    c.write_text("\n".join(json.dumps(r) for r in corpus))
    d.write_text("\n".join(json.dumps(r) for r in decisions))
    return c, d


def _gap(out: Path) -> dict:
    return json.loads((out / "gaps.json").read_text())["contrasts"][0]


def test_weights_and_reference(files, tmp_path: Path) -> None:
    corpus, decisions = files
    assert (
        cli("gaps", str(corpus), str(decisions), "--resamples", "50", "--out", str(tmp_path / "a"))
        == 0
    )
    plain = _gap(tmp_path / "a")
    assert plain["name"] == "education: college - high_school"
    assert plain["gap"] == pytest.approx(0.4)  # mean of 0.2 and 0.6
    weights = tmp_path / "w.csv"
    weights.write_text("source_id,weight\ns1,3\ns2,1\n")
    assert (
        cli(
            "gaps",
            str(corpus),
            str(decisions),
            "--weights",
            str(weights),
            "--resamples",
            "50",
            "--reference",
            "education=college",
            "--out",
            str(tmp_path / "b"),
        )
        == 0
    )
    weighted = _gap(tmp_path / "b")
    assert weighted["name"] == "education: high_school - college"
    assert weighted["gap"] == pytest.approx(-(3 * 0.2 + 1 * 0.6) / 4)
    assert weighted["mean_focal"] == pytest.approx((3 * 0.2 + 0.1) / 4)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--outcome", "nope"], "no column 'nope'"),
        (["--reference", "education=phd"], "never occurs"),
        (["--reference", "height=tall"], "unknown axis"),
        (["--ci", "1.5"], "not between 0 and 1"),
        (["--margin-air", "1.2"], "margins must be positive"),
    ],
)
def test_bad_input_is_one_line(files, tmp_path: Path, capsys, extra, message) -> None:
    corpus, decisions = files
    out = tmp_path / "g"
    assert cli("gaps", str(corpus), str(decisions), "--out", str(out), *extra) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()


def test_decisions_of_another_corpus_are_refused(files, tmp_path: Path, capsys) -> None:
    corpus, _ = files
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"variant_id": "zzz", "status": "ok", "outcome": 1.0}))
    assert cli("gaps", str(corpus), str(other), "--out", str(tmp_path / "g")) == 2
    assert "no decision matches" in capsys.readouterr().err


def test_existing_outputs_are_kept(files, tmp_path: Path, capsys) -> None:
    corpus, decisions = files
    out = tmp_path / "g"
    assert cli("gaps", str(corpus), str(decisions), "--resamples", "20", "--out", str(out)) == 0
    before = (out / "gaps.json").read_text()
    assert cli("gaps", str(corpus), str(decisions), "--resamples", "30", "--out", str(out)) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert (out / "gaps.json").read_text() == before


def test_report_plot_survives_a_margin_near_the_float_limit(files, tmp_path: Path) -> None:
    """The library takes any margin; a band of 1e308 made matplotlib's transform singular
    ("Singular matrix") while drawing the forest plot. The band is now clipped."""
    from guisekit.gaps import Margins, analyse
    from guisekit.gaps.columns import CorpusLoader
    from guisekit.gaps.report import write_outputs

    corpus, decisions = files
    table = CorpusLoader(corpus, outcome="outcome", references={}, weights=None).table(decisions)
    result = analyse(table, margins=Margins(gap=1e308), n_resamples=50, seed=0)
    assert result.contrasts[0].verdict == "equivalent"
    written = write_outputs(result, tmp_path / "out", table_format="csv", overwrite=True)
    page = (tmp_path / "out" / "report.html").read_text()
    assert "data:image/png;base64," in page
    assert written
