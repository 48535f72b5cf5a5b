"""Field mappings onto other layouts, values kept as written, id templates and row order."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guisekit.errors import ConfigError
from guisekit.grid import (
    GridInputs,
    IdSpec,
    build_grid,
    load_grid_config,
    resolve_inputs,
    slugify,
)
from guisekit.grid.files import read_data
from guisekit.grid.ids import FACTORS

TEMPLATES = {
    "self": {
        "en": "I am {{ identity }}. I studied at {{ college }} (CGPA {{ cgpa }}). {{ question }}",
        "hinglish": "Main {{ identity }} hoon. Maine {{ college }} se padhai ki. {{ question }}",
    }
}
QUESTIONS = [
    {"id": "Q1", "text": {"en": "Is it fair?", "hinglish": "Kya yeh fair hai?"}},
    {"id": "Q2", "text": {"en": "What range?", "hinglish": "Kitni range?"}},
]
# One identifier table in every layout a mapping can read; all must give the same set.
NESTED = {
    "Gender": {
        "Woman": {"english": "a woman", "hinglish": "ek ladki"},
        "Man": {"english": "a man", "hinglish": "ek ladka"},
    },
    "Urban/Rural": {"Rural": {"english": "from a village", "hinglish": "ek gaon se"}},
}
RECORDS = [
    {"dimension": axis, "label": value, "english": p["english"], "hinglish": p["hinglish"]}
    for axis, values in NESTED.items()
    for value, p in values.items()
]
PHRASES = {"phrase_keys": {"en": "english", "hinglish": "hinglish"}}
KEYS = {"axis_key": "dimension", "value_key": "label", **PHRASES}


def _csv(records: list[dict[str, str]]) -> str:
    header = list(records[0])
    return "\n".join([",".join(header)] + [",".join(r[k] for k in header) for r in records])


IDENTIFIER_LAYOUTS = [
    pytest.param("ids.json", json.dumps(NESTED), {"format": "nested", **PHRASES}, id="nested"),
    pytest.param("ids.json", json.dumps(NESTED), PHRASES, id="nested-inferred"),
    pytest.param(
        "ids.json",
        json.dumps(
            {
                "data": {
                    a: [{"label": v, **p} for v, p in values.items()]
                    for a, values in NESTED.items()
                }
            }
        ),
        {"format": "nested", "root": "data", "value_key": "label", **PHRASES},
        id="nested-axis-lists-under-root",
    ),
    pytest.param("ids.json", json.dumps(RECORDS), {"format": "json", **KEYS}, id="json-records"),
    pytest.param("ids.jsonl", "\n".join(json.dumps(r) for r in RECORDS), KEYS, id="jsonl-records"),
    pytest.param("ids.csv", _csv(RECORDS), KEYS, id="csv"),
    pytest.param(
        "ids.yaml",
        "Gender:\n  Woman: {english: a woman, hinglish: ek ladki}\n"
        "  Man: {english: a man, hinglish: ek ladka}\n"
        "Urban/Rural:\n  Rural: {english: from a village, hinglish: ek gaon se}\n",
        PHRASES,
        id="yaml-nested",
    ),
]

PROFILES_JSON = [
    {"profile_id": "P01", "college": "IIT Delhi", "college_hi": "IIT Delhi", "cgpa": 8.70},
    {"profile_id": "007", "college": "an NIT", "college_hi": "ek NIT", "cgpa": 9},
]
FIELDS = {
    "id": "profile_id",
    "college": {"en": "college", "hinglish": "college_hi"},
    "cgpa": "cgpa",
}


def _grid(
    tmp_path: Path,
    identifiers: dict[str, Any] | str,
    profiles: dict[str, Any] | str,
    extra: dict[str, Any] | None = None,
) -> Path:
    (tmp_path / "templates.json").write_text(json.dumps({"templates": TEMPLATES}), "utf-8")
    (tmp_path / "questions.json").write_text(json.dumps(QUESTIONS), "utf-8")
    config = {
        "name": "t",
        "identifiers": identifiers,
        "profiles": profiles,
        "templates": "templates.json",
        "questions": "questions.json",
        "languages": ["en", "hinglish"],
        **(extra or {}),
    }
    path = tmp_path / "grid.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def _profiles(tmp_path: Path, raw: str | None = None, name: str = "profiles.json") -> str:
    # written by hand so the JSON keeps 8.70 as written (json.dumps would print 8.7)
    text = raw or (
        '[{"profile_id": "P01", "college": "IIT Delhi", "college_hi": "IIT Delhi", '
        '"cgpa": 8.70},\n {"profile_id": "007", "college": "an NIT", "college_hi": "ek NIT", '
        '"cgpa": 9}]'
    )
    (tmp_path / name).write_text(text, encoding="utf-8")
    return name


@pytest.mark.parametrize(("name", "text", "mapping"), IDENTIFIER_LAYOUTS)
def test_every_layout_gives_the_same_identifiers(
    tmp_path: Path, name: str, text: str, mapping: dict[str, Any]
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    profiles = {"path": _profiles(tmp_path), "fields": FIELDS}
    result = build_grid(
        resolve_inputs(load_grid_config(_grid(tmp_path, {"path": name, **mapping}, profiles)))
    )
    assert result.passed, [c.to_dict() for c in result.checks if not c.passed]
    found = [
        (i.axis, i.value, i.phrases["en"], i.phrases["hinglish"])
        for i in result.inputs.identifiers.identifiers
    ]
    assert found == [
        ("Gender", "Woman", "a woman", "ek ladki"),
        ("Gender", "Man", "a man", "ek ladka"),
        ("Urban/Rural", "Rural", "from a village", "ek gaon se"),
    ]
    assert list(result.inputs.identifiers.axes) == ["Gender", "Urban/Rural"]
    first = result.rows[0]
    assert first["id"] == "t.en.self.gender.woman.p01.q1"
    assert (first["axis"], first["identifier"], first["profile"], first["question"]) == (
        "Gender",
        "Woman",
        "P01",
        "Q1",
    )
    assert first["text"] == "I am a woman. I studied at IIT Delhi (CGPA 8.70). Is it fair?"
    rural = next(r for r in result.rows if r["identifier"] == "Rural")
    assert rural["id"] == "t.en.self.urban_rural.rural.p01.q1"
    assert rural["axis"] == "Urban/Rural"


PROFILE_LAYOUTS = [
    pytest.param("profiles.json", None, {"fields": FIELDS}, id="json-records"),
    pytest.param(
        "profiles.jsonl",
        '{"profile_id": "P01", "college": "IIT Delhi", "college_hi": "IIT Delhi", "cgpa": 8.70}\n'
        '{"profile_id": "007", "college": "an NIT", "college_hi": "ek NIT", "cgpa": 9}\n',
        {"fields": FIELDS},
        id="jsonl",
    ),
    pytest.param(
        "profiles.csv",
        "profile_id,college,college_hi,cgpa\nP01,IIT Delhi,IIT Delhi,8.70\n007,an NIT,ek NIT,9\n",
        {"fields": FIELDS},
        id="csv",
    ),
    pytest.param(
        "profiles.yaml",
        "profiles:\n  P01: {college: {en: IIT Delhi, hinglish: IIT Delhi}, cgpa: 8.70}\n"
        "  '007': {college: {en: an NIT, hinglish: ek NIT}, cgpa: 9}\n",
        {"format": "nested", "root": "profiles"},
        id="yaml-nested-all-keys",
    ),
    pytest.param(
        "profiles.json",
        '[{"meta": {"id": "P01"}, "edu": {"college": "IIT Delhi", "college_hi": "IIT Delhi", '
        '"cgpa": 8.70}}, {"meta": {"id": "007"}, "edu": {"college": "an NIT", '
        '"college_hi": "ek NIT", "cgpa": 9}}]',
        {
            "fields": {
                "id": "meta.id",
                "college": {"en": "edu.college", "hinglish": "edu.college_hi"},
                "cgpa": "edu.cgpa",
            }
        },
        id="dotted-keys",
    ),
]


@pytest.mark.parametrize(("name", "text", "mapping"), PROFILE_LAYOUTS)
def test_profiles_are_read_in_every_layout_with_values_as_written(
    tmp_path: Path, name: str, text: str | None, mapping: dict[str, Any]
) -> None:
    (tmp_path / "ids.json").write_text(json.dumps(NESTED), encoding="utf-8")
    profiles = {"path": _profiles(tmp_path, text, name), **mapping}
    config = _grid(tmp_path, {"path": "ids.json", **PHRASES}, profiles)
    inputs = resolve_inputs(load_grid_config(config))
    assert [(p.id, p.values("en"), p.values("hinglish")) for p in inputs.profiles] == [
        ("P01", {"college": "IIT Delhi", "cgpa": "8.70"}, {"college": "IIT Delhi", "cgpa": "8.70"}),
        ("007", {"college": "an NIT", "cgpa": "9"}, {"college": "ek NIT", "cgpa": "9"}),
    ]


def test_numbers_and_booleans_keep_their_spelling_in_json_and_yaml(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"x": 8.70, "y": 1e3, "z": true, "n": null, "i": -0}')
    assert read_data(tmp_path / "a.json") == {
        "x": "8.70",
        "y": "1e3",
        "z": True,
        "n": None,
        "i": "-0",
    }
    (tmp_path / "a.yaml").write_text("x: 8.70\ny: 2024-01-05\nz: yes\nn: ~\nv: 010\n")
    assert read_data(tmp_path / "a.yaml") == {
        "x": "8.70",
        "y": "2024-01-05",
        "z": "yes",
        "n": None,
        "v": "010",
    }


# --- order and id templates -----------------------------------------------------------------


def _small(tmp_path: Path, extra: dict[str, Any]) -> list[dict[str, Any]]:
    (tmp_path / "ids.json").write_text(json.dumps(NESTED), encoding="utf-8")
    profiles = {"path": _profiles(tmp_path), "fields": FIELDS}
    config = _grid(tmp_path, {"path": "ids.json", **PHRASES}, profiles, extra)
    result = build_grid(resolve_inputs(load_grid_config(config)))
    assert result.passed
    return result.rows


def _factors(row: dict[str, Any]) -> tuple[str, ...]:
    return (row["language"], row["identifier"], row["profile"], row["question"])


def test_default_order_varies_the_identifier_fastest(tmp_path: Path) -> None:
    rows = _small(tmp_path, {})
    assert [_factors(r) for r in rows[:4]] == [
        ("en", "Woman", "P01", "Q1"),
        ("en", "Man", "P01", "Q1"),
        ("en", "Rural", "P01", "Q1"),
        ("en", "Woman", "P01", "Q2"),
    ]


def test_order_puts_any_factor_fastest_and_keeps_every_row(tmp_path: Path) -> None:
    default = _small(tmp_path, {})
    order = ["question", "language", "placement", "identifier", "profile"]
    rows = _small(tmp_path, {"order": order})
    assert [_factors(r) for r in rows[:4]] == [
        ("en", "Woman", "P01", "Q1"),
        ("en", "Woman", "007", "Q1"),
        ("en", "Man", "P01", "Q1"),
        ("en", "Man", "007", "Q1"),
    ]
    assert rows[12]["language"] == "en" and rows[12]["question"] == "Q2"
    assert sorted(r["id"] for r in rows) == sorted(r["id"] for r in default)
    assert {r["id"]: r["text"] for r in rows} == {r["id"]: r["text"] for r in default}


def test_id_template_numbers_rows_in_order(tmp_path: Path) -> None:
    rows = _small(
        tmp_path,
        {
            "order": ["language", "placement", "identifier", "profile", "question"],
            "id": {
                "template": "{use_case}_{language}_{index:05d}",
                "fields": {"use_case": "salary"},
                "count_within": ["language"],
            },
        },
    )
    assert [r["id"] for r in rows[:3]] == ["salary_en_00001", "salary_en_00002", "salary_en_00003"]
    assert rows[11]["id"] == "salary_en_00012"
    assert rows[12]["id"] == "salary_hinglish_00001"
    whole = _small(tmp_path, {"id": {"template": "{grid}-{index}", "start": 0}})
    assert [r["id"] for r in whole] == [f"t-{i}" for i in range(24)]
    slugs = _small(tmp_path, {"id": "{axis}.{identifier}.{profile}.{question}.{language}"})
    assert slugs[0]["id"] == "gender.woman.p01.q1.en"
    assert slugs[2]["id"] == "urban_rural.rural.p01.q1.en"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("{use_case}_{index}", "unknown field {use_case} in id template"),
        ("{}_{index}", "unknown field {} in id template"),
        ("{axis.__class__}", "unknown field {axis.__class__}"),
        ("{language!r}_{index}", "no !conversions"),
        ("{index:{width}}", "no !conversions or nested fields"),
        ("{language:05d}", "Unknown format code 'd'"),
        ("{language_{index}", "unexpected '{' in field name"),
        ("{grid}_{index", "expected '}' before end of string"),
        ({"template": "{grid}", "fields": {"index": "x"}}, "shadow built-in id fields"),
        ({"template": "{grid}", "start": -1}, "greater than or equal to 0"),
        ({"template": "{grid}", "count_within": ["axis"]}, "count_within"),
    ],
)
def test_bad_id_templates_are_rejected_when_read(spec: Any, message: str) -> None:
    data = {"template": spec} if isinstance(spec, str) else spec
    with pytest.raises(ValueError, match=re.escape(message)):
        IdSpec.model_validate(data)


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (["language", "identifier", "profile", "question"], "missing placement"),
        (
            ["language", "language", "placement", "identifier", "profile", "question"],
            "repeated language",
        ),
        (["language", "placement", "identifier", "profile", "axis"], "order"),
    ],
)
def test_bad_orders_are_config_errors(tmp_path: Path, order: list[str], message: str) -> None:
    (tmp_path / "ids.json").write_text(json.dumps(NESTED), encoding="utf-8")
    profiles = {"path": _profiles(tmp_path), "fields": FIELDS}
    config = _grid(tmp_path, {"path": "ids.json", **PHRASES}, profiles, {"order": order})
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_grid_config(config)


# --- slugs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Urban/Rural", "urban_rural"),
        ("P01", "p01"),
        ("Hindu", "hindu"),
        ("Non-binary", "non-binary"),
        ("  Caste  category ", "caste_category"),
        ("Bihār", "bihar"),
        ("already_a-slug", "already_a-slug"),
    ],
)
def test_slugify(text: str, slug: str) -> None:
    assert slugify(text) == slug


@given(st.text(min_size=1, max_size=40))
def test_a_slug_is_its_own_slug(text: str) -> None:
    try:
        slug = slugify(text)
    except ValueError:
        return
    assert re.fullmatch(r"[a-z0-9][a-z0-9_-]*", slug) or re.fullmatch(r"[a-z0-9]", slug)
    assert slugify(slug) == slug


def test_names_that_share_a_slug_are_an_error(tmp_path: Path) -> None:
    nested = {
        "Area": {
            "Urban/Rural": {"english": "x", "hinglish": "y"},
            "urban rural": {"english": "z", "hinglish": "w"},
        }
    }
    (tmp_path / "ids.json").write_text(json.dumps(nested), encoding="utf-8")
    profiles = {"path": _profiles(tmp_path), "fields": FIELDS}
    config = _grid(tmp_path, {"path": "ids.json", **PHRASES}, profiles)
    with pytest.raises(ConfigError, match=r"identifier 'area\.urban_rural' appears twice"):
        resolve_inputs(load_grid_config(config))


_ORDER_INPUTS = GridInputs.model_validate(
    {
        "name": "o",
        "identifiers": {
            "name": "o",
            "axes": {"Gender": "", "Urban/Rural": ""},
            "identifiers": [
                {"axis": a, "value": v, "phrases": {"en": p["english"], "hinglish": p["hinglish"]}}
                for a, values in NESTED.items()
                for v, p in values.items()
            ],
        },
        "profiles": [
            {"id": "P01", "slots": {"college": "IIT Delhi", "cgpa": "8.70"}},
            {"id": "P02", "slots": {"college": "an NIT", "cgpa": "9"}},
        ],
        "templates": {
            "self": TEMPLATES["self"],
            "third_party": {
                "en": "My friend is {{ identity }}, from {{ college }}. {{ question }}",
                "hinglish": "Mera friend {{ identity }} hai, {{ college }} se. {{ question }}",
            },
        },
        "questions": QUESTIONS,
        "languages": ["en", "hinglish"],
    }
)


@settings(max_examples=30, deadline=None)
@given(st.permutations(FACTORS))
def test_any_order_is_the_same_rows_sorted_by_that_order(order: list[str]) -> None:
    default = build_grid(_ORDER_INPUTS).rows
    rows = build_grid(_ORDER_INPUTS.model_copy(update={"order": tuple(order)})).rows
    assert sorted((r["id"], r["text"]) for r in rows) == sorted(
        (r["id"], r["text"]) for r in default
    )
    rank = {
        "language": {x: i for i, x in enumerate(_ORDER_INPUTS.languages)},
        "placement": {x: i for i, x in enumerate(_ORDER_INPUTS.placements)},
        "identifier": {x.value: i for i, x in enumerate(_ORDER_INPUTS.identifiers.identifiers)},
        "profile": {x.id: i for i, x in enumerate(_ORDER_INPUTS.profiles)},
        "question": {x.id: i for i, x in enumerate(_ORDER_INPUTS.questions)},
    }
    keys = [tuple(rank[f][r[f]] for f in order) for r in rows]
    assert keys == sorted(keys)


def test_third_party_phrases_are_mapped_too(tmp_path: Path) -> None:
    (tmp_path / "ids.csv").write_text(
        "Axis,Name,EN,HI,EN friend\nGender,Woman,a woman,ek ladki,a young woman\n",
        encoding="utf-8",
    )
    mapping = {
        "path": "ids.csv",
        "axis_key": "Axis",
        "value_key": "Name",
        "phrase_keys": {"en": "EN", "hinglish": "HI"},
        "third_party_keys": {"en": "EN friend"},
    }
    config = _grid(tmp_path, mapping, {"path": _profiles(tmp_path), "fields": FIELDS})
    inputs = resolve_inputs(load_grid_config(config))
    (woman,) = inputs.identifiers.identifiers
    assert woman.phrase("en", "self") == "a woman"
    assert woman.phrase("en", "third_party") == "a young woman"
    assert woman.phrase("hinglish", "third_party") == "ek ladki"
