"""Domain wording for the auditor prompt, as data: which decision a text feeds and what
makes a factual difference material there.

"Material" means "could change the decision the text feeds", and that decision differs by
domain (a complaint's resolution, a hiring decision, salary advice), so the examples that
anchor it live in ``prompts/audit/domains.yaml``. Users bring their own domain as a YAML
file holding one mapping with the same fields.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from guisekit.errors import ConfigError
from guisekit.resources import read_config_file, read_yaml

__all__ = ["DOMAINS_FILE", "AuditDomain", "builtin_domains", "load_domain"]

DOMAINS_FILE = "audit/domains.yaml"


class AuditDomain(BaseModel):
    """What the audited texts are, the decision they feed, and examples of (im)materiality."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    texts: str = Field(min_length=1, description="What the texts are, in a phrase.")
    decision: str = Field(min_length=1, description="The decision the texts feed.")
    material: tuple[str, ...] = Field(min_length=1)
    not_material: tuple[str, ...] = Field(min_length=1)

    def prompt_variables(self) -> dict[str, object]:
        """The domain's part of the ``audit/compare`` prompt variables."""
        return {
            "texts": self.texts,
            "decision": " ".join(self.decision.split()),
            "material": list(self.material),
            "not_material": list(self.not_material),
        }


def _validate(name: str, data: object, where: str) -> AuditDomain:
    if not isinstance(data, dict):
        raise ConfigError("a domain must be a mapping", location=where)
    try:
        return AuditDomain.model_validate({"name": name, **data})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ConfigError(
            first["msg"],
            location=f"{where}.{'.'.join(map(str, first['loc']))}",
            hint="a domain has texts, decision, material and not_material",
        ) from None


def builtin_domains() -> tuple[str, ...]:
    """Names of the packaged domains."""
    data = read_yaml(DOMAINS_FILE, kind="prompts")
    return tuple(data) if isinstance(data, dict) else ()


def load_domain(name_or_path: str) -> AuditDomain:
    """A packaged domain by name (``complaints``, ``interviews``, ``salary``) or a YAML file."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml"):
        data = read_config_file(path, "a mapping of the domain's wording", name="domain file")
        return _validate(path.stem, data, str(path))
    data = read_yaml(DOMAINS_FILE, kind="prompts")
    if not isinstance(data, dict) or name_or_path not in data:
        raise ConfigError(
            f"unknown audit domain {name_or_path!r}",
            hint=f"use one of {', '.join(builtin_domains())} or a YAML file path",
        )
    return _validate(name_or_path, data[name_or_path], f"{DOMAINS_FILE}: {name_or_path}")
