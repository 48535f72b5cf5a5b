"""The bounded YAML loader (issue #17, defects 7, 8 and 17): alias bombs anywhere in a
document, 100k-deep nesting and syntax errors become one-line errors with line and
column, through every kind of config file."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from guisekit import safe_yaml
from guisekit.attributes.sets import load_attribute_set
from guisekit.audit.domains import load_domain
from guisekit.errors import ConfigError, ResourceError
from guisekit.standardise.settings import load_engine_config

ROOT = Path(__file__).resolve().parents[1]
DEEP = "[" * 100_000 + "]" * 100_000


def _bomb(indent: str = "") -> str:
    """A billion-laughs document: 10 short lines, 9**10 nodes when expanded."""
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 10):
        lines.append(f"l{level}: &l{level} [{', '.join([f'*l{level - 1}'] * 9)}]")
    return "".join(f"{indent}{line}\n" for line in lines)


def _describe(text: str) -> str:
    with pytest.raises(yaml.YAMLError) as caught:
        safe_yaml.load(text)
    return safe_yaml.describe(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (DEEP, "line 1 column 101: nested more than 100 levels deep"),
        ("a:\n" + "".join("  " * i + "- \n" for i in range(1, 150)), "line 101 column 201: nested"),
        (_bomb(), "line 5 column 5: aliases expand this document past 11,110 nodes"),
        (
            "engine:\n  models:\n  - params:\n" + _bomb("      "),
            "line 8 column 11: aliases expand this document past",
        ),
        ("x: &a [1, *a]\n", "line 1 column 4: an alias refers to itself"),
        ("seed: [0\nother: 1\n", "line 2 column 6: expected ',' or ']', but got ':'"),
        ("a: b: c\n", "line 1 column 5: mapping values are not allowed here"),
        ("x: &x 1\na: [" + ", ".join(["*x"] * 1001) + "]\n", "line 2 column 4005: more than 1,000"),
        ("seed: 0\nn: 2\nseed: 1\n", "line 3 column 1: duplicate key 'seed' (first at line 1)"),
        ("m:\n  a: 1\n  a: 2\n", "line 3 column 3: duplicate key 'a' (first at line 2)"),
    ],
)
def test_limits_and_syntax_errors_say_where(text: str, message: str) -> None:
    started = time.monotonic()
    assert _describe(text).startswith(message)
    assert time.monotonic() - started < 5


def test_ordinary_anchors_and_merges_still_load() -> None:
    text = "base: &b {temperature: 0, rpm: 60}\nmodels:\n  - {<<: *b, model: a}\n  - *b\n"
    assert safe_yaml.load(text) == {
        "base": {"temperature": 0, "rpm": 60},
        "models": [{"temperature": 0, "rpm": 60, "model": "a"}, {"temperature": 0, "rpm": 60}],
    }


def test_keys_of_different_types_are_not_duplicates() -> None:
    assert safe_yaml.load("1: a\n'1': b\n") == {1: "a", "1": "b"}


@pytest.mark.parametrize(
    "path",
    sorted(p for d in ("lexicons", "prompts") for p in (ROOT / d).rglob("*.y*ml")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_bundled_yaml_names_no_key_twice(path: Path) -> None:
    """A shadowed key is data that silently does nothing (ten keys of the Hinglish
    grammar were, until the loader refused them)."""
    assert safe_yaml.load(path.read_text(encoding="utf-8")) is not None


def test_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safe_yaml, "MAX_CHARS", 100)
    assert _describe("a: " + "x" * 200) == "the file is over 100 characters"


def _write(tmp_path: Path, text: str, name: str = "config.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _exit(args: list[str]) -> int | str | None:
    from guisekit.cli import main

    try:
        main(args)
    except SystemExit as exc:
        return exc.code
    return 0


def _corpus_config(tmp_path: Path, engine: str) -> Path:
    sources = ROOT / "examples/data/complaints.jsonl"
    text = f"sources:\n  path: {sources}\n{engine}seed: 0\ntransforms:\n  - transform: identity\n"
    return _write(tmp_path, text + f"output:\n  dir: {tmp_path / 'out'}\n")


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        (
            "engine:\n  name: llm\n  models:\n    - model: openai:gpt-4o-mini\n      params:\n"
            + _bomb("        "),
            "aliases expand this document",
        ),
        ("engine: " + DEEP + "\n", "line 3 column 108: nested more than 100 levels"),
    ],
)
def test_corpus_config_bombs_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, message: str
) -> None:
    config = _corpus_config(tmp_path, engine)
    started = time.monotonic()
    assert _exit(["corpus", str(config)]) == 2
    assert time.monotonic() - started < 10
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {config}: malformed YAML: ") and "\n" not in err, err
    assert message in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.yaml"]


def test_serve_engine_config_nested_deep_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = _write(tmp_path, "name: " + DEEP)
    assert _exit(["serve", "--port", "0", "--engine-config", str(engine)]) == 2
    err = capsys.readouterr().err.strip()
    assert "line 1 column 106: nested more than 100 levels deep" in err and "\n" not in err


@pytest.mark.parametrize(
    ("load", "error"),
    [
        (load_engine_config, ConfigError),
        (lambda path: load_domain(str(path)), ConfigError),
        (load_attribute_set, ResourceError),
    ],
)
@pytest.mark.parametrize("text", [DEEP, _bomb()])
def test_every_config_reader_is_bounded(tmp_path: Path, load, error, text: str) -> None:  # type: ignore[no-untyped-def]
    path = _write(tmp_path, text)
    with pytest.raises(error) as caught:
        load(path)
    assert "malformed YAML: line " in caught.value.one_line()


def test_grid_files_are_bounded_and_keep_scalars_as_text(tmp_path: Path) -> None:
    from guisekit.grid.files import read_data

    assert read_data(_write(tmp_path, "cgpa: 8.70\nid: 007\n")) == {"cgpa": "8.70", "id": "007"}
    with pytest.raises(ConfigError, match="malformed YAML: line 1 column 101: nested"):
        read_data(_write(tmp_path, DEEP, "deep.yaml"))
    with pytest.raises(ConfigError, match="aliases expand"):
        read_data(_write(tmp_path, _bomb(), "bomb.yaml"))
