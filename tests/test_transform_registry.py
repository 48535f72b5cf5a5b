"""The transform registry: one entry per transform version, read by every engine."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from guisekit.audit.pairs import make_pair
from guisekit.corpus.run import as_intended
from guisekit.errors import ConfigError
from guisekit.facts import compare_facts, extract_facts
from guisekit.models import Source
from guisekit.rules import RulesEngine
from guisekit.transforms import (
    Spec,
    Transform,
    _registry,
    all_transforms,
    entry_of,
    get,
    label_of,
    parse_spec,
)

ROOT = Path(__file__).parents[1]
BUILTIN = {"identity", "persona", "hedge", "accent", "fact_edit", "standardise", "hinglish"}


def test_every_builtin_transform_is_one_versioned_entry() -> None:
    ids = {t.id for t in all_transforms()}
    assert {f"{name}.v1" for name in BUILTIN} <= ids
    for entry in all_transforms():
        assert entry.spec.model_fields["transform"].default == entry.name
        assert get(entry.name, entry.version) is entry


@pytest.mark.parametrize(
    ("data", "label", "change"),
    [
        ({"transform": "identity"}, "identity", "none"),
        ({"transform": "hedge", "direction": "hedged"}, "hedge:hedged", "none"),
        ({"transform": "accent"}, "accent", "none"),
        ({"transform": "standardise", "style": "formal"}, "standardise:formal", "none"),
        ({"transform": "hinglish", "mix_ratio": 0.3}, "hinglish:0.3", "none"),
        ({"transform": "persona", "persona": {"age": "old"}}, "persona", "none"),
        ({"transform": "fact_edit", "kind": "scale_amounts"}, "fact_edit:scale_amounts", "scaled"),
        ({"transform": "fact_edit", "kind": "strengthen"}, "fact_edit:strengthen", "added"),
        ({"transform": "fact_edit", "kind": "weaken"}, "fact_edit:weaken", "claim"),
    ],
)
def test_labels_and_fact_changes_come_from_the_entry(
    data: dict[str, object], label: str, change: str
) -> None:
    spec = parse_spec(data)
    assert label_of(spec) == label
    assert entry_of(spec).change(spec) == change
    # a pairs file carries only the label: the audit reads the same change through it
    assert make_pair("p", "s", "a", "b", transform=label).fact_change == change


def test_audit_controls_are_the_transforms_that_change_facts() -> None:
    assert make_pair("p", "s", "a", "b", transform="fact_edit:scale_amounts").control
    assert make_pair("p", "s", "a", "b", transform="fact_edit:strengthen").edit_kind == "strengthen"
    for label in ("persona", "hedge:hedged", "standardise:plain", "paraphrase", "fact_edit:nope"):
        pair = make_pair("p", "s", "a", "b", transform=label)
        assert not pair.control and pair.edit_kind is None and pair.fact_change == "none"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"transform": "hedge", "direction": "hedged", "version": 2}, "'hedge' has no version 2"),
        ({"transform": "shout"}, "unknown transform 'shout'"),
    ],
)
def test_an_unknown_transform_or_version_is_a_one_line_config_error(
    data: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError) as info:
        parse_spec(data)
    assert message in info.value.one_line()
    assert "known" in info.value.one_line()


class _LoudSpec(Spec):
    transform: Literal["hedge"] = "hedge"
    direction: Literal["hedged", "confident"]


def _upper_rewrite(engine: RulesEngine, text: str, spec: Spec, rng: object):  # type: ignore[no-untyped-def]
    from guisekit.transforms import RulesOutput

    return RulesOutput(text.upper(), [], params={"v": 2})


@pytest.fixture
def hedge_v2() -> Iterator[Transform]:
    """A second version of hedge next to the first, as a behaviour change would add."""
    entry = Transform("hedge", 2, _LoudSpec, fact_change="added", rewrite=_upper_rewrite)
    _registry.register(entry)
    try:
        yield entry
    finally:
        del _registry._REGISTRY[("hedge", 2)]
        del _registry._VERSIONS[_LoudSpec]


def test_the_spec_version_selects_the_implementation(hedge_v2: Transform) -> None:
    engine = RulesEngine()
    source = Source(id="s1", text="This will certainly fix the problem.")
    v1 = engine.transform(source, parse_spec({"transform": "hedge", "direction": "hedged"}))
    v2 = engine.transform(
        source, parse_spec({"transform": "hedge", "direction": "hedged", "version": 2})
    )
    assert v2.text == "THIS WILL CERTAINLY FIX THE PROBLEM."
    assert v1.text != v2.text and v1.variant_id != v2.variant_id
    assert v2.provenance.params == {"v": 2}
    # what it intends to do to facts is read from the entry too
    assert isinstance(v2.spec, _LoudSpec)
    check = compare_facts(extract_facts(source.text), extract_facts(v2.text or ""))
    assert not as_intended(v2.spec, check)  # "added" wants one new amount


ENGINE_MODULES = [
    "src/guisekit/rules/engine.py",
    "src/guisekit/llm/engine.py",
    "src/guisekit/corpus/plan.py",
    "src/guisekit/corpus/run.py",
    "src/guisekit/corpus/export.py",
    "src/guisekit/audit/pairs.py",
]


@pytest.mark.parametrize("path", ENGINE_MODULES)
def test_engines_and_callers_never_branch_on_the_spec_type(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    assert not re.search(r"isinstance\(\s*\w*spec\w*\s*,", text), path
    assert '"fact_edit:' not in text, path  # no string protocol for controls
    assert not re.search(r"Spec\b.*import|import.*\b(Hedge|Persona|FactEdit)Spec", text), path
