"""The rules engine on the bundled data: fact fidelity, fact edits, manipulation checks,
pickling, and user-supplied lexicons and profiles."""

from __future__ import annotations

import pickle
import re
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from pathlib import Path

import pytest

from guisekit.corpus.run import as_intended
from guisekit.errors import ConfigError, InputError
from guisekit.facts import check_facts
from guisekit.models import Source
from guisekit.personas import load_grid
from guisekit.rules import RulesEngine
from guisekit.rules.checks import (
    collapse_rates,
    eta_squared,
    manipulation_table,
    permutation_null,
)
from guisekit.specs import (
    AccentSpec,
    FactEditSpec,
    HedgeSpec,
    PersonaSpec,
    StandardiseSpec,
)
from guisekit.tables import read_sources

DATA = Path(__file__).parents[1] / "examples" / "data"
COMPLAINTS = read_sources(DATA / "complaints.jsonl")
ALL_SOURCES = (
    COMPLAINTS
    + read_sources(DATA / "salary_questions_in.jsonl")
    + read_sources(DATA / "interviews.jsonl")
)
ENGINE = RulesEngine()
STYLE_SPECS = [
    *(PersonaSpec(persona=p.as_dict()) for p in load_grid().personas()),
    HedgeSpec(direction="hedged", strength=1.0),
    HedgeSpec(direction="confident", strength=1.0),
    AccentSpec(article_drop_rate=1.0, marker_rate=1.0),
    *(StandardiseSpec(style=s) for s in ("plain", "formal", "simple")),
]


def test_bundled_sources_keep_every_fact_under_every_style_transform() -> None:
    failures = []
    for source in ALL_SOURCES:
        for spec in STYLE_SPECS:
            variant = ENGINE.transform(source, spec)
            assert variant.status == "ok" and variant.text
            result = check_facts(source.text, variant.text)
            if result.discrepancies:
                failures.append((source.id, spec.transform, result.discrepancies[0].describe()))
    assert failures == []
    assert len(ALL_SOURCES) * len(STYLE_SPECS) == 54 * 42


def test_persona_guises_differ_on_every_realised_axis() -> None:
    """Age and education are realised: the four (age, education) cells give four
    different operator profiles. Geography and SES are declared unrealised: personas that
    differ only there run with the same rates."""
    personas = load_grid().personas()
    rates = {p.id: tuple(sorted(ENGINE.profiles.rates(p).items())) for p in personas}
    cells: dict[tuple[str, str], set[tuple[tuple[str, float], ...]]] = {}
    for p in personas:
        levels = p.as_dict()
        cells.setdefault((levels["age"], levels["education"]), set()).add(rates[p.id])
    assert len(cells) == 4
    assert all(len(profiles) == 1 for profiles in cells.values())
    assert len({next(iter(v)) for v in cells.values()}) == 4
    assert not ENGINE.profiles.realised("geography") and not ENGINE.profiles.realised("ses")
    assert ENGINE.profiles.realised("age") and ENGINE.profiles.realised("education")
    texts = {ENGINE.transform(COMPLAINTS[0], spec).text for spec in STYLE_SPECS[:36]}
    assert len(texts) >= 4


@pytest.mark.parametrize(
    ("text", "factor", "expected"),
    [
        ("I was charged $1,234.56 twice.", "10", "I was charged $12,345.60 twice."),
        ("My CTC is 5 LPA now.", "10", "My CTC is 50 LPA now."),
        ("They offered Rs. 12,00,000 per year.", "10", "They offered Rs. 1,20,00,000 per year."),
        ("Expected range is 12-15 LPA.", "10", "Expected range is 120-150 LPA."),
        ("I paid twelve hundred dollars.", "10", "I paid twelve thousand dollars."),
        ("A $1.2k fee and a {$3400.00} balance.", "10", "A $12k fee and a {$34000.00} balance."),
        ("It cost 18 lakhs.", "2", "It cost 36 lakhs."),
        ("The fee was $35.", "1.5", "The fee was $52.5."),
        ("Nothing was charged.", "10", "Nothing was charged. The amount involved was $500."),
    ],
)
def test_scale_amounts_multiplies_exactly_in_the_same_format(
    text: str, factor: str, expected: str
) -> None:
    spec = FactEditSpec(kind="scale_amounts", factor=Decimal(factor))
    variant = ENGINE.transform(Source(id="s", text=text), spec)
    assert variant.text == expected
    assert as_intended(spec, check_facts(text, expected))


@pytest.mark.parametrize("kind", ["scale_amounts", "strengthen", "weaken"])
def test_fact_edits_change_exactly_what_they_intend_on_every_bundled_source(kind: str) -> None:
    spec = FactEditSpec(kind=kind, factor=Decimal(10))
    for source in ALL_SOURCES:
        variant = ENGINE.transform(source, spec)
        assert variant.text is not None
        result = check_facts(source.text, variant.text)
        assert as_intended(spec, result), (source.id, [d.describe() for d in result.discrepancies])
        if kind == "scale_amounts":
            old = [f.amount for f in result.original_facts if f.kind == "money"]
            new = [f.amount for f in result.rewrite_facts if f.kind == "money"]
            assert new == [a * 10 for a in old] if old else len(new) == 1


def test_as_intended_rejects_an_extra_change() -> None:
    spec = FactEditSpec(kind="scale_amounts", factor=Decimal(10))
    assert not as_intended(spec, check_facts("Paid $5 on 03/14/2023.", "Paid $50 on 03/15/2023."))
    assert not as_intended(spec, check_facts("Paid $5 and $7.", "Paid $50 and $7."))
    weaken = FactEditSpec(kind="weaken")
    assert not as_intended(weaken, check_facts("Paid $5.", "Paid $5 and then $9."))


def test_manipulation_table_on_the_bundled_sources() -> None:
    """Realised axes move their declared cue (eta squared >= 0.2, above the permutation
    null's 95th percentile); content (facts, named entities) does not move; geography
    and SES are declared unrealised and do not move either."""
    rows = manipulation_table(COMPLAINTS[:8], n_permutations=50)
    by = {(r.factor, r.measure): r for r in rows}
    for axis, cue in (
        ("age", "informal_markers_per_100"),
        ("education", "sophisticated_words_per_100"),
    ):
        row = by[(axis, cue)]
        assert row.realised and row.eta_squared >= 0.2 and row.eta_squared > row.null_p95, row
    for axis in ("geography", "ses"):
        row = by[(axis, "informal_markers_per_100")]
        assert not row.realised and row.eta_squared < row.null_p95 + 0.01, row
    for row in rows:
        if row.kind == "content":
            assert row.eta_squared <= 0.02, row


def test_eta_squared_and_its_null_can_tell_signal_from_noise() -> None:
    import numpy as np

    sources = np.repeat(np.arange(10), 4)
    groups = np.tile(np.array(["a", "a", "b", "b"]), 10)
    signal = np.where(groups == "a", 1.0, 0.0) + sources
    assert eta_squared(signal, groups, sources) == pytest.approx(1.0)
    noise = np.tile(np.array([0.0, 1.0, 0.0, 1.0]), 10) + sources
    assert eta_squared(noise, groups, sources) == pytest.approx(0.0)
    null = permutation_null(signal, groups, sources, 100, seed=1)
    assert np.quantile(null, 0.95) < 0.5


def test_engine_and_variants_cross_process_boundaries() -> None:
    spec = PersonaSpec(
        persona={"age": "old", "geography": "rural", "education": "college", "ses": "low"}
    )
    local = ENGINE.transform(COMPLAINTS[1], spec, 3)
    assert pickle.loads(pickle.dumps(local)) == local
    with ProcessPoolExecutor(max_workers=1) as pool:
        remote = pool.submit(
            pickle.loads(pickle.dumps(ENGINE)).transform, COMPLAINTS[1], spec, 3
        ).result()
    assert remote.text == local.text
    assert remote.provenance.edits == local.provenance.edits


def test_transform_batch_is_source_major() -> None:
    specs = [HedgeSpec(direction="hedged"), HedgeSpec(direction="confident")]
    variants = ENGINE.transform_batch(COMPLAINTS[:3], specs, seed=1)
    assert [(v.source_id, v.spec) for v in variants] == [
        (s.id, spec) for s in COMPLAINTS[:3] for spec in specs
    ]


def test_unknown_persona_level_is_an_input_error() -> None:
    spec = PersonaSpec(
        persona={"age": "middle", "geography": "urban", "education": "college", "ses": "low"}
    )
    with pytest.raises(InputError, match="unknown level 'middle' for persona axis 'age'"):
        ENGINE.transform(COMPLAINTS[0], spec)


def test_user_lexicon_folder_extends_the_packaged_one(tmp_path: Path) -> None:
    (tmp_path / "register_pairs.tsv").write_text(
        "# test lexicon\nplain\tsophisticated\tpos\tswap\ncard\tpayment instrument\tnoun\tboth\n",
        encoding="utf-8",
    )
    engine = RulesEngine(lexicons=[tmp_path])
    trial = engine.try_operator("register_up.v1", "I lost my card and I want to buy a new one.")
    assert trial.text == "I lost my payment instrument and I wish to purchase a new one."
    assert engine.config["lexicons"] == (str(tmp_path),)


def test_user_profiles_file_replaces_the_packaged_one(tmp_path: Path) -> None:
    grid = tmp_path / "grid.yaml"
    grid.write_text(
        "axes:\n  - name: tone\n    levels:\n"
        "      - {name: blunt, description: Says it straight.}\n"
        "      - {name: polite, description: Asks nicely.}\n",
        encoding="utf-8",
    )
    profiles = tmp_path / "profiles.yaml"
    profiles.write_text(
        "levels:\n  tone:\n    blunt: {}\n    polite: {request_polite.v1: 1.0}\n", encoding="utf-8"
    )
    engine = RulesEngine(profiles=profiles)
    source = Source(id="s", text="I want a refund of $40.")
    polite = engine.transform(source, PersonaSpec(persona={"tone": "polite"}, grid=str(grid)))
    blunt = engine.transform(source, PersonaSpec(persona={"tone": "blunt"}, grid=str(grid)))
    assert polite.text == "I would like a refund of $40."
    assert blunt.text == source.text


def test_profiles_naming_an_unknown_operator_fail_with_location(tmp_path: Path) -> None:
    profiles = tmp_path / "profiles.yaml"
    profiles.write_text("levels:\n  age:\n    young: {shout.v9: 0.5}\n", encoding="utf-8")
    engine = RulesEngine(profiles=profiles)
    with pytest.raises(ConfigError, match=r"unknown operator 'shout\.v9'"):
        engine.transform(
            COMPLAINTS[0],
            PersonaSpec(
                persona={"age": "young", "geography": "urban", "education": "college", "ses": "low"}
            ),
        )


def test_standardise_collapses_every_guise_onto_the_standardised_source() -> None:
    """Canonical standardisation (issue 13): within a style, the guises of a source
    standardise to the standardised source; standardising is idempotent."""
    rows = collapse_rates(ALL_SOURCES[::6])
    for style in ("plain", "formal", "simple"):
        rates = [r.collapse for r in rows if r.style == style]
        assert min(rates) >= 0.9, (style, rates)
    assert all(r.idempotent for r in rows)


def test_a_whole_text_feature_is_written_throughout_or_not_at_all() -> None:
    """lowercase_i.v1 is drawn once per text (Operator.whole_text): a young writer's
    guise has every pronoun "I" lower-cased or none, never one "i" among capitals (round
    38 judgement, IMPLAUSIBLE), and across sources both happen at its rate."""
    text = "I think I paid twice, and I want it back. I called on Monday and I got no reply."
    young = next(
        PersonaSpec(persona=p.as_dict())
        for p in load_grid().personas()
        if p.as_dict()["age"] == "young"
    )
    seen = set()
    for n in range(60):
        out = ENGINE.transform(Source(id=f"s{n}", text=text), young).text
        pronouns = re.findall(r"\b[Ii]\b", out)
        assert len(pronouns) >= 5, out
        assert len(set(pronouns)) == 1, out
        seen.add(pronouns[0])
    assert seen == {"i", "I"}
