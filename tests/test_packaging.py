"""The wheel ships prompts/ and lexicons/ and works from an installed copy, not only from
the checkout; the public API is what ``__all__`` says."""

from __future__ import annotations

import os
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import guisekit

ROOT = Path(__file__).parents[1]

_PROBE = """
import guisekit, json
from guisekit.resources import data_root
from guisekit.personas import load_grid
from guisekit.rules import RulesEngine
from guisekit.models import Source
from guisekit.specs import StandardiseSpec
from guisekit.llm.engine import PROMPTS
from guisekit.llm.prompts import load_prompt
from guisekit.attributes import load_attribute_set
from guisekit.audit.domains import load_domain
from guisekit.grid.config import load_identifier_set
from guisekit.hinglish.word_classes import word_classes
v = RulesEngine().transform(Source(id="s", text="I dont like it!! I recieved $5."),
                            StandardiseSpec(style="plain"))
prompts = [load_prompt(p).id for p in [*PROMPTS.values(), "audit/compare", "attribute/score"]]
print(json.dumps({"file": guisekit.__file__, "lexicons": str(data_root("lexicons")),
                  "personas": len(load_grid().personas()), "text": v.text,
                  "prompts": prompts, "attributes": len(load_attribute_set().attributes),
                  "domain": load_domain("salary").name,
                  "identifiers": len(load_identifier_set("india").identifiers),
                  "measures": len(word_classes().measures)}))
"""


def test_wheel_contains_data_and_runs_from_an_installed_copy(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("guisekit-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "guisekit/_data/lexicons/personas/grid.yaml" in names
    assert "guisekit/_data/lexicons/rules/register_pairs.tsv" in names
    assert "guisekit/_data/lexicons/hinglish/word_classes.yaml" in names
    assert "guisekit/_data/prompts/README.md" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    import json

    probe = json.loads(run.stdout)
    assert probe["file"].startswith(str(site))
    assert probe["lexicons"].startswith(str(site))
    assert probe["personas"] == 36
    assert probe["text"] == "I don't like it. I received $5."  # fixed, plain contraction, calmed
    assert len(probe["prompts"]) == 8 and probe["attributes"] == 19
    assert probe["domain"] == "salary" and probe["identifiers"] >= 80
    assert probe["measures"] == 19  # the Hinglish word classes read from the installed copy


def test_public_api_matches_all() -> None:
    assert sorted(guisekit.__all__) == guisekit.__all__
    for name in guisekit.__all__:
        assert hasattr(guisekit, name), name
    # Submodules become attributes once imported anywhere; they are not re-exports.
    public = {
        n
        for n in dir(guisekit)
        if not n.startswith("_") and not isinstance(getattr(guisekit, n), types.ModuleType)
    } - {"annotations"}
    assert public <= set(guisekit.__all__)
