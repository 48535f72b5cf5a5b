"""Every subpackage declares its public names in ``__all__``, and each one exists (as
httpx does): a renamed or removed object cannot silently drop out of the API."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import guisekit

PACKAGES = sorted(m.name for m in pkgutil.iter_modules(guisekit.__path__) if m.ispkg)


@pytest.mark.parametrize("name", ["", *PACKAGES])
def test_all_is_declared_unique_and_every_name_exists(name: str) -> None:
    module = importlib.import_module(f"guisekit.{name}" if name else "guisekit")
    exported = getattr(module, "__all__", None)
    assert isinstance(exported, list | tuple), f"guisekit.{name} has no __all__"
    assert len(set(exported)) == len(exported)
    assert [n for n in exported if not hasattr(module, n)] == []


def test_the_registry_api_is_what_transform_modules_use() -> None:
    from guisekit import transforms

    assert {"Transform", "Spec", "register", "entry_of", "parse_spec"} <= set(transforms.__all__)
