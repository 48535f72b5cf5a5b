"""Persona features in the rules engine: every feature names its source, stereotyped
slang is gone, and unrealised axes are reported as such (issue 13)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from guisekit.cli import app
from guisekit.personas import axis_report, load_grid
from guisekit.rules.engine import Feature, RulesEngine, load_profiles
from guisekit.rules.lexicon import default_lexicon

ROOT = Path(__file__).parents[1]
STEREOTYPED = ("homie", "whip", "deadass", "finna", "no cap", "hella", "lowkey", "real talk")


def test_every_packaged_feature_names_its_source() -> None:
    profiles = load_profiles()
    for levels in profiles.levels.values():
        for features in levels.values():
            for name, feature in features.items():
                assert isinstance(feature, Feature), name
                assert len(feature.source) > 10, name


def test_geography_and_ses_are_declared_unrealised_with_reasons() -> None:
    profiles = load_profiles()
    assert set(profiles.unrealised) == {"geography", "ses"}
    rows = {(r.axis, r.level): r.status for r in axis_report(load_grid())}
    assert rows[("geography", "(all)")].startswith("unrealised:")
    assert rows[("ses", "(all)")].startswith("unrealised:")
    assert "Schler" in rows[("age", "young")] and "Crossley" in rows[("education", "college")]


def test_no_stereotyped_slang_in_any_lexicon_file() -> None:
    for path in (ROOT / "lexicons" / "rules").iterdir():
        if path.name in ("edit_regressions.yaml",):
            continue
        lines = [
            line.lower()
            for line in path.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith("#")
        ]
        for word in STEREOTYPED:
            assert not any(f"\t{word}\t" in f"\t{line}\t" or f" {word}," in line
                           or f"[{word}," in line or f" {word}]" in line
                           or line.split("\t")[:1] == [word] or f"- {word}" == line.strip()
                           for line in lines), (path.name, word)  # fmt: skip


def test_a_persona_that_differs_only_on_unrealised_axes_gets_the_same_rates() -> None:
    engine = RulesEngine()
    grid = load_grid()
    a = grid.persona({"age": "young", "geography": "urban", "education": "college", "ses": "low"})
    b = grid.persona({"age": "young", "geography": "rural", "education": "college", "ses": "high"})
    assert engine.profiles.rates(a) == engine.profiles.rates(b)


def test_user_profiles_can_realise_an_axis(tmp_path: Path) -> None:
    path = tmp_path / "profiles.yaml"
    path.write_text(
        "levels:\n  age: {young: {contract.v1: 0.5}, old: {expand.v1: 0.5}}\n"
        "  geography:\n    urban: {}\n    suburban: {}\n"
        "    rural: {filler_casual.v1: {rate: 0.3, source: my own corpus study}}\n"
        "  education: {high_school: {}, college: {}}\n  ses: {low: {}, middle: {}, high: {}}\n",
        encoding="utf-8",
    )
    profiles = load_profiles(path)
    assert profiles.realised("geography") and not profiles.unrealised
    rows = {(r.axis, r.level): r.status for r in axis_report(load_grid(), path)}
    assert "my own corpus study" in rows[("geography", "rural")]


def test_personas_command_reports_unrealised_axes() -> None:
    result = CliRunner().invoke(app, ["personas"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "unrealised" in result.stdout and "geography" in result.stdout


def test_lexicon_intensifiers_have_no_group_linked_forms() -> None:
    lex = default_lexicon()
    assert not {"hella", "mad"} & set(lex.intensifiers("young"))
