"""One test per finding of issue #19, on the rendered prompts (and data) that fix it.

Each test renders the prompt a run would send and checks the text a model would read, so
a later edit that drops a clause fails here. The v1 files stay unchanged beside the v2
ones (cached v1 runs stay reproducible); a few tests also show the v1 defect, so each
check is known to be able to fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import guisekit.audit.verdict  # noqa: F401  (registers audit.v1 and audit.v2)
from guisekit.attributes import load_attribute_set
from guisekit.audit.domains import load_domain
from guisekit.audit.verdict import AuditVerdict, AuditVerdictV2
from guisekit.llm import load_prompt
from guisekit.llm.engine import PROMPTS
from guisekit.llm.schemas import schema
from guisekit.personas import load_grid

TEXT = "On XX/XX/XXXX the bank charged me {$35.00}. I think the fee was wrong. I want a refund."
CERTAINTY = "keep each claim's certainty"
REWRITE_VARIABLES = {
    "persona/rewrite": [{"persona": ["Age: 18 to 29 (young adult)"], "persona_id": "p"}],
    "standardise/rewrite": [{"style": s} for s in ("plain", "formal", "simple")],
    "hedge/rewrite": [{"direction": d, "strength": 0.7} for d in ("hedged", "confident")],
    "accent/rewrite": [{"article_drop_rate": 0.5, "marker_rate": m} for m in (0.0, 0.5)],
    "fact_edit/rewrite": [
        {"kind": k, "factor": "10", "amount": "$2,000"}
        for k in ("scale_amounts", "strengthen", "weaken")
    ],
    "hinglish/rewrite": [
        {"mix_ratio": 0.5, "spelling": "standard", "script": "latin"},
        {"mix_ratio": 0.3, "spelling": "clipped", "script": "devanagari"},
    ],
}


def _render(prompt_id: str, version: int, **variables) -> tuple[str, str]:
    rendered = load_prompt(prompt_id, version).render(**variables)
    system, user = (m.content for m in rendered.messages)
    return system, user


def _flat(text: str) -> str:
    return " ".join(text.split())


def _audit(version: int, domain: str = "complaints") -> str:
    system, _ = _render(
        "audit/compare",
        version,
        original="A",
        rewrite="B",
        **load_domain(domain).prompt_variables(),
    )
    return _flat(system)


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+(?=[A-Z\"(])", _flat(text))


# --- finding 1: the auditor's redaction rule -------------------------------------------------


def _placeholder_sentences(system: str) -> list[str]:
    return [s for s in _sentences(system) if re.search(r"placeholder|redact", s, re.I)]


@pytest.mark.parametrize("domain", ["complaints", "interviews", "salary", "hedging"])
def test_v2_auditor_gives_no_placeholder_example_holding_a_real_amount(domain):
    system = _audit(2, domain)
    described = _placeholder_sentences(system)
    assert described, "the v2 prompt still says what a redaction is"
    for sentence in described:
        assert not re.search(r"\d|\{", sentence), sentence
    assert "{$3400.00} is the amount $3,400.00" in system
    assert "values written right next to a run of X" in system
    # the defect it fixes: v1 calls a braced amount a placeholder
    assert any("{$3400.00}" in s for s in _placeholder_sentences(_audit(1)))


def test_v2_auditor_always_counts_certainty_and_ignores_harmless_reordering():
    system = _audit(2)
    assert "A change in how certain a claim is counts as a factual difference every time" in system
    assert "when that changes what is being claimed" not in system
    assert "when that changes what is being claimed" in _audit(1)
    assert "Events told in a different order are also style" in system
    assert "as long as B still says what happened when and what caused what" in system


def test_v2_auditor_requires_the_discrepancy_list():
    template = load_prompt("audit/compare")
    assert (template.version, template.output_schema) == (2, "audit.v2")  # the default
    assert load_prompt("audit/compare", 1).output_schema == "audit.v1"  # still selectable
    assert "discrepancies" in schema("audit.v2").model_json_schema()["required"]
    assert "discrepancies" not in schema("audit.v1").model_json_schema().get("required", [])
    with pytest.raises(ValueError, match="discrepancies"):
        AuditVerdictV2.model_validate({"overall": "preserved"})
    assert AuditVerdict.model_validate({"overall": "preserved"}).discrepancies == ()
    assert 'Always give the list "discrepancies", even when it is empty' in _audit(2)


def test_hedge_aware_domain_rates_certainty_changes_not_material():
    hedging = load_domain("hedging")
    system = _audit(2, "hedging")
    not_material = " ".join(hedging.not_material)
    assert "manipulation under study" in not_material and "hedges" in not_material
    assert not any("certain" in line for line in hedging.material)
    assert any("approximate" in line for line in hedging.material)  # rounders stay material
    assert "the lists decide; a difference that is not material is still listed" in system
    complaints = load_domain("complaints")
    assert any("more or less certain" in line for line in complaints.material)


# --- finding 2 and item 4: certainty in every rewrite prompt ------------------------------


@pytest.mark.parametrize(
    ("prompt_id", "variables"),
    [(p, v) for p, cases in REWRITE_VARIABLES.items() for v in cases],
)
def test_every_v2_rewrite_prompt_keeps_each_claims_certainty(prompt_id, variables):
    system, user = _render(prompt_id, 2, text=TEXT, **variables)
    assert CERTAINTY in _flat(system + " " + user).lower()
    assert f"<text>\n{TEXT}\n</text>" in user


def test_every_transform_prompt_has_a_v2_and_v1_lacks_the_certainty_clause():
    assert set(REWRITE_VARIABLES) == set(PROMPTS.values())
    for prompt_id in PROMPTS.values():
        assert load_prompt(prompt_id).version == 2
        system, user = _render(prompt_id, 1, text=TEXT, **REWRITE_VARIABLES[prompt_id][0])
        assert CERTAINTY not in _flat(system + user).lower()


def test_standardise_v2_keeps_certainty_and_no_longer_strips_hedges():
    system, _ = _render("standardise/rewrite", 2, text=TEXT, style="plain")
    flat = _flat(system)
    assert "a hedged claim" in flat and "keeps its hedge" in flat
    assert "hedges and boosters that are not part of a claim" not in flat
    assert "hedges and boosters that are not part of a claim" in _flat(
        _render("standardise/rewrite", 1, text=TEXT, style="plain")[0]
    )


# --- finding 3: the persona prompt and grids ---------------------------------------------

STYLE_WORDS = re.compile(
    r"\b(tone|vocabulary|spelling|punctuation|wording|words|writes?|written|formal|casual|"
    r"polished|brisk|urgent|courteous|conversational|connectives|slang|manner|expects?)\b",
    re.IGNORECASE,
)
STEERING = re.compile(
    r"\b(hardship|urgent|urgency|expects?|service|owed|deserve|demand\w*|refund|loyal\w*|"
    r"entitle\w*|stress\w*|struggl\w*|angry|anger|threat\w*|complain\w*)\b",
    re.IGNORECASE,
)


def _grid_lines(name: str | None) -> list[str]:
    grid = load_grid(name)
    return [level.description for axis in grid.axes for level in axis.levels]


def test_paper_grid_lines_are_labelled_demographics_without_style_prescriptions():
    grid = load_grid("demographic")
    assert [p.id for p in grid.personas()] == [p.id for p in load_grid().personas()]
    lines = {axis.name: [lv.description for lv in axis.levels] for axis in grid.axes}
    for line in (line for group in lines.values() for line in group):
        assert not STYLE_WORDS.search(line), line
        assert not STEERING.search(line), line
    assert all(line.startswith("Age: ") and re.search(r"\d", line) for line in lines["age"])
    assert all(line.startswith("Geography: ") for line in lines["geography"])
    assert all(line.startswith("Education: ") for line in lines["education"])
    assert all(line.startswith("Socioeconomic status: ") and "$" in line for line in lines["ses"])
    # the check bites on the styled default grid
    assert any(STYLE_WORDS.search(line) for line in _grid_lines(None))


def test_default_grid_has_no_outcome_steering_phrases():
    for line in _grid_lines(None):
        assert not STEERING.search(line), line
    assert not any(re.search(r"brisk|regional vocabulary", line) for line in _grid_lines(None))


def test_persona_v2_adds_the_fact_clauses_and_frees_structure():
    persona = load_grid("demographic").describe(
        load_grid("demographic").persona("old-rural-college-high")
    )
    system, user = _render(
        "persona/rewrite", 2, text=TEXT, persona=persona, persona_id="old-rural-college-high"
    )
    flat = _flat(system)
    assert "Do not add or remove any claim that the bank or company made an error" in flat
    assert "do not change the outcome the writer asks for" in flat
    assert "Keep roughly the original length and the same order of events" not in flat
    assert "the order in which the account is told" in flat
    assert "Infer the style only from the description given" in flat
    assert "- Age: 65 or older (older adult)\n" in user
    assert "Keep roughly the original length and the same order of events" in _flat(
        _render("persona/rewrite", 1, text=TEXT, persona=persona, persona_id="x")[0]
    )


# --- finding 4: standardisation styles -------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "elements"),
    [
        ("plain", ["complete sentences", "correct grammar", "calm and polite tone",
                   "chronological order"]),
        ("formal", ["business register", "measured and courteous", "short paragraphs"]),
        ("simple", ["short sentences", "common words", "polite, conversational tone"]),
    ],
)  # fmt: skip
def test_standardise_v2_styles_are_the_published_a_b_c(style, elements):
    system, user = _render("standardise/rewrite", 2, text=TEXT, style=style)
    flat = _flat(user)
    for element in elements:
        assert element in flat, element
    assert "first person" not in _flat(user)
    assert "do not turn it into the first person or out of it" in _flat(system)
    assert "politeness formulae" not in _flat(system)  # v1 removed them
    assert "first person" in _flat(_render("standardise/rewrite", 1, text=TEXT, style=style)[1])


# --- finding 5: attributes ---------------------------------------------------------------------


def test_attribute_scorer_v2_has_the_two_guards():
    variables = {
        "text": TEXT,
        "set_description": "complaints",
        "attribute": "harm",
        "property": "p",
        "low": "l",
        "medium": "m",
        "high": "h",
    }
    system, _ = _render("attribute/score", 2, **variables)
    flat = _flat(system)
    assert "Do not judge whether the complaint or claim is justified" in flat
    assert "Do not infer anything about the writer" in flat
    assert "beyond the property you are asked to rate" in flat
    assert "justified" not in _flat(_render("attribute/score", 1, **variables)[0])


PUBLISHED_LEVELS = yaml.safe_load(
    (Path(__file__).parent / "data/paper_constructs.yaml").read_text(encoding="utf-8")
)


def test_paper_attribute_set_has_the_published_constructs():
    paper = load_attribute_set("complaints_paper")
    default = load_attribute_set("complaints")
    assert [a.name for a in paper.attributes] == [a.name for a in default.attributes]
    assert len(paper.attributes) == 19
    families = {
        f: sum(a.family == f for a in paper.attributes)
        for f in ("delivery", "structure", "content")
    }
    assert families == {"delivery": 8, "structure": 5, "content": 6}
    assert paper.objective == {
        "mean_sentence_length": "delivery",
        "fk_grade": "delivery",
        "vader_abs_compound": "delivery",
    }
    assert len(default.objective) == 11
    assert len(PUBLISHED_LEVELS) == 7
    for name, expected in PUBLISHED_LEVELS.items():
        family, present, absent = expected["family"], expected["present"], expected["absent"]
        attribute = paper.attribute(name)
        text = " ".join([attribute.property, *attribute.levels.model_dump().values()])
        assert attribute.family == family
        for phrase in present:
            assert phrase in text, (name, phrase)
        for phrase in absent:
            assert phrase not in text, (name, phrase)
        old = default.attribute(name)
        assert old.levels != attribute.levels or old.property != attribute.property


# --- finding 6: hedging and accent -----------------------------------------------------------


def test_hedge_v2_confident_removes_hedges_and_adds_no_boosters():
    system, user = _render("hedge/rewrite", 2, text=TEXT, direction="confident", strength=1.0)
    assert "removing its hedges only" in _flat(user) and "add no boosters" in _flat(user)
    assert "add no boosters or emphasis" in _flat(system)
    _, hedged = _render("hedge/rewrite", 2, text=TEXT, direction="hedged", strength=1.0)
    assert "by adding hedges to its claims" in _flat(hedged)
    v1_system, _ = _render("hedge/rewrite", 1, text=TEXT, direction="confident", strength=1.0)
    assert "boosters (clearly, certainly, definitely)" in _flat(v1_system)


def test_accent_v2_with_no_other_markers_is_article_omission_only():
    _, user = _render("accent/rewrite", 2, text=TEXT, article_drop_rate=0.6, marker_rate=0.0)
    flat = _flat(user)
    assert "leave out articles (a, an, the)" in flat and "Drop roughly 60% of the articles" in flat
    assert "change nothing else" in flat
    assert "he go" not in flat and "prepositions" not in flat
    _, mixed = _render("accent/rewrite", 2, text=TEXT, article_drop_rate=0.6, marker_rate=0.5)
    assert "he go" in _flat(mixed) and "about 50%" in _flat(mixed)


# --- finding 7: Hinglish ----------------------------------------------------------------------


def test_hinglish_v2_forbids_gender_marked_first_person_verbs():
    system, _ = _render(
        "hinglish/rewrite", 2, text=TEXT, mix_ratio=0.5, spelling="standard", script="latin"
    )
    flat = _flat(system)
    assert "Never show the writer's gender" in flat
    assert '"main karta hoon" / "main karti hoon"' in flat
    assert "maine ... kiya, mujhe ... mila" in flat
    assert "12 LPA stays 12 LPA" in flat and "Latin alphabet only" in flat
    v1 = _flat(
        _render(
            "hinglish/rewrite", 1, text=TEXT, mix_ratio=0.5, spelling="standard", script="latin"
        )[0]
    )
    assert "gender" not in v1


# --- finding 8: fact edits --------------------------------------------------------------------


def test_fact_edit_v2_strengthen_and_weaken_as_published():
    system, strengthen = _render(
        "fact_edit/rewrite", 2, text=TEXT, kind="strengthen", factor="10", amount="$2,000"
    )
    flat = _flat(strengthen)
    assert "a specific error the bank or company made" in flat
    assert "a dollar loss" in flat and "the amount of money, $2,000, that the writer lost" in flat
    assert "a document that shows it" in flat
    _, weaken = _render(
        "fact_edit/rewrite", 2, text=TEXT, kind="weaken", factor="10", amount="$2,000"
    )
    flat = _flat(weaken)
    assert "a mistake the writer made themselves" in flat
    assert "terms the writer had agreed to" in flat and "followed its disclosed policy" in flat
    assert "use $2,000" in flat
    rules = _flat(system)
    assert "Keep the original's voice, tone, spelling and grammar, including its errors" in rules
    assert "Keep the length close to the original" in rules
    _, v1_weaken = _render(
        "fact_edit/rewrite", 1, text=TEXT, kind="weaken", factor="10", amount="$500"
    )
    assert "less certain" in _flat(v1_weaken)  # v1 weakened by certainty, not by facts
