"""Presets: one line of a corpus, audit or study config selects a published protocol's
settings; settings written in the config win; the documentation tables match the data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from e2e_helpers import cli

import guisekit.audit.verdict  # registers the audit schemas
import guisekit.decision_answers  # noqa: F401  (registers the decision schemas)
from guisekit.attributes import load_attribute_set
from guisekit.audit.config import load_audit_config
from guisekit.audit.domains import load_domain
from guisekit.corpus.plan import load_config
from guisekit.errors import ConfigError
from guisekit.llm import LLMEngine, LLMRunner, Store, load_prompt
from guisekit.llm.engine import PROMPTS
from guisekit.llm.refs import parse_model
from guisekit.models import Source
from guisekit.presets import apply_preset, load_preset, preset_names
from guisekit.specs import parse_spec

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Source(id="s1", text="On XX/XX/XXXX the bank charged me a late fee. I want it reversed.")
REQUIRED = {"persona": {"persona": {"age": "young"}}, "fact_edit": {"kind": "strengthen"}}


def _write(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_packaged_presets_name_only_things_that_exist():
    assert preset_names() == ("paper", "paper_hedging", "paper_hinglish")
    for name in preset_names():
        preset = load_preset(name)
        assert preset.name == name
        assert set(preset.corpus.prompts) == set(PROMPTS)
        for transform, version in preset.corpus.prompts.items():
            assert load_prompt(PROMPTS[transform], version).version == version
        for transform, defaults in preset.corpus.transforms.items():
            spec = parse_spec({"transform": transform, **REQUIRED.get(transform, {}), **defaults})
            assert spec.model_dump(include=set(defaults)) == defaults
        assert preset.audit.prompt_version == 2
        assert load_prompt("audit/compare", preset.audit.prompt_version).version == 2
        load_domain(preset.audit.domain or "complaints")
    paper = load_preset("paper")
    assert paper.attributes is not None and paper.decide is not None
    assert len(load_attribute_set(paper.attributes.attribute_set).attributes) == 19
    assert load_prompt("attribute/score", paper.attributes.prompt_version).version == 2
    assert load_prompt(paper.decide.prompt, paper.decide.version).output_schema == "remedy.v1"
    assert paper.decide.label_prompt is not None
    label = load_prompt(paper.decide.label_prompt, paper.decide.label_version)
    assert label.output_schema == "remedy_label.v1"
    assert (load_preset("paper_hedging").audit.domain, load_preset("paper").audit.domain) == (
        "hedging",
        "complaints",
    )


def test_config_settings_win_over_the_preset():
    config = {
        "preset": "paper",
        "engine": {"name": "llm", "models": ["openai:m"], "prompts": {"persona": 1}},
        "transforms": [
            {"transform": "persona", "personas": "all"},
            {"transform": "persona", "grid": "default", "personas": "all"},
            {"transform": "fact_edit", "kind": "weaken", "amount": "$10"},
            {"transform": "fact_edit", "kind": "strengthen"},
            {"transform": "accent", "marker_rate": 0.3},
            {"transform": "hedge", "direction": "hedged"},
        ],
    }
    applied = apply_preset("corpus", config, where="c.yaml")
    assert "preset" not in applied and config["preset"] == "paper"  # the input is not changed
    assert applied["engine"]["prompts"] == {
        "persona": 1,
        "hedge": 2,
        "accent": 2,
        "fact_edit": 2,
        "standardise": 2,
        "hinglish": 2,
    }
    grids = [t.get("grid") for t in applied["transforms"][:2]]
    amounts = [t.get("amount") for t in applied["transforms"][2:4]]
    assert (grids, amounts) == (["demographic", "default"], ["$10", "$2,000"])
    assert applied["transforms"][4]["marker_rate"] == 0.3
    assert applied["transforms"][5] == {"transform": "hedge", "direction": "hedged"}
    rules = apply_preset("corpus", {"preset": "paper", "engine": {"name": "rules"}})
    assert rules["engine"] == {"name": "rules"}  # prompt pins apply to the llm engine only
    assert apply_preset("audit", {"preset": "paper", "domain": "salary"}) == {
        "domain": "salary",
        "prompt_version": 2,
    }
    assert apply_preset("audit", {"pairs": "p.jsonl"}) == {"pairs": "p.jsonl"}
    study = apply_preset(
        "study",
        {
            "preset": "paper_hedging",
            "corpus": {"transforms": [{"transform": "accent"}]},
            "audit": {"preset": "paper_hinglish"},
            "seed": 3,
        },
    )
    assert study == {
        "corpus": {"transforms": [{"transform": "accent", "marker_rate": 0.0}]},
        "audit": {"prompt_version": 2, "domain": "salary"},
        "seed": 3,
    }


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("papers", "c.yaml: preset: unknown preset 'papers' (use one of: paper, "),
        (2, "c.yaml: preset: preset must be a name"),
    ],
)
def test_bad_preset_is_a_config_error_naming_the_key(value, message):
    with pytest.raises(ConfigError) as caught:
        apply_preset("corpus", {"preset": value, "transforms": []}, where="c.yaml")
    assert caught.value.one_line().startswith(message)


def test_one_line_selects_the_paper_protocol_for_a_corpus(tmp_path, capsys):
    config = _write(
        tmp_path / "corpus.yaml",
        {
            "preset": "paper",
            "sources": {"path": str(ROOT / "examples/data/complaints.jsonl"), "limit": 2},
            "transforms": [
                {"transform": "persona", "personas": ["old-rural-college-high"]},
                {"transform": "fact_edit", "kind": "strengthen"},
            ],
            "output": {"dir": "out"},
        },
    )
    assert cli("corpus", str(config)) == 0
    rows = [
        json.loads(line)
        for line in (tmp_path / "out/corpus.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    specs = {r["transform"]: r["spec"] for r in rows}
    assert specs["persona"]["grid"] == "demographic"
    assert specs["fact_edit:strengthen"]["amount"] == "$2,000"
    assert cli("corpus", str(config), "--overwrite") == 0  # the same config, the same ids
    again = (tmp_path / "out/corpus.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["variant_id"] for line in again] == [r["variant_id"] for r in rows]


def test_paper_preset_renders_the_published_persona_and_fact_edit_prompts(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-preset-test")
    path = _write(
        tmp_path / "corpus.yaml",
        {
            "preset": "paper",
            "sources": {"path": "s.jsonl"},
            "engine": {"name": "llm", "models": ["openai:stub"]},
            "transforms": [{"transform": "persona"}],
            "output": {"dir": "out"},
        },
    )
    config = load_config(path)
    engine = LLMEngine(
        parse_model("openai:stub"), LLMRunner(Store(tmp_path / "c.sqlite")), config.engine.prompts
    )
    assert engine.config["prompts"] == dict.fromkeys(PROMPTS, 2)
    entries = apply_preset(
        "corpus",
        {
            "preset": "paper",
            "transforms": [
                {"transform": "persona", "persona": {"age": "young", "geography": "urban",
                                                     "education": "college", "ses": "low"}},
                {"transform": "fact_edit", "kind": "strengthen"},
            ],
        },
    )["transforms"]  # fmt: skip
    persona, strengthen = (engine.request(SOURCE, parse_spec(e), 0) for e in entries)
    assert persona is not None and strengthen is not None
    user = persona.prompt.messages[1].content
    assert "- Age: 18 to 29 (young adult)\n" in user
    assert "- Socioeconomic status: low (household income under $50,000 a year)" in user
    assert not re.search(r"tone|vocabulary|spelling", user.split("<text>")[0])
    assert "the amount of money, $2,000, that the writer lost" in " ".join(
        strengthen.prompt.messages[1].content.split()
    )
    assert (persona.prompt.version, strengthen.prompt.version) == (2, 2)


def test_one_line_selects_the_hedge_aware_audit(tmp_path):
    path = _write(
        tmp_path / "audit.yaml",
        {"preset": "paper_hedging", "pairs": "p.jsonl", "output": "out"},
    )
    settings = load_audit_config(path, {})
    assert (settings.domain, settings.prompt_version) == ("hedging", 2)
    overridden = load_audit_config(path, {"domain": "complaints"})
    assert (overridden.domain, overridden.prompt_version) == ("complaints", 2)
    _write(path, {"preset": "nope", "pairs": "p.jsonl", "output": "out"})
    with pytest.raises(ConfigError, match=r"audit\.yaml: preset: unknown preset 'nope'"):
        load_audit_config(path, {})


# --- the documentation tables match the data ---------------------------------------------


def test_prompts_readme_table_lists_every_preset_setting():
    readme = (ROOT / "prompts/README.md").read_text(encoding="utf-8")
    for name in preset_names():
        for element in load_preset(name).elements:
            row = f"| `{name}` | {element.setting} |"
            assert row in readme, row


def test_readme_lists_the_paper_attribute_set_with_its_levels():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paper = load_attribute_set("complaints_paper")
    rows = [line for line in readme.splitlines() if line.startswith("| `") and "|" in line[3:]]
    for attribute in paper.attributes:
        expected = (
            f"| `{attribute.name}` | {attribute.family} | {attribute.levels.low} | "
            f"{attribute.levels.medium} | {attribute.levels.high} |"
        )
        assert expected in rows, expected
