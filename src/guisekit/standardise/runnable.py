"""The Standardiser as a langchain-core Runnable, to pipe before any decision chain::

    chain = standardiser.as_runnable() | decision_prompt | decision_model

Two classes rather than one with a flag, so each has one output type: the text to use, or
the full :class:`~guisekit.standardise.results.StandardiseResult`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar, Union

from langchain_core.runnables import Runnable, RunnableConfig

from guisekit.errors import InputError
from guisekit.standardise.results import StandardiseResult

if TYPE_CHECKING:
    from guisekit.standardise.core import Standardiser

__all__ = ["RunnableInput", "StandardiserResultRunnable", "StandardiserRunnable"]

# A str, or a mapping with a "text" key (the shape a prompt's variables arrive in).
RunnableInput = Union[str, Mapping[str, Any]]  # noqa: UP007 - a runtime type for InputType
_Out = TypeVar("_Out")


def _text_of(value: RunnableInput) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and isinstance(value.get("text"), str):
        return str(value["text"])
    raise InputError(
        f"the standardiser takes a str or a mapping with a 'text' string, "
        f"got {type(value).__name__}",
        hint='pass the text, or {"text": ...}',
    )


class _StandardiserRunnableBase(Runnable[RunnableInput, _Out], Generic[_Out]):
    """invoke/ainvoke run the standardiser with callbacks; batch/abatch make one
    ``standardise_many`` call (one engine batch, not a thread per input), with an input
    that is not a text failing alone."""

    name = "standardiser"

    def __init__(self, standardiser: Standardiser) -> None:
        self.standardiser = standardiser

    @property
    def InputType(self) -> Any:  # langchain-core's name
        return RunnableInput

    @abstractmethod
    def _pick(self, result: StandardiseResult) -> _Out:
        """What the runnable outputs for one result."""

    def _run(self, value: RunnableInput) -> _Out:
        return self._pick(self.standardiser.standardise(_text_of(value)))

    async def _arun(self, value: RunnableInput) -> _Out:
        return self._pick(await self.standardiser.astandardise(_text_of(value)))

    def _run_many(self, values: list[RunnableInput]) -> list[Exception | _Out]:
        texts, results = self._split(values)
        if texts:
            done = self.standardiser.standardise_many(list(texts.values()))
            results.update(zip(texts, map(self._pick, done), strict=True))
        return [results[i] for i in range(len(values))]

    async def _arun_many(self, values: list[RunnableInput]) -> list[Exception | _Out]:
        texts, results = self._split(values)
        if texts:
            done = await self.standardiser.astandardise_many(list(texts.values()))
            results.update(zip(texts, map(self._pick, done), strict=True))
        return [results[i] for i in range(len(values))]

    def _split(
        self, values: list[RunnableInput]
    ) -> tuple[dict[int, str], dict[int, Exception | _Out]]:
        """Valid texts by position, and the errors of the inputs that are not."""
        texts: dict[int, str] = {}
        errors: dict[int, Exception | _Out] = {}
        for i, value in enumerate(values):
            try:
                texts[i] = self.standardiser.check_text(_text_of(value))
            except InputError as exc:
                errors[i] = exc
        return texts, errors

    def batch(
        self,
        inputs: list[RunnableInput],
        config: RunnableConfig | list[RunnableConfig] | None = None,
        *,
        return_exceptions: bool = False,
        **kwargs: Any | None,
    ) -> list[_Out]:
        return self._batch_with_config(
            self._run_many, inputs, config, return_exceptions=return_exceptions
        )

    async def abatch(
        self,
        inputs: list[RunnableInput],
        config: RunnableConfig | list[RunnableConfig] | None = None,
        *,
        return_exceptions: bool = False,
        **kwargs: Any | None,
    ) -> list[_Out]:
        return await self._abatch_with_config(
            self._arun_many, inputs, config, return_exceptions=return_exceptions
        )

    def invoke(
        self, input: RunnableInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> _Out:
        return self._call_with_config(self._run, input, config)

    async def ainvoke(
        self, input: RunnableInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> _Out:
        return await self._acall_with_config(self._arun, input, config)


class StandardiserRunnable(_StandardiserRunnableBase[str]):
    """str (or ``{"text": ...}``) in, the text to use out: the candidate, or the original
    where the fact gate fell back."""

    @property
    def OutputType(self) -> Any:  # langchain-core's name
        return str

    def _pick(self, result: StandardiseResult) -> str:
        return result.text


class StandardiserResultRunnable(_StandardiserRunnableBase[StandardiseResult]):
    """str (or ``{"text": ...}``) in, the full :class:`StandardiseResult` out."""

    @property
    def OutputType(self) -> Any:  # langchain-core's name
        return StandardiseResult

    def _pick(self, result: StandardiseResult) -> StandardiseResult:
        return result
