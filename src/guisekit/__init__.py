"""guisekit: sociolinguistic guise and style rewriting for linguistic-profiling audits.

The core records and specs are re-exported here. Each job has its own subpackage with an
explicit ``__all__``, imported on use so the CLI starts fast: ``guisekit.corpus``,
``guisekit.llm``, ``guisekit.audit``, ``guisekit.attributes``, ``guisekit.gelbach``,
``guisekit.grid``, ``guisekit.hinglish``, ``guisekit.standardise``, ``guisekit.testing``.
:func:`read_corpus` reads a corpus back (rows, or a DataFrame) in any output format.
"""

from __future__ import annotations

from guisekit.corpus_file import read_corpus
from guisekit.errors import (
    ConfigError,
    GuisekitError,
    InputError,
    OutputError,
    ResourceError,
    SourceError,
)
from guisekit.models import AppliedEdit, Provenance, Source, TokenUsage, Variant
from guisekit.personas import Persona, PersonaAxis, PersonaGrid, PersonaLevel, load_grid
from guisekit.specs import (
    AccentSpec,
    FactEditSpec,
    HedgeSpec,
    HinglishSpec,
    IdentitySpec,
    PersonaSpec,
    StandardiseSpec,
    TransformSpec,
    parse_spec,
)

__version__ = "0.1.0"

__all__ = [
    "AccentSpec",
    "AppliedEdit",
    "ConfigError",
    "FactEditSpec",
    "GuisekitError",
    "HedgeSpec",
    "HinglishSpec",
    "IdentitySpec",
    "InputError",
    "OutputError",
    "Persona",
    "PersonaAxis",
    "PersonaGrid",
    "PersonaLevel",
    "PersonaSpec",
    "Provenance",
    "ResourceError",
    "Source",
    "SourceError",
    "StandardiseSpec",
    "TokenUsage",
    "TransformSpec",
    "Variant",
    "__version__",
    "load_grid",
    "parse_spec",
    "read_corpus",
]
