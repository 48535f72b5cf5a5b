"""Stable identifiers: the same inputs give the same id on every run and platform."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

__all__ = ["stable_hash", "variant_id"]


def _canonical(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return value


def stable_hash(*parts: Any, length: int = 16) -> str:
    """Hex digest of the canonical JSON of ``parts`` (sorted keys, no whitespace)."""
    payload = json.dumps(
        [_canonical(p) for p in parts],
        sort_keys=True,
        separators=(",", ":"),
        default=str,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:length]


def variant_id(source_id: str, spec: BaseModel, engine_config: Any, seed: int) -> str:
    """Id of the variant made from ``source_id`` under ``spec``, engine config and seed."""
    return "v-" + stable_hash(source_id, spec, engine_config, seed)
