"""``identity.v1``: leave the text as it is (the control arm of every matched-guise design)."""

from __future__ import annotations

from typing import Literal

from guisekit.transforms._registry import Spec, Transform, register

__all__ = ["IdentitySpec"]


class IdentitySpec(Spec):
    """Leave the text as it is: the control arm of every matched-guise design."""

    transform: Literal["identity"] = "identity"


# no operator rates and no prompt: both engines return the source text unchanged
IDENTITY = register(Transform("identity", 1, IdentitySpec))
