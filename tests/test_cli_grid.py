"""`guisekit grid`: build, check and write a grid; the output feeds `guisekit corpus`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_helpers import cli
from typer.testing import CliRunner

from guisekit.cli import app

ROOT = Path(__file__).parents[1]
EXAMPLE_DIR = ROOT / "examples" / "grid_salary"
RUNNER = CliRunner()


def _small_grid(tmp_path: Path, template: str | None = None) -> Path:
    """The example salary grid cut down to the gender axis, one profile and one question."""
    (tmp_path / "profiles.csv").write_text(
        "\n".join((EXAMPLE_DIR / "profiles.csv").read_text(encoding="utf-8").splitlines()[:2]),
        encoding="utf-8",
    )
    (tmp_path / "questions.yaml").write_text(
        "- id: ask\n  text:\n    en: What CTC should I ask for?\n"
        "    hinglish: Mujhe kitna CTC maangna chahiye?\n"
        "  third_party:\n    en: What CTC should they ask for?\n"
        "    hinglish: Unhe kitna CTC maangna chahiye?\n",
        encoding="utf-8",
    )
    templates = EXAMPLE_DIR / "templates.yaml"
    if template is not None:
        text = templates.read_text(encoding="utf-8").replace("I am {{ identity }}.", template)
        templates = tmp_path / "templates.yaml"
        templates.write_text(text, encoding="utf-8")
    config = tmp_path / "grid.yaml"
    config.write_text(
        f"name: small\nidentifiers: india\naxes: [gender]\nprofiles: profiles.csv\n"
        f"templates: {templates}\nquestions: questions.yaml\nlanguages: [en, hinglish]\n"
        f"output: out/grid.jsonl\n",
        encoding="utf-8",
    )
    return config


def test_grid_builds_prints_checks_and_writes(tmp_path: Path) -> None:
    config = _small_grid(tmp_path)
    result = RUNNER.invoke(app, ["grid", str(config)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(x) for x in (tmp_path / "out/grid.jsonl").read_text().splitlines()]
    assert len(rows) == 7 * 2 * 2  # gender identifiers x placements x languages
    assert rows[0]["id"] == "small.en.self.gender.woman.iitb_cse.ask"
    lines = result.output.splitlines()
    for check in ("slots_filled", "differ_only_in_identifier", "counts", "parallel"):
        line = next(ln for ln in lines if f" {check} " in ln)
        assert " pass " in line and " fail " not in line, line
    assert any(
        ln.split()[:2] == ["│", "gender"] and ln.split()[3:6:2] == ["14", "14"] for ln in lines
    )


def test_existing_output_is_kept_unless_overwrite(tmp_path: Path) -> None:
    config = _small_grid(tmp_path)
    assert cli("grid", str(config)) == 0
    target = tmp_path / "out/grid.jsonl"
    target.write_text("keep me\n", encoding="utf-8")
    assert cli("grid", str(config)) == 2
    assert target.read_text() == "keep me\n"
    assert cli("grid", str(config), "--overwrite") == 0
    assert target.read_text().startswith('{"id": "small.en.self.gender.woman')


def test_out_option_chooses_the_file_and_format(tmp_path: Path) -> None:
    config = _small_grid(tmp_path)
    target = tmp_path / "elsewhere" / "grid.csv"
    assert cli("grid", str(config), "--out", str(target)) == 0
    header = target.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[:3] == ["id", "text", "grid"]
    assert "slot_ctc" in header
    assert not (tmp_path / "out/grid.jsonl").exists()


def test_failed_checks_exit_1_and_write_nothing(tmp_path: Path) -> None:
    broken = "I am {{ identity }}.{% if 'woman' in identity %} I expect less.{% endif %}"
    config = _small_grid(tmp_path, template=broken)
    result = RUNNER.invoke(app, ["grid", str(config)])
    assert result.exit_code == 1
    assert "differ_only_in_identifier" in result.output
    assert "small.en.self.gender.woman.iitb_cse.ask: differs from its cell" in result.output
    assert not (tmp_path / "out/grid.jsonl").exists()


def test_bad_config_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "grid.yaml"
    config.write_text("name: x\nidentifiers: nowhere\n", encoding="utf-8")
    assert cli("grid", str(config)) == 2
    assert cli("grid", str(tmp_path / "missing.yaml")) == 2


def test_help_shows_an_example() -> None:
    result = RUNNER.invoke(app, ["grid", "--help"])
    assert result.exit_code == 0
    assert "guisekit grid examples/grid_salary.yaml" in result.output


def test_grid_output_feeds_the_corpus_runner(tmp_path: Path) -> None:
    config = _small_grid(tmp_path)
    assert cli("grid", str(config)) == 0
    corpus_config = tmp_path / "corpus.yaml"
    corpus_config.write_text(
        "sources: {path: out/grid.jsonl}\nseed: 0\n"
        "transforms:\n  - transform: identity\n  - transform: standardise\n    style: plain\n"
        "output: {dir: corpus, format: jsonl}\n",
        encoding="utf-8",
    )
    result = RUNNER.invoke(app, ["corpus", str(corpus_config)])
    assert result.exit_code == 0, result.output
    grid_rows = [json.loads(x) for x in (tmp_path / "out/grid.jsonl").read_text().splitlines()]
    corpus = [json.loads(x) for x in (tmp_path / "corpus/corpus.jsonl").read_text().splitlines()]
    assert len(corpus) == 2 * len(grid_rows) == 56
    assert [r["source_id"] for r in corpus[::2]] == [r["id"] for r in grid_rows]
    identity = [r for r in corpus if r["transform"] == "identity"]
    assert [r["text"] for r in identity] == [r["text"] for r in grid_rows]
    report = [
        json.loads(x) for x in (tmp_path / "corpus/fact_report.jsonl").read_text().splitlines()
    ]
    assert {r["verdict"] for r in report} == {"pass"}


# --- benchmark layouts, ids and --compare: bad input is one line and exit 2 -----------------


def _benchmark_copy(tmp_path: Path) -> Path:
    """The benchmark-style example copied into tmp_path (its paths are relative)."""
    import shutil

    shutil.copytree(ROOT / "examples" / "grid_benchmark", tmp_path / "grid_benchmark")
    config = tmp_path / "grid_benchmark.yaml"
    shutil.copy(ROOT / "examples" / "grid_benchmark.yaml", config)
    return config


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _good_reference(tmp_path: Path) -> Path:
    rows = [json.dumps({"id": f"x{i}", "text": f"prompt {i}"}) for i in range(3)]
    path = tmp_path / "published.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


BAD_BENCHMARK_INPUTS = [
    pytest.param(
        (
            "grid_benchmark.yaml",
            "{en: en, hinglish: hinglish}",
            "{en: english, hinglish: hinglish}",
        ),
        (),
        "grid_benchmark/identifiers.json: Religion / Hindu: no key 'english' (keys: en, hinglish)",
        id="identifier-phrase-key-missing",
    ),
    pytest.param(
        ("grid_benchmark.yaml", "cgpa: cgpa", "cgpa: CGPA"),
        (),
        "profiles.json: record 1 (P01): no key 'CGPA'",
        id="profile-field-key-missing",
    ),
    pytest.param(
        ("grid_benchmark.yaml", "    id: profile_id\n", ""),
        (),
        "profiles.fields has no id entry",
        id="profile-id-not-mapped",
    ),
    pytest.param(
        ("grid_benchmark.yaml", "  path: grid_benchmark/identifiers.json\n", ""),
        (),
        "identifiers.path: Field required",
        id="mapping-without-path",
    ),
    pytest.param(
        ("grid_benchmark.yaml", "  format: nested ", "  formats: nested "),
        (),
        "identifiers.formats: Extra inputs are not permitted",
        id="unknown-mapping-key",
    ),
    pytest.param(
        ("grid_benchmark.yaml", "grid_benchmark/profiles.json", "grid_benchmark/nope.json"),
        (),
        "nope.json: file not found",
        id="profiles-file-missing",
    ),
    pytest.param(
        ("grid_benchmark.yaml", "{use_case}_{language}", "{usecase}_{language}"),
        (),
        "unknown field {usecase} in id template",
        id="unknown-id-template-field",
    ),
    pytest.param(
        ("grid_benchmark.yaml", "order: [language, placement, ", "order: ["),
        (),
        "order must list each of",
        id="incomplete-order",
    ),
    pytest.param(
        ("grid_benchmark/identifiers.json", '"Sikh"},', '"Sikh"}'),
        (),
        "identifiers.json: malformed JSON: Expecting ',' delimiter at line 7 column 5",
        id="malformed-identifier-json",
    ),
    pytest.param(
        ("grid_benchmark/profiles.json", '"cgpa": 7.9,', '"cgpa": 7.9'),
        (),
        "profiles.json: malformed JSON: Expecting ',' delimiter",
        id="malformed-profile-json",
    ),
    pytest.param(
        None,
        ("--compare", "{tmp}/missing.jsonl"),
        "missing.jsonl: file not found",
        id="compare-file-missing",
    ),
    pytest.param(
        ("published.jsonl", '"x1"', '"x0"'),
        ("--compare", "{tmp}/published.jsonl"),
        "duplicate id 'x0'",
        id="compare-file-duplicate-ids",
    ),
    pytest.param(
        ("published.jsonl", '{"id": "x2"', '{"id": "x2",'),
        ("--compare", "{tmp}/published.jsonl"),
        "published.jsonl:3",
        id="compare-file-malformed-jsonl",
    ),
    pytest.param(
        None,
        ("--compare", "{tmp}/published.jsonl", "--compare-text-column", "prompt"),
        "missing column 'prompt'",
        id="compare-file-missing-column",
    ),
    pytest.param(
        ("published.json", "", '[{"id": "a", "text": "b"'),
        ("--compare", "{tmp}/published.json"),
        "published.json: malformed JSON",
        id="compare-file-malformed-json",
    ),
    pytest.param(
        None,
        ("--compare", "{tmp}/published.jsonl", "--out", "{tmp}/out.jsonl"),
        "--compare writes nothing",
        id="compare-with-out",
    ),
]


@pytest.mark.parametrize(("edit", "args", "message"), BAD_BENCHMARK_INPUTS)
def test_bad_benchmark_inputs_exit_2_with_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit: tuple[str, str, str] | None,
    args: tuple[str, ...],
    message: str,
) -> None:
    config = _benchmark_copy(tmp_path)
    _good_reference(tmp_path)
    if edit is not None:
        name, old, new = edit
        if old:
            _edit(tmp_path / name, old, new)
        else:
            (tmp_path / name).write_text(new, encoding="utf-8")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert cli("grid", str(config), *argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err, err
    assert message in err, err
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.jsonl").exists()


def test_compare_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _benchmark_copy(tmp_path)
    reference = _good_reference(tmp_path)
    assert cli("grid", str(config), "--compare", str(reference)) == 1
    report = capsys.readouterr().out
    assert "compare by id with" in report and "matched (same id and text): 0 (0.0%)" in report
    assert "in file, not generated: 3" in report
    assert not (tmp_path / "out").exists()
