"""Paths in a config resolve against the config file's folder; a missing one is an error,
never a silent fallback to packaged data of the same name."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from guisekit.corpus import build_plan
from guisekit.corpus.plan import load_config
from guisekit.engines import make_engines
from guisekit.errors import ConfigError, GuisekitError, ResourceError
from guisekit.personas import load_grid
from guisekit.resources import read_yaml

ROOT = Path(__file__).parents[1]

CONFIG = """
sources: {{path: data/complaints.jsonl, limit: 1}}
engine: {{name: rules{engine}}}
transforms:
  - transform: persona
    grid: {grid}
    personas: all
output: {{dir: out}}
"""


def _project(tmp_path: Path, grid: str = "grids/mine.yaml", engine: str = "") -> Path:
    """A config in its own folder, with its data beside it, run from somewhere else."""
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    (project / "grids").mkdir()
    shutil.copy(ROOT / "examples/data/complaints.jsonl", project / "data")
    shutil.copy(ROOT / "lexicons/personas/grid.yaml", project / "grids/mine.yaml")
    config = project / "corpus.yaml"
    config.write_text(CONFIG.format(grid=grid, engine=engine), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return config


def _plan(config: Path):  # type: ignore[no-untyped-def]
    settings = load_config(config)
    return build_plan(settings, make_engines(settings.engine, settings.base))


def test_a_persona_grid_path_is_relative_to_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _project(tmp_path)
    monkeypatch.chdir(tmp_path / "elsewhere")
    plan = _plan(config)
    assert len(plan.specs) == 36
    assert {Path(s.grid) for s in plan.specs} == {(config.parent / "grids/mine.yaml").resolve()}  # type: ignore[attr-defined]


def test_a_missing_persona_grid_is_an_error_naming_the_resolved_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a file of that name exists in the working directory: it must not be picked up
    config = _project(tmp_path, grid="grids/gone.yaml")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "grids").mkdir()
    shutil.copy(ROOT / "lexicons/personas/grid.yaml", tmp_path / "grids/gone.yaml")
    with pytest.raises(ConfigError) as info:
        _plan(config)
    line = info.value.one_line()
    assert line.startswith("transforms[0].grid: persona grid file not found")
    assert str(config.parent / "grids/gone.yaml") in line


def test_a_packaged_grid_is_named_without_a_path(tmp_path: Path) -> None:
    assert len(_plan(_project(tmp_path, grid="demographic")).specs) == len(
        load_grid("demographic").personas()
    )


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        (", lexicons: [mylex]", "engine.lexicons: folder not found"),
        (", profiles: profiles.yaml", "engine.profiles: file not found"),
    ],
)
def test_engine_paths_are_relative_to_the_config_and_must_exist(
    tmp_path: Path, engine: str, message: str
) -> None:
    config = _project(tmp_path, engine=engine)
    with pytest.raises(ConfigError, match=message):
        _plan(config)
    # the same names beside the config file are found, whatever the working directory
    (config.parent / "mylex").mkdir()
    shutil.copy(ROOT / "lexicons/personas/profiles.yaml", config.parent / "profiles.yaml")
    cwd = Path.cwd()
    try:
        os.chdir(tmp_path / "elsewhere")
        assert len(_plan(config).specs) == 36
    finally:
        os.chdir(cwd)


def test_a_user_file_never_falls_back_to_packaged_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # "personas/grid.yaml" is a packaged name; as a user path that does not exist, it fails
    with pytest.raises(ResourceError, match=r"file not found: personas/grid\.yaml"):
        read_yaml(Path("personas/grid.yaml"))
    with pytest.raises(GuisekitError, match="file not found"):
        load_grid("personas/grid.yaml")
    assert read_yaml("personas/grid.yaml")["axes"]  # the packaged name still works
