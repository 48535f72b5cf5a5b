"""``guisekit study``: the whole chain from one config, each stage cached, with a manifest."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def study_command(
    config: Annotated[Path, typer.Argument(help="Study config (YAML); see examples/study.yaml.")],
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Output folder (overrides output: of the config).")
    ] = None,
    rerun: Annotated[
        bool, typer.Option(help="Run every stage again (model answers still come from the cache).")
    ] = False,
) -> None:
    """Run a study: corpus -> (audit) -> decide -> attributes -> gaps -> gelbach.

    Each stage is skipped when its settings and input files are unchanged since the last
    run; the decide stage's answers are cached, so even --rerun makes no new model calls.
    A failing stage stops the study with a non-zero exit. manifest.json records the config,
    version, git commit, input and output hashes, models and prompt versions, timestamps
    and counts per stage.

    **Example**

        guisekit study examples/study.yaml
    """
    from rich.table import Table

    from guisekit.console import err, out
    from guisekit.study import run_study

    manifest = run_study(config, out=out_dir, rerun=rerun)
    table = Table(title=f"Study {manifest['study']}")
    for column in ("stage", "status", "counts"):
        table.add_column(column)
    for stage in manifest["stages"]:
        counts = {k: v for k, v in stage.get("counts", {}).items() if k != "health"}
        table.add_row(
            stage["name"], stage["status"], ", ".join(f"{k}={v}" for k, v in counts.items())
        )
    out.print(table)
    err.print(f"manifest: {Path(manifest['output']) / 'manifest.json'}")
