"""Versioned prompt templates: ``prompts/<task>/<name>.v<N>.yaml``.

Each file is a header (``id``, ``version``, ``purpose``, ``output_schema``, the
``variables`` it needs) and two templates, ``system`` and ``user``. Templates are rendered
by a sandboxed Jinja environment with strict undefined variables, so a template cannot
reach Python internals and a missing variable is an error, never an empty string. A
behaviour change is a new version file beside the old one; the version is part of every
cache key and is recorded in each variant's provenance.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from guisekit.errors import ConfigError, ResourceError
from guisekit.llm.schemas import output_instructions, schema
from guisekit.resources import data_root, read_yaml

__all__ = ["Message", "PromptTemplate", "RenderedPrompt", "load_prompt"]

_VERSIONED = re.compile(r"^(?P<name>[a-z_]+)\.v(?P<version>\d+)\.yaml$")
_ENV = SandboxedEnvironment(
    undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True
)


class Message(BaseModel):
    """One chat message as sent to a model (role and text)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    role: str
    content: str


class RenderedPrompt(BaseModel):
    """Messages ready to send, with the prompt identity and schema needed for the cache key."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    prompt_id: str
    version: int
    output_schema: str
    messages: tuple[Message, ...]


class PromptTemplate(BaseModel):
    """A loaded prompt file."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    version: int = Field(ge=1)
    purpose: str
    output_schema: str
    variables: tuple[str, ...]
    system: str
    user: str

    @property
    def version_label(self) -> str:
        return f"v{self.version}"

    def render(self, **variables: Any) -> RenderedPrompt:
        """Fill the templates; unknown or missing variables are errors."""
        missing = [v for v in self.variables if v not in variables]
        extra = [v for v in variables if v not in self.variables]
        if missing or extra:
            raise ConfigError(
                f"prompt {self.id}.v{self.version}: "
                + (f"missing variables {missing}" if missing else f"unexpected variables {extra}"),
                hint=f"it takes {list(self.variables)}",
            )
        model = schema(self.output_schema)
        context = {**variables, "output_instructions": output_instructions(model)}
        try:
            messages = (
                Message(role="system", content=_compile(self.system).render(context).strip()),
                Message(role="user", content=_compile(self.user).render(context).strip()),
            )
        except jinja2.TemplateError as exc:  # undefined names, sandbox violations
            raise ConfigError(
                f"prompt {self.id}.v{self.version} failed to render: {exc}",
                hint="check the template and the variables passed to it",
            ) from None
        return RenderedPrompt(
            prompt_id=self.id,
            version=self.version,
            output_schema=self.output_schema,
            messages=messages,
        )


@functools.lru_cache(maxsize=128)
def _compile(source: str) -> jinja2.Template:
    return _ENV.from_string(source)


@functools.lru_cache(maxsize=64)
def load_prompt(prompt_id: str, version: int | None = None) -> PromptTemplate:
    """The template ``prompt_id`` (``persona/rewrite``) at ``version``, newest by default."""
    task, _, name = prompt_id.partition("/")
    folder = data_root("prompts").joinpath(task)
    versions = sorted(
        int(m["version"])
        for entry in (folder.iterdir() if folder.is_dir() else ())
        if (m := _VERSIONED.match(entry.name)) and m["name"] == name
    )
    if not versions:
        raise ResourceError(f"no prompt named {prompt_id!r}", hint="see the prompts/ folder")
    chosen = versions[-1] if version is None else version
    if chosen not in versions:
        raise ResourceError(
            f"prompt {prompt_id!r} has no version {chosen}", hint=f"versions: {versions}"
        )
    data = read_yaml(f"{task}/{name}.v{chosen}.yaml", kind="prompts")
    if not isinstance(data, Mapping):
        raise ResourceError(f"prompt {prompt_id}.v{chosen}: expected a mapping")
    try:
        template = PromptTemplate.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ResourceError(
            f"prompt {prompt_id}.v{chosen}: {'.'.join(map(str, first['loc']))}: {first['msg']}"
        ) from None
    if (template.id, template.version) != (prompt_id, chosen):
        raise ResourceError(
            f"prompt file {task}/{name}.v{chosen}.yaml declares "
            f"{template.id}.v{template.version}; the header must match the file name"
        )
    for source in (template.system, template.user):
        try:
            _compile(source)
        except jinja2.TemplateSyntaxError as exc:
            raise ResourceError(f"prompt {prompt_id}.v{chosen}: {exc}") from None
    return template
