"""Core records, transform specs, stable variant ids and persona grids."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from guisekit.errors import ConfigError, GuisekitError, InputError, ResourceError
from guisekit.ids import stable_hash, variant_id
from guisekit.models import AppliedEdit, Provenance, Source, TokenUsage, Variant
from guisekit.personas import Persona, PersonaGrid, load_grid
from guisekit.specs import (
    AccentSpec,
    FactEditSpec,
    HedgeSpec,
    IdentitySpec,
    PersonaSpec,
    StandardiseSpec,
    parse_spec,
)

# --------------------------------------------------------------------------- Source


def test_source_keeps_text_and_meta() -> None:
    source = Source(id="s1", text="  I paid $35.  ", meta={"lang": "en"})
    assert (source.id, source.text, source.meta) == ("s1", "  I paid $35.  ", {"lang": "en"})
    assert Source(id="s2", text="x").meta == {}


@pytest.mark.parametrize("text", ["", " ", "\t\n", "\u00a0\u2003"])
def test_source_rejects_blank_text(text: str) -> None:
    with pytest.raises(ValidationError) as info:
        Source(id="s1", text=text)
    [error] = info.value.errors()
    assert error["loc"] == ("text",)
    assert "empty or whitespace only" in error["msg"]


def test_source_rejects_empty_id() -> None:
    with pytest.raises(ValidationError) as info:
        Source(id="", text="fine")
    assert info.value.errors()[0]["loc"] == ("id",)
    assert info.value.errors()[0]["type"] == "string_too_short"


def test_source_rejects_unknown_fields() -> None:
    with pytest.raises(ValidationError) as info:
        Source(id="s1", text="fine", txet="typo")  # type: ignore[call-arg]
    [error] = info.value.errors()
    assert error["type"] == "extra_forbidden"
    assert error["loc"] == ("txet",)


def test_source_is_frozen() -> None:
    source = Source(id="s1", text="fine")
    with pytest.raises(ValidationError):
        source.text = "changed"  # type: ignore[misc]
    assert source.text == "fine"


# --------------------------------------------------------------------------- specs

VALID_SPECS: list[tuple[dict[str, Any], type, dict[str, Any]]] = [
    ({"transform": "identity"}, IdentitySpec, {"version": 1}),
    (
        {"transform": "persona", "persona": {"age": "old", "ses": "low"}},
        PersonaSpec,
        {"persona": {"age": "old", "ses": "low"}, "grid": None, "version": 1},
    ),
    (
        {"transform": "persona", "persona": {"age": "old"}, "grid": "my/grid.yaml"},
        PersonaSpec,
        {"grid": "my/grid.yaml"},
    ),
    (
        {"transform": "hedge", "direction": "hedged"},
        HedgeSpec,
        {"direction": "hedged", "strength": 0.7},
    ),
    (
        {"transform": "hedge", "direction": "confident", "strength": 1},
        HedgeSpec,
        {"direction": "confident", "strength": 1.0},
    ),
    ({"transform": "hedge", "direction": "hedged", "strength": 0}, HedgeSpec, {"strength": 0.0}),
    ({"transform": "accent"}, AccentSpec, {"article_drop_rate": 0.5, "marker_rate": 0.5}),
    (
        {"transform": "accent", "article_drop_rate": 0.9, "marker_rate": 0.1},
        AccentSpec,
        {"article_drop_rate": 0.9, "marker_rate": 0.1},
    ),
    (
        {"transform": "fact_edit", "kind": "scale_amounts"},
        FactEditSpec,
        {"kind": "scale_amounts", "factor": Decimal(10), "amount": "$500"},
    ),
    (
        {"transform": "fact_edit", "kind": "weaken", "factor": "2.5"},
        FactEditSpec,
        {"kind": "weaken", "factor": Decimal("2.5")},
    ),
    ({"transform": "standardise"}, StandardiseSpec, {"style": "plain"}),
    (
        {"transform": "standardise", "style": "formal", "version": 1},
        StandardiseSpec,
        {"style": "formal", "version": 1},
    ),
]


@pytest.mark.parametrize(
    ("data", "cls", "expected"),
    VALID_SPECS,
    ids=[f"{d['transform']}-{i}" for i, (d, _, _) in enumerate(VALID_SPECS)],
)
def test_parse_spec_builds_the_matching_model(
    data: dict[str, Any], cls: type, expected: dict[str, Any]
) -> None:
    spec = parse_spec(data)
    assert type(spec) is cls
    assert spec.transform == data["transform"]
    for key, value in expected.items():
        assert getattr(spec, key) == value, key
    # a spec survives a JSON round trip unchanged
    assert parse_spec(spec.model_dump(mode="json")) == spec


UNKNOWN_SPECS: list[tuple[str, object, str]] = [
    ("unknown-transform", {"transform": "pirate"}, "unknown transform 'pirate'"),
    ("missing-transform", {"direction": "hedged"}, "a transform spec needs `transform:`"),
    ("not-a-mapping", ["hedge"], "a transform spec must be a mapping, not list"),
    # a version nothing implements must not run version 1's behaviour under a new id
    ("unknown-version", {"transform": "standardise", "version": 2}, "has no version 2"),
]


@pytest.mark.parametrize(
    ("data", "message"), [pytest.param(*c[1:], id=c[0]) for c in UNKNOWN_SPECS]
)
def test_parse_spec_rejects_what_the_registry_does_not_know(data: object, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_spec(data)
    assert message in info.value.one_line()
    assert "\n" not in info.value.one_line()


def test_a_spec_model_built_directly_rejects_an_unregistered_version() -> None:
    with pytest.raises(ValidationError, match="has no version 2"):
        HedgeSpec(direction="hedged", version=2)


INVALID_SPECS: list[tuple[str, dict[str, Any] | object, str, tuple[Any, ...]]] = [
    (
        "identity-unknown-field",
        {"transform": "identity", "strength": 0.5},
        "extra_forbidden",
        ("identity", "strength"),
    ),
    (
        "hedge-unknown-field",
        {"transform": "hedge", "direction": "hedged", "strenght": 0.5},
        "extra_forbidden",
        ("hedge", "strenght"),
    ),
    (
        "hedge-strength-over-1",
        {"transform": "hedge", "direction": "hedged", "strength": 1.5},
        "less_than_equal",
        ("hedge", "strength"),
    ),
    (
        "hedge-strength-negative",
        {"transform": "hedge", "direction": "hedged", "strength": -0.1},
        "greater_than_equal",
        ("hedge", "strength"),
    ),
    ("hedge-missing-direction", {"transform": "hedge"}, "missing", ("hedge", "direction")),
    (
        "hedge-bad-direction",
        {"transform": "hedge", "direction": "sideways"},
        "literal_error",
        ("hedge", "direction"),
    ),
    ("persona-empty", {"transform": "persona", "persona": {}}, "too_short", ("persona", "persona")),
    ("persona-missing", {"transform": "persona"}, "missing", ("persona", "persona")),
    (
        "accent-rate-over-1",
        {"transform": "accent", "marker_rate": 2},
        "less_than_equal",
        ("accent", "marker_rate"),
    ),
    (
        "fact-edit-bad-kind",
        {"transform": "fact_edit", "kind": "invert"},
        "literal_error",
        ("fact_edit", "kind"),
    ),
    (
        "fact-edit-zero-factor",
        {"transform": "fact_edit", "kind": "scale_amounts", "factor": 0},
        "greater_than",
        ("fact_edit", "factor"),
    ),
    (
        "fact-edit-empty-amount",
        {"transform": "fact_edit", "kind": "strengthen", "amount": ""},
        "string_too_short",
        ("fact_edit", "amount"),
    ),
    (
        "standardise-bad-style",
        {"transform": "standardise", "style": "pirate"},
        "literal_error",
        ("standardise", "style"),
    ),
    (
        "version-zero",
        {"transform": "identity", "version": 0},
        "greater_than_equal",
        ("identity", "version"),
    ),
]


@pytest.mark.parametrize(
    ("data", "error_type", "loc"), [pytest.param(*c[1:], id=c[0]) for c in INVALID_SPECS]
)
def test_parse_spec_rejects_bad_specs(data: object, error_type: str, loc: tuple[Any, ...]) -> None:
    with pytest.raises(ValidationError) as info:
        parse_spec(data)
    errors = info.value.errors()
    assert len(errors) == 1, errors
    assert errors[0]["type"] == error_type
    if loc:
        assert errors[0]["loc"] == loc


def test_specs_are_frozen_and_forbid_unknown_fields_when_built_directly() -> None:
    spec = HedgeSpec(direction="hedged")
    with pytest.raises(ValidationError):
        spec.strength = 0.1  # type: ignore[misc]
    with pytest.raises(ValidationError) as info:
        HedgeSpec(direction="hedged", colour="red")  # type: ignore[call-arg]
    assert info.value.errors()[0]["type"] == "extra_forbidden"


# --------------------------------------------------------------------------- variant ids

BASE = {
    "source_id": "src-1",
    "spec": HedgeSpec(direction="hedged", strength=0.5),
    "engine_config": {"engine": "rules", "model": None, "params": {"a": 1}},
    "seed": 0,
}


def _vid(**overrides: Any) -> str:
    args = {**BASE, **overrides}
    return variant_id(args["source_id"], args["spec"], args["engine_config"], args["seed"])


def test_variant_id_is_stable_and_prefixed() -> None:
    first = _vid()
    second = _vid()
    assert first == second
    assert first.startswith("v-")
    assert len(first) == 2 + 16
    assert all(c in "0123456789abcdef" for c in first[2:])


def test_variant_id_is_equal_for_equal_specs_built_differently() -> None:
    parsed = parse_spec({"transform": "hedge", "direction": "hedged", "strength": 0.5})
    assert _vid(spec=parsed) == _vid()
    # dict key order of the engine config does not matter
    reordered = {"params": {"a": 1}, "model": None, "engine": "rules"}
    assert _vid(engine_config=reordered) == _vid()


@pytest.mark.parametrize(
    "change",
    [
        {"source_id": "src-2"},
        {"spec": HedgeSpec(direction="hedged", strength=0.6)},
        {"spec": HedgeSpec(direction="confident", strength=0.5)},
        # a version the registry does not know cannot be validated: build it unchecked
        {"spec": HedgeSpec.model_construct(direction="hedged", strength=0.5, version=2)},
        {"spec": IdentitySpec()},
        {"engine_config": {"engine": "llm", "model": None, "params": {"a": 1}}},
        {"engine_config": {"engine": "rules", "model": None, "params": {"a": 2}}},
        {"seed": 1},
    ],
    ids=["source", "strength", "direction", "version", "transform", "engine", "params", "seed"],
)
def test_variant_id_changes_with_each_input(change: dict[str, Any]) -> None:
    changed = _vid(**change)
    assert changed != _vid()
    assert changed.startswith("v-")


def test_variant_id_is_the_same_in_another_process() -> None:
    code = (
        "from guisekit.ids import variant_id; from guisekit.specs import HedgeSpec; "
        "print(variant_id('src-1', HedgeSpec(direction='hedged', strength=0.5), "
        "{'engine': 'rules', 'model': None, 'params': {'a': 1}}, 0))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=60,
    )
    assert done.stdout.strip() == _vid()


def test_stable_hash_is_length_limited_and_order_sensitive() -> None:
    assert len(stable_hash("a", length=8)) == 8
    assert stable_hash("a", "b") != stable_hash("b", "a")
    assert stable_hash({"x": 1, "y": 2}) == stable_hash({"y": 2, "x": 1})


# --------------------------------------------------------------------------- pickling


def _variant() -> Variant:
    spec = parse_spec({"transform": "fact_edit", "kind": "scale_amounts", "factor": "10"})
    provenance = Provenance(
        engine="rules",
        params={"rate": 0.5, "nested": {"k": [1, 2]}},
        prompt_id=None,
        seed=7,
        edits=(
            AppliedEdit(
                operator="scale_amounts.v1", start=9, end=13, before="$450", after="$4,500"
            ),
            AppliedEdit(operator="scale_amounts.v1", start=30, end=33, before="$35", after="$350"),
        ),
        usage=TokenUsage(input_tokens=12, output_tokens=34),
        elapsed_ms=1.25,
    )
    return Variant(
        source_id="src-1",
        variant_id=variant_id("src-1", spec, {"engine": "rules"}, 7),
        spec=spec,
        text="I was charged $4,500 and a fee of $350.",
        provenance=provenance,
    )


def test_variant_pickle_round_trip() -> None:
    variant = _variant()
    clone = pickle.loads(pickle.dumps(variant))
    assert clone == variant
    assert clone is not variant
    assert type(clone.spec) is FactEditSpec
    assert clone.spec.factor == Decimal(10)
    assert clone.provenance.edits[0] == AppliedEdit(
        operator="scale_amounts.v1", start=9, end=13, before="$450", after="$4,500"
    )
    assert clone.provenance.usage == TokenUsage(input_tokens=12, output_tokens=34)
    assert clone.provenance.params == {"rate": 0.5, "nested": {"k": [1, 2]}}
    assert clone.variant_id.startswith("v-")
    assert clone.status == "ok"


def test_variant_json_round_trip_keeps_the_spec_type() -> None:
    variant = _variant()
    again = Variant.model_validate_json(variant.model_dump_json())
    assert again == variant
    assert type(again.spec) is FactEditSpec


def test_variant_spec_is_validated_from_a_mapping() -> None:
    variant = Variant(
        source_id="s",
        variant_id="v-x",
        spec={"transform": "identity"},
        text="t",
        provenance=Provenance(engine="rules"),
    )
    assert type(variant.spec) is IdentitySpec
    with pytest.raises(ValidationError):
        Variant(
            source_id="s",
            variant_id="v-x",
            spec={"transform": "nope"},
            text="t",
            provenance=Provenance(engine="rules"),
        )


def test_failed_variant_keeps_status_and_reason() -> None:
    variant = Variant(
        source_id="s",
        variant_id="v-x",
        spec=IdentitySpec(),
        text=None,
        status="refused",
        reason="model refused",
        provenance=Provenance(engine="llm", model="m"),
    )
    assert pickle.loads(pickle.dumps(variant)) == variant
    with pytest.raises(ValidationError):
        Variant(
            source_id="s",
            variant_id="v-x",
            spec=IdentitySpec(),
            text=None,
            status="lost",
            provenance=Provenance(engine="rules"),
        )


@pytest.mark.parametrize(
    ("model", "kwargs"),
    [
        (AppliedEdit, {"operator": "x", "start": -1, "end": 0, "before": "", "after": ""}),
        (
            AppliedEdit,
            {"operator": "x", "start": 0, "end": 0, "before": "", "after": "", "extra": 1},
        ),
        # engine names are open (plugins add engines): an empty one is still rejected
        (Provenance, {"engine": ""}),
        (Provenance, {"engine": "rules", "sede": 1}),
    ],
    ids=["negative-start", "edit-extra-field", "empty-engine", "provenance-typo"],
)
def test_record_validation(model: type, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**kwargs)


# --------------------------------------------------------------------------- persona grid

EXPECTED_AXES = {
    "age": ["young", "old"],
    "geography": ["urban", "suburban", "rural"],
    "education": ["high_school", "college"],
    "ses": ["low", "middle", "high"],
}


@pytest.fixture(scope="module")
def grid() -> PersonaGrid:
    return load_grid()


def test_builtin_grid_has_four_axes_with_the_documented_levels(grid: PersonaGrid) -> None:
    assert {axis.name: [lv.name for lv in axis.levels] for axis in grid.axes} == EXPECTED_AXES
    assert [axis.name for axis in grid.axes] == ["age", "geography", "education", "ses"]
    for axis in grid.axes:
        for level in axis.levels:
            assert level.description.strip(), (axis.name, level.name)


def test_builtin_grid_has_36_unique_personas(grid: PersonaGrid) -> None:
    personas = grid.personas()
    assert len(personas) == 36
    ids = [p.id for p in personas]
    assert len(set(ids)) == 36
    assert ids[0] == "young-urban-high_school-low"
    assert ids[-1] == "old-rural-college-high"
    assert all(len(p.id.split("-")) == 4 for p in personas)
    assert {p.as_dict()["education"] for p in personas} == {"high_school", "college"}


def test_builtin_grid_is_cached(grid: PersonaGrid) -> None:
    assert load_grid() is grid


def test_persona_from_id(grid: PersonaGrid) -> None:
    persona = grid.persona("old-rural-high_school-low")
    assert isinstance(persona, Persona)
    assert persona.id == "old-rural-high_school-low"
    assert persona.as_dict() == {
        "age": "old",
        "geography": "rural",
        "education": "high_school",
        "ses": "low",
    }
    descriptions = grid.describe(persona)
    assert len(descriptions) == 4
    assert descriptions[0].startswith("A writer over sixty-five")
    assert "small town" in descriptions[1]


def test_persona_from_mapping_is_put_in_axis_order(grid: PersonaGrid) -> None:
    persona = grid.persona(
        {"ses": "high", "education": "college", "geography": "urban", "age": "young"}
    )
    assert persona.id == "young-urban-college-high"
    assert persona == grid.persona("young-urban-college-high")


def test_unknown_level_names_level_axis_and_known_levels(grid: PersonaGrid) -> None:
    with pytest.raises(InputError) as info:
        grid.persona("old-rural-phd-low")
    line = info.value.one_line()
    assert "'phd'" in line
    assert "'education'" in line
    assert "high_school, college" in line
    assert "\n" not in line


def test_unknown_level_on_first_axis(grid: PersonaGrid) -> None:
    with pytest.raises(InputError) as info:
        grid.persona(
            {"age": "middle_aged", "geography": "urban", "education": "college", "ses": "low"}
        )
    line = info.value.one_line()
    assert "'middle_aged'" in line and "'age'" in line and "young, old" in line


@pytest.mark.parametrize("text", ["old-rural-low", "old", "old-rural-college-low-extra"])
def test_wrong_number_of_parts(grid: PersonaGrid, text: str) -> None:
    with pytest.raises(InputError) as info:
        grid.persona(text)
    parts = len(text.split("-"))
    line = info.value.one_line()
    assert f"has {parts} levels, the grid has 4 axes" in line
    assert "young-urban-high_school-low" in line


def test_unknown_axis_and_missing_axis(grid: PersonaGrid) -> None:
    with pytest.raises(InputError) as info:
        grid.persona(
            {
                "age": "old",
                "geography": "rural",
                "education": "college",
                "ses": "low",
                "religion": "none",
            }
        )
    assert "unknown persona axis 'religion'" in info.value.one_line()
    assert "age, geography, education, ses" in info.value.one_line()
    with pytest.raises(InputError) as info:
        grid.persona({"age": "old", "geography": "rural", "education": "college"})
    assert "axis 'ses'" in info.value.one_line()


USER_GRID = """\
# A tiny user grid for tests.
axes:
  - name: register
    levels:
      - name: formal
        description: Writes in a formal register.
      - name: casual
        description: Writes casually.
  - name: region
    levels:
      - name: north
        description: From the north.
      - name: south
        description: From the south.
"""


def test_user_grid_from_yaml(tmp_path: Path) -> None:
    path = tmp_path / "user_grid.yaml"
    path.write_text(USER_GRID, encoding="utf-8")
    grid = load_grid(path)
    assert [p.id for p in grid.personas()] == [
        "formal-north",
        "formal-south",
        "casual-north",
        "casual-south",
    ]
    persona = grid.persona("casual-south")
    assert grid.describe(persona) == ["Writes casually.", "From the south."]
    with pytest.raises(InputError, match="'east'"):
        grid.persona("casual-east")
    # the user grid does not replace the built-in one
    assert len(load_grid().personas()) == 36


BAD_GRIDS = [
    (
        "level-without-description",
        USER_GRID.replace("        description: Writes casually.\n", ""),
        ["description", "Field required"],
    ),
    (
        "duplicate-level",
        USER_GRID.replace("name: casual", "name: formal"),
        ["repeats a level name", "'register'"],
    ),
    (
        "duplicate-axis",
        USER_GRID.replace("name: region", "name: register"),
        ["repeats an axis name"],
    ),
    ("bad-level-name", USER_GRID.replace("name: north", "name: North Side"), ["pattern"]),
    ("no-axes", "axes: []\n", ["axes"]),
    ("unknown-key", USER_GRID + "colour: red\n", ["colour"]),
]


@pytest.mark.parametrize(("text", "parts"), [pytest.param(t, p, id=i) for i, t, p in BAD_GRIDS])
def test_malformed_user_grid_raises_config_error_naming_the_file(
    tmp_path: Path,
    request: pytest.FixtureRequest,
    text: str,
    parts: list[str],
) -> None:
    path = tmp_path / f"{request.node.callspec.id}.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_grid(path)
    line = info.value.one_line()
    assert str(path) in line
    assert info.value.location is not None and info.value.location.startswith(str(path))
    for part in parts:
        assert part in line, (part, line)


def test_missing_or_unparsable_grid_file_raises_resource_error(tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match="not found"):
        load_grid(tmp_path / "absent.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("axes: [\n  - name: {\n", encoding="utf-8")
    with pytest.raises(ResourceError) as info:
        load_grid(broken)
    assert "malformed YAML" in str(info.value)
    assert isinstance(info.value, GuisekitError)
