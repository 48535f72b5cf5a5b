"""The auditor prompt's redaction rule, end to end through the loopback stub.

``audit/compare.v1`` listed ``{$3400.00}`` among the placeholders an auditor "must not
guess". In consumer-complaint data the braces hold real amounts, so an auditor that obeys
the instruction literally excuses a changed braced amount. The literal-minded stand-in
(:func:`~guisekit.testing.audit_responder.literal_audit_responder`) does exactly that, so
the same pairs audited under v1 and v2 show the blind spot and its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from e2e_helpers import cli

from guisekit.audit.domains import load_domain
from guisekit.llm import load_prompt
from guisekit.testing import StubConfig, StubServer
from guisekit.testing.audit_responder import literal_audit_responder, placeholder_examples

PAIRS = [
    {  # a real amount in braces, changed: the case v1 invites an auditor to excuse
        "id": "braced",
        "original": "On XX/XX/XXXX XXXX took {$3400.00} from my checking account without "
        "my permission.",
        "rewrite": "On XX/XX/XXXX XXXX took {$4300.00} from my checking account without "
        "my permission.",
    },
    {  # a plain amount beside a redaction, changed: both versions must catch it
        "id": "beside",
        "original": "XXXX charged me a $25.00 late fee on XX/XX/XXXX.",
        "rewrite": "XXXX charged me a $52.00 late fee on XX/XX/XXXX.",
    },
    {  # only the redaction tokens differ: never a discrepancy
        "id": "tokens",
        "original": "I called XXXX on XX/XX/XXXX about the $40.00 fee.",
        "rewrite": "I called XXXX XXXX on XX/XX/XXXX about the $40.00 fee.",
    },
]


def _verdicts(tmp_path: Path, version: int) -> dict[str, str]:
    folder = tmp_path / f"v{version}"
    folder.mkdir()
    (folder / "pairs.jsonl").write_text(
        "".join(json.dumps(p) + "\n" for p in PAIRS), encoding="utf-8"
    )
    with StubServer(StubConfig(), literal_audit_responder) as stub:
        config = {
            "pairs": "pairs.jsonl",
            "auditors": [{"model": "openai:stub-literal", "base_url": stub.openai_base_url}],
            "prompt_version": version,
            "resamples": 0,
            "output": "out",
        }
        (folder / "audit.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
        assert cli("audit", "--config", str(folder / "audit.yaml")) == 0
        assert stub.stats().total_requests == len(PAIRS)
    rows = [
        json.loads(line)
        for line in (folder / "out/results.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    return {r["pair_id"]: r["auditors"]["openai:stub-literal"]["verdict"]["overall"] for r in rows}


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-literal-test")


def test_literal_auditor_misses_a_braced_amount_under_v1_and_flags_it_under_v2(key, tmp_path):
    v1 = _verdicts(tmp_path, 1)
    v2 = _verdicts(tmp_path, 2)
    assert v1 == {"braced": "preserved", "beside": "material", "tokens": "preserved"}
    assert v2 == {"braced": "material", "beside": "material", "tokens": "preserved"}


@pytest.mark.parametrize(
    ("version", "expected"),
    [(1, ("XXXX", "XX/XX/XXXX", "{$3400.00}")), (2, ("XXXX", "XX/XX/XXXX"))],
)
def test_placeholder_examples_read_from_the_rendered_prompt(version, expected):
    import guisekit.audit.verdict  # noqa: F401  (registers the audit schemas)

    rendered = load_prompt("audit/compare", version).render(
        original="A", rewrite="B", **load_domain("complaints").prompt_variables()
    )
    assert placeholder_examples(rendered.messages[0].content) == expected
