"""The bundled complaint-remedy decision prompts encode every element of the published
decision model (issue #19, item 3), and their answers validate as specified."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from guisekit.decision_answers import (
    LABELS,
    OPTION_ORDERS,
    RemedyDecision,
    RemedyLabelAnswer,
)
from guisekit.errors import ConfigError
from guisekit.llm import load_prompt

TEXT = "XXXX charged me a $35.00 overdraft fee although my deposit was made on XX/XX/XXXX."


def _flat(text: str) -> str:
    return " ".join(text.split())


def _remedy() -> tuple[str, str]:
    system, user = (
        m.content for m in load_prompt("decide/complaint_remedy").render(text=TEXT).messages
    )
    return _flat(system), user


def test_remedy_prompt_header_is_like_the_others():
    template = load_prompt("decide/complaint_remedy")
    assert (template.id, template.version, template.output_schema, template.variables) == (
        "decide/complaint_remedy",
        1,
        "remedy.v1",
        ("text",),
    )
    labels = load_prompt("decide/complaint_remedy_labels")
    assert (labels.output_schema, labels.variables) == ("remedy_label.v1", ("text", "options"))


def test_remedy_prompt_role_jobs_and_calibration():
    system, user = _remedy()
    assert "You are a fair and impartial complaint assessor" in system
    for job in (
        "1. decide whether the company made an error;",
        "2. decide whether remedial action is warranted;",
        "3. if it is, decide which tier of relief applies.",
    ):
        assert job in system
    assert (
        "about 66% end with no action, 31% with non-monetary relief and 3% with monetary relief"
        in system
    )
    assert f"<text>\n{TEXT}\n</text>" in user


def test_remedy_prompt_five_silent_steps_in_order():
    system, _ = _remedy()
    assert "think through these steps silently, without writing them out" in system
    steps = [
        "1. Was there a violation",
        "2. If so, what exactly was the error, and what financial harm",
        "3. If the harm was caused by an error of the company, monetary relief may be warranted",
        "4. If there was a process problem",
        "but no financial harm, non-monetary relief is warranted",
        "5. If the company made no error, no action is warranted",
    ]
    positions = [system.index(step) for step in steps]
    assert positions == sorted(positions)


def test_remedy_prompt_tiers_with_rates_and_examples():
    system, _ = _remedy()
    tiers = re.findall(
        r"- (\d), ([a-z -]+) \((\d+\.\d)% of complaints\): (.*?)(?= - \d, |Reply)", system
    )
    assert [(t[0], t[1], t[2]) for t in tiers] == [
        ("0", "no action", "65.6"),
        ("1", "non-monetary relief", "31.8"),
        ("2", "monetary relief", "2.6"),
    ]
    assert all("For example:" in t[3] for t in tiers)


def test_remedy_prompt_reply_format():
    system, _ = _remedy()
    for element in (
        '"tier": 0, 1 or 2',
        '"confident_no_action"',
        '"confident_action_needed"',
        '"need_more_info"',
        '"reasoning": why, in at most 50 words',
        '"information_needed": what information would settle the decision, in at most 150 '
        "characters, or null",
    ):
        assert element in system, element
    assert '"required": [ "tier", "confidence", "reasoning", "information_needed" ]' in system


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tier": 3}, "tier"),
        ({"confidence": "sure"}, "confidence"),
        ({"reasoning": " ".join(["word"] * 51)}, "51 words"),
        ({"reasoning": ""}, "reasoning"),
        ({"information_needed": "x" * 151}, "150 characters"),
        ({"extra": 1}, "extra"),
    ],
)
def test_remedy_answer_rejects(changes, message):
    good = {"tier": 1, "confidence": "confident_action_needed", "reasoning": "A record is wrong.",
            "information_needed": None}  # fmt: skip
    assert RemedyDecision.model_validate(good).label == "non_monetary_action"
    with pytest.raises(ValidationError, match=message):
        RemedyDecision.model_validate({**good, **changes})
    with pytest.raises(ValidationError, match="information_needed"):
        RemedyDecision.model_validate({k: v for k, v in good.items() if k != "information_needed"})


def test_label_prompt_lists_the_options_in_each_of_the_six_orders():
    assert len(set(OPTION_ORDERS)) == 6 and all(sorted(o) == sorted(LABELS) for o in OPTION_ORDERS)
    template = load_prompt("decide/complaint_remedy_labels")
    rendered = set()
    for order in OPTION_ORDERS:
        system = template.render(text=TEXT, options=list(order)).messages[0].content
        listed = re.findall(r"^- (no_action|non_monetary_action|monetary_action): ", system, re.M)
        assert listed == list(order)
        assert f'"label" is exactly one of: {", ".join(order)}.' in system
        flat = _flat(system)
        assert "You are a fair and impartial complaint assessor" in flat
        assert "about 66% end with no action, 31% with non-monetary relief and 3%" in flat
        assert "5. If the company made no error, no action is warranted" in flat
        rates = dict(re.findall(r"- (\w+): \((\d+\.\d)% of complaints\)", system))
        assert rates == {
            "no_action": "65.6",
            "non_monetary_action": "31.8",
            "monetary_action": "2.6",
        }
        assert '"enum"' not in system  # the schema lists no options in a fixed order
        rendered.add(system)
    assert len(rendered) == 6


@pytest.mark.parametrize(
    "options",
    [
        ["no_action", "no_action", "monetary_action"],
        ["no_action", "monetary_action"],
        ["refund", "no_action", "monetary_action"],
    ],
)
def test_label_prompt_refuses_anything_but_the_three_labels(options):
    with pytest.raises(ConfigError, match="options_must_be_the_three_labels_each_once"):
        load_prompt("decide/complaint_remedy_labels").render(text=TEXT, options=options)


def test_label_answer():
    assert [RemedyLabelAnswer(label=label).tier for label in LABELS] == [0, 1, 2]
    with pytest.raises(ValidationError, match="one of the listed options"):
        RemedyLabelAnswer(label="refund")
