"""The ``check-facts`` command, in process (CliRunner) and as the two real programs:
``python cli.py`` (the shim) and the ``guisekit`` console script, which must agree."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import guisekit
from guisekit.cli import app, main
from guisekit.errors import GuisekitError, InputError, OutputError, SourceError

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "examples" / "data" / "pairs.jsonl"

AGREE = ("I paid $1,200 on 03/14/2023.", "On March 14, 2023 I paid $1,200.")
CHANGED = (
    "I was charged a fee of $450 on 03/14/2023.",
    "I was charged a fee of $540 on 03/14/2023.",
)


def _console_script() -> str:
    beside = Path(sys.executable).parent / "guisekit"
    if beside.is_file():
        return str(beside)
    found = shutil.which("guisekit")
    if found is None:  # pragma: no cover - the package is installed in the test env
        pytest.skip("the guisekit console script is not installed")
    return found


PROGRAMS = {
    "shim": lambda: [sys.executable, str(ROOT / "cli.py")],
    "script": lambda: [_console_script()],
}


def _env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR_FORCE")
    }
    env.update(COLUMNS="200", NO_COLOR="1", PYTHONIOENCODING="utf-8")
    return env


def _run(program: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PROGRAMS[program](), *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=_env(),
        timeout=120,
        check=False,
    )


def _expected_verdicts() -> dict[str, str]:
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line]
    return {row["id"]: row["expect"] for row in rows}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def _stderr_of(result: object) -> str:
    """Stderr of a CliRunner result whether or not this Click keeps it apart."""
    try:
        return result.stderr  # type: ignore[attr-defined, no-any-return]
    except (ValueError, AttributeError):  # pragma: no cover - old Click mixes the streams
        return ""


# --------------------------------------------------------------------------- CliRunner


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"guisekit {guisekit.__version__}"
    assert guisekit.__version__ == "0.1.0"


def test_app_help_mentions_examples(runner: CliRunner) -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "check-facts" in result.output
    assert "Examples" in result.output


def test_check_facts_help_mentions_examples(runner: CliRunner) -> None:
    result = runner.invoke(app, ["check-facts", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Examples" in result.output
    assert "--pairs" in result.output
    assert "guisekit check-facts --pairs examples/data/pairs.jsonl" in result.output


def test_texts_that_agree_exit_0(runner: CliRunner) -> None:
    result = runner.invoke(app, ["check-facts", *AGREE])
    assert result.exit_code == 0, result.output
    assert "1 pairs: 1 pass, 0 warn, 0 fail" in result.output
    assert "fail" not in result.output.replace("0 fail", "")


def test_changed_amount_exits_1_and_names_both_amounts(runner: CliRunner) -> None:
    result = runner.invoke(app, ["check-facts", *CHANGED])
    assert result.exit_code == 1, result.output
    assert "$450" in result.output
    assert "$540" in result.output
    assert "money changed" in result.output
    assert "1 pairs: 0 pass, 0 warn, 1 fail" in result.output


def test_pairs_file_with_report(runner: CliRunner, tmp_path: Path) -> None:
    report = tmp_path / "facts.jsonl"
    result = runner.invoke(app, ["check-facts", "--pairs", str(PAIRS), "--report", str(report)])
    assert result.exit_code == 1, result.output
    assert "16 pairs: 9 pass, 1 warn, 6 fail" in result.output
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 16
    assert {row["id"]: row["verdict"] for row in rows} == _expected_verdicts()
    for row in rows:
        assert set(row) >= {"id", "verdict", "discrepancies"}
        assert (row["verdict"] == "pass") == (row["discrepancies"] == [])
    by_id = {row["id"]: row for row in rows}
    [changed] = by_id["pair-11"]["discrepancies"]
    assert changed["change"] == "changed"
    assert changed["original"]["text"] == "$450"
    assert changed["rewrite"]["text"] == "$540"
    assert "report written to" in _stderr_of(result) + result.output


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_report_in_other_formats(runner: CliRunner, tmp_path: Path, suffix: str) -> None:
    from guisekit.tables import read_rows

    report = tmp_path / f"facts{suffix}"
    result = runner.invoke(app, ["check-facts", "--pairs", str(PAIRS), "--report", str(report)])
    assert result.exit_code == 1
    rows = read_rows(report, required=("id", "verdict"))
    assert {r["id"]: r["verdict"] for _, r in rows} == _expected_verdicts()


def test_texts_given_as_file_paths(runner: CliRunner, tmp_path: Path) -> None:
    original = tmp_path / "a.txt"
    rewrite = tmp_path / "b.txt"
    original.write_text(CHANGED[0], encoding="utf-8")
    rewrite.write_text(CHANGED[1], encoding="utf-8")
    result = runner.invoke(app, ["check-facts", str(original), str(rewrite)])
    assert result.exit_code == 1
    assert "$450" in result.output and "$540" in result.output

    rewrite.write_text(CHANGED[0], encoding="utf-8")
    result = runner.invoke(app, ["check-facts", str(original), str(rewrite)])
    assert result.exit_code == 0
    assert "1 pass" in result.output


def test_custom_pair_columns(runner: CliRunner, tmp_path: Path) -> None:
    pairs = tmp_path / "custom.jsonl"
    pairs.write_text(
        json.dumps({"key": "k1", "a": CHANGED[0], "b": CHANGED[1]}) + "\n", encoding="utf-8"
    )
    result = runner.invoke(
        app,
        [
            "check-facts",
            "--pairs",
            str(pairs),
            "--id-column",
            "key",
            "--original-column",
            "a",
            "--rewrite-column",
            "b",
        ],
    )
    assert result.exit_code == 1
    assert "k1" in result.output


@pytest.mark.parametrize(
    ("make_args", "error", "fragment"),
    [
        (lambda tmp: ["--pairs", str(tmp / "absent.jsonl")], SourceError, "file not found"),
        (lambda tmp: ["", "I paid $5."], InputError, "the original text is empty"),
        (lambda tmp: [*AGREE, "--pairs", str(PAIRS)], InputError, "not both"),
        (lambda tmp: [], InputError, "nothing to check"),
    ],
    ids=["missing-pairs", "empty-text", "texts-and-pairs", "neither"],
)
def test_bad_input_raises_typed_error_in_process(
    runner: CliRunner,
    tmp_path: Path,
    make_args: object,
    error: type,
    fragment: str,
) -> None:
    result = runner.invoke(app, ["check-facts", *make_args(tmp_path)])  # type: ignore[operator]
    assert isinstance(result.exception, error), result.exception
    assert fragment in str(result.exception)
    assert result.exit_code != 0


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["check-facts", "", "I paid $5."], "error: the original text is empty"),
        (["check-facts"], "error: nothing to check"),
    ],
)
def test_main_turns_errors_into_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], fragment: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(fragment)
    assert captured.err.count("\n") == 1
    assert captured.out == ""


# --------------------------------------------------------------------------- real programs


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_program_version(program: str) -> None:
    done = _run(program, "--version")
    assert done.returncode == 0
    assert done.stdout == f"guisekit {guisekit.__version__}\n"


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_program_agree_and_change(program: str) -> None:
    ok = _run(program, "check-facts", *AGREE)
    assert ok.returncode == 0, ok.stderr
    assert "1 pairs: 1 pass, 0 warn, 0 fail" in ok.stdout
    bad = _run(program, "check-facts", *CHANGED)
    assert bad.returncode == 1, bad.stderr
    assert "money changed: '$450' -> '$540'" in bad.stdout
    assert "Traceback" not in bad.stdout + bad.stderr


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_program_pairs_report(program: str, tmp_path: Path) -> None:
    report = tmp_path / "out" / "pairs-facts.jsonl"
    done = _run(program, "check-facts", "--pairs", "examples/data/pairs.jsonl", "--report", report)
    assert done.returncode == 1, done.stderr
    assert "16 pairs: 9 pass, 1 warn, 6 fail" in done.stdout
    assert done.stderr.strip() == f"report written to {report}"
    lines = report.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 16
    rows = [json.loads(line) for line in lines]
    assert all({"id", "verdict"} <= set(row) for row in rows)
    verdicts = {row["id"]: row["verdict"] for row in rows}
    assert verdicts == _expected_verdicts()
    # with --report only the pairs that did not pass are printed; --show all prints all
    for pair_id, verdict in verdicts.items():
        assert (f"{pair_id} │ {verdict}" in done.stdout) == (verdict != "pass"), pair_id
    every = _run(
        program, "check-facts", "--pairs", "examples/data/pairs.jsonl", "--report", report,
        "--overwrite", "--show", "all",
    )  # fmt: skip
    assert every.returncode == 1, every.stderr
    for pair_id, verdict in verdicts.items():
        assert f"{pair_id} │ {verdict}" in every.stdout
    assert "16 pairs: 9 pass, 1 warn, 6 fail" in every.stdout


SAME_ARGS = [
    ["--version"],
    ["--help"],
    ["check-facts", "--help"],
    ["check-facts", *AGREE],
    ["check-facts", *CHANGED],
    ["check-facts", "--pairs", "examples/data/pairs.jsonl"],
    ["check-facts"],
    ["check-facts", "--pairs", "absent.jsonl"],
    ["check-facts", "--bogus-option"],
]


@pytest.mark.parametrize("args", SAME_ARGS, ids=[" ".join(a)[:40] for a in SAME_ARGS])
def test_shim_and_console_script_behave_the_same(args: list[str]) -> None:
    shim = _run("shim", *args)
    script = _run("script", *args)
    assert shim.returncode == script.returncode
    assert shim.stdout == script.stdout
    assert shim.stderr == script.stderr
    assert "Traceback" not in shim.stdout + shim.stderr


# --------------------------------------------------------------------------- bad input: exit 2


def _bad_pairs_without_rewrite(tmp: Path) -> list[str]:
    path = tmp / "pairs.jsonl"
    path.write_text(json.dumps({"id": "p1", "original": "I paid $5."}) + "\n", encoding="utf-8")
    return ["--pairs", str(path)]


def _invalid_utf8_file(tmp: Path) -> list[str]:
    path = tmp / "latin1.txt"
    path.write_bytes("I paid $5 for a café.".encode("latin-1"))
    return [str(path), "I paid $5."]


def _invalid_utf8_pairs(tmp: Path) -> list[str]:
    path = tmp / "pairs.jsonl"
    path.write_bytes(
        b'{"id": "p1", "original": "a $5", "rewrite": "a $5"}\n'
        b'{"id": "p2", "original": "b $6", "rewrite": "b $6"}\n'
        b'{"id": "p3", "original": "caf\xe9 $7", "rewrite": "c $7"}\n'
    )
    return ["--pairs", str(path)]


def _empty_text_file(tmp: Path) -> list[str]:
    path = tmp / "empty.txt"
    path.write_text("  \n", encoding="utf-8")
    return ["I paid $5.", str(path)]


BAD_CASES = [
    (
        "missing-pairs-file",
        lambda tmp: ["--pairs", str(tmp / "absent.jsonl")],
        ["absent.jsonl", "file not found"],
    ),
    ("empty-text", lambda tmp: ["", "I paid $5."], ["the original text is empty"]),
    ("empty-text-file", _empty_text_file, ["the rewrite text is empty"]),
    (
        "pairs-missing-rewrite-column",
        _bad_pairs_without_rewrite,
        ["pairs.jsonl:1", "missing column 'rewrite'"],
    ),
    (
        "texts-and-pairs",
        lambda tmp: [*AGREE, "--pairs", str(PAIRS)],
        ["give either two texts or --pairs, not both"],
    ),
    ("neither", lambda tmp: [], ["nothing to check"]),
    ("only-one-text", lambda tmp: ["I paid $5."], ["nothing to check"]),
    ("invalid-utf8-file", _invalid_utf8_file, ["latin1.txt", "not valid UTF-8"]),
    ("invalid-utf8-pairs-line-3", _invalid_utf8_pairs, ["pairs.jsonl:3", "invalid UTF-8"]),
]


@pytest.mark.parametrize("program", sorted(PROGRAMS))
@pytest.mark.parametrize(
    ("make_args", "fragments"), [pytest.param(m, f, id=i) for i, m, f in BAD_CASES]
)
def test_bad_input_exits_2_with_one_line_error(
    program: str,
    tmp_path: Path,
    make_args: object,
    fragments: list[str],
) -> None:
    done = _run(program, "check-facts", *make_args(tmp_path))  # type: ignore[operator]
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert done.stderr.startswith("error: ")
    assert done.stderr.endswith("\n")
    assert done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    for fragment in fragments:
        assert fragment in done.stderr, (fragment, done.stderr)


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_existing_report_without_overwrite_exits_2_and_keeps_report(
    program: str,
    tmp_path: Path,
) -> None:
    report = tmp_path / "report.jsonl"
    original = b'{"id": "old", "verdict": "pass"}\n'
    report.write_bytes(original)

    done = _run(program, "check-facts", *CHANGED, "--report", report)

    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {report} already exists")
    assert "--overwrite" in done.stderr
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stdout + done.stderr
    assert report.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["report.jsonl"]

    again = _run(program, "check-facts", *CHANGED, "--report", report, "--overwrite")
    assert again.returncode == 1
    [row] = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert row["id"] == "pair"
    assert row["verdict"] == "fail"


def test_existing_report_in_process_raises_output_error(runner: CliRunner, tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    report.write_text("keep me\n", encoding="utf-8")
    result = runner.invoke(app, ["check-facts", *AGREE, "--report", str(report)])
    assert isinstance(result.exception, OutputError)
    assert isinstance(result.exception, GuisekitError)
    assert report.read_text(encoding="utf-8") == "keep me\n"


def test_max_chars_limits_texts(tmp_path: Path) -> None:
    done = _run("script", "check-facts", "I paid $5 today.", "I paid $5.", "--max-chars", "10")
    assert done.returncode == 2
    assert done.stderr.startswith("error: the original text has 16 characters, over 10")


# --- issue 14: facts on each side, --fail-on, --date-order -----------------------------------


def test_single_pair_prints_the_facts_of_each_side(runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        ["check-facts", "I was charged 3 late fees of $35.", "I was charged 4 late fees of $35."],
    )
    assert result.exit_code == 1
    assert "Facts found" in result.output
    assert "quantity" in result.output and "3 fee" in result.output and "4 fee" in result.output
    assert "fail: quantity changed: '3 late fees' -> '4 late fees'" in result.output


def test_fail_on_warn_makes_an_ambiguous_date_exit_1(runner: CliRunner) -> None:
    pair = ["I paid on 3/4/2024.", "I paid on 4 March 2024."]
    default = runner.invoke(app, ["check-facts", *pair])
    assert default.exit_code == 0 and "warn" in default.output
    strict = runner.invoke(app, ["check-facts", *pair, "--fail-on", "warn"])
    assert strict.exit_code == 1
    assert "1 pairs: 0 pass, 1 warn, 0 fail" in strict.output


def test_date_order_option(runner: CliRunner) -> None:
    pair = ["I paid on 3/4/2024.", "I paid on 3 April 2024."]
    assert runner.invoke(app, ["check-facts", *pair, "--date-order", "dmy"]).exit_code == 0
    assert runner.invoke(app, ["check-facts", *pair, "--date-order", "mdy"]).exit_code == 1


@pytest.mark.parametrize(("option", "value"), [("--fail-on", "sometimes"), ("--date-order", "ymd")])
def test_bad_policy_options_are_input_errors(runner: CliRunner, option: str, value: str) -> None:
    with pytest.raises(InputError, match=option):
        runner.invoke(app, ["check-facts", "a $1", "a $1", option, value], catch_exceptions=False)


def test_report_rows_carry_the_facts_of_each_side(runner: CliRunner, tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    row = {"id": "p1", "original": "The fee is Rs 500 a month.", "rewrite": "The fee is Rs 500."}
    pairs.write_text(json.dumps(row) + "\n", encoding="utf-8")
    report = tmp_path / "report.jsonl"
    result = runner.invoke(app, ["check-facts", "--pairs", str(pairs), "--report", str(report)])
    assert result.exit_code == 1
    (out,) = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert out["original_facts"] == [
        {
            "kind": "money",
            "value": "500 INR/month",
            "span": [11, 25],
            "text": "Rs 500 a month",
            "role": "fee",
            "period": "month",
        }
    ]
    assert out["rewrite_facts"][0]["value"] == "500 INR"
    assert out["fail_on"] == "fail"
    assert out["discrepancies"][0]["description"].endswith("(period month -> None)")
