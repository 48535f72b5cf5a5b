"""gaps on an identifier grid: identifier-axis contrasts within matched slots and the grid
metrics (through the CLI), on a small grid with a planted 10% identifier effect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_helpers import cli


def test_grid_metrics_and_identifier_contrasts(tmp_path: Path) -> None:
    grid, decisions = [], []
    profiles = {"p1": 1_000_000.0, "p2": 2_000_000.0, "p3": 1_500_000.0}
    effect = {"a": 1.10, "b": 1.00, "c": 0.95}
    for profile, base in profiles.items():
        for question in ("q1", "q2"):
            cell = f"salary.en.self.{profile}.{question}"
            for ident, factor in effect.items():
                vid = f"{cell}.caste.{ident}"
                grid.append(
                    {
                        "id": vid,
                        "text": f"I am {ident}. {profile} {question}",
                        "axis": "caste",
                        "identifier": ident,
                        "cell": cell,
                        "profile": profile,
                        "question": question,
                    }
                )
                bump = 1.0 + (0.01 if question == "q2" else 0.0)
                decisions.append(
                    {
                        "variant_id": vid,
                        "repeat": 0,
                        "order": 0,
                        "status": "ok",
                        "outcome": base * factor * bump,
                    }
                )
    (tmp_path / "grid.jsonl").write_text("\n".join(json.dumps(r) for r in grid))
    (tmp_path / "d.jsonl").write_text("\n".join(json.dumps(r) for r in decisions))
    assert (
        cli(
            "gaps",
            str(tmp_path / "grid.jsonl"),
            str(tmp_path / "d.jsonl"),
            "--canonical",
            "caste=a:b",
            "--resamples",
            "200",
            "--out",
            str(tmp_path / "g"),
        )
        == 0
    )
    result = json.loads((tmp_path / "g" / "gaps.json").read_text())
    [axis] = result["grid"]
    mean = (1.10 + 1.00 + 0.95) / 3
    assert axis["mean_delta_pct"]["a"] == pytest.approx(100 * (1.10 / mean - 1))
    assert axis["mean_delta_pct"]["c"] == pytest.approx(100 * (0.95 / mean - 1))
    assert axis["violation_at_10"] == pytest.approx(0.0)  # +7.9%, -2.0%, -6.7%
    assert axis["kendall_w"] == pytest.approx(1.0)
    assert axis["canonical"]["cpg_pct"] == pytest.approx(10.0)
    assert axis["canonical"]["sign_consistency"] == 1.0
    assert axis["max_gap_pair"] == ["a", "c"]
    assert axis["profile_rank_agreement"] == pytest.approx(1.0)
    # merit: profiles span 1.0M to 2.0M (x1.005 average bump): range/mean of profile means
    assert axis["merit_sensitivity_pct"] == pytest.approx(100 * 1.0 / 1.5, rel=1e-9)
    contrasts = {c["name"]: c for c in result["contrasts"]}
    b_minus_a = contrasts["caste: b - a"]
    assert b_minus_a["kind"] == "identifier" and b_minus_a["n_sources"] == 6
    expected = sum(base * (1.00 - 1.10) * (1 + 0.005) for base in profiles.values()) / 3
    assert b_minus_a["gap"] == pytest.approx(expected, rel=1e-9)
    assert (tmp_path / "g" / "grid.csv").is_file()
