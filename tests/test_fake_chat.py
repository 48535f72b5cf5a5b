"""The fake chat model answers by input, whatever the call order, and records its calls."""

from __future__ import annotations

import asyncio
import random

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from guisekit.testing import (
    KeyedFakeChatModel,
    StubError,
    StubReply,
    TokenLogprob,
    TopLogprob,
    message_key,
)


def _key(text: str) -> str:
    return message_key([HumanMessage(text)])


def test_message_key_depends_on_roles_and_content_only() -> None:
    assert message_key([HumanMessage("a")]) == message_key([HumanMessage("a", id="other")])
    assert message_key([HumanMessage("a")]) != message_key([SystemMessage("a")])
    assert message_key([HumanMessage("a")]) != message_key([HumanMessage("b")])
    assert message_key([SystemMessage("s"), HumanMessage("a")]) != message_key([HumanMessage("a")])
    assert len(message_key([HumanMessage("a")])) == 64


def test_concurrent_shuffled_calls_get_the_answers_of_their_inputs() -> None:
    texts = [f"question {i}" for i in range(40)]
    model = KeyedFakeChatModel(responses={_key(t): t.replace("question", "answer") for t in texts})
    order = texts[:]
    random.Random(7).shuffle(order)

    async def ask(prompts: list[str]) -> list[BaseMessage]:
        return await asyncio.gather(*(model.ainvoke(p) for p in prompts))

    forward = asyncio.run(ask(texts))
    shuffled = asyncio.run(ask(order))
    assert [m.content for m in forward] == [t.replace("question", "answer") for t in texts]
    assert {t: m.content for t, m in zip(order, shuffled, strict=True)} == {
        t: m.content for t, m in zip(texts, forward, strict=True)
    }
    assert len(model.calls) == 80
    assert {call.key for call in model.calls} == {_key(t) for t in texts}


def test_batch_and_abatch_answer_by_input() -> None:
    model = KeyedFakeChatModel(responses={_key("a"): "A", _key("b"): "B"})
    assert [m.content for m in model.batch(["b", "a", "b"])] == ["B", "A", "B"]
    assert [m.content for m in asyncio.run(model.abatch(["a", "b"]))] == ["A", "B"]
    assert [m.content for m in [model.invoke("a")]] == ["A"]


def test_calls_record_messages_and_keyword_arguments() -> None:
    model = KeyedFakeChatModel(default="fine")
    model.bind(temperature=0.5).invoke([SystemMessage("sys"), HumanMessage("hi")])
    (call,) = model.calls
    assert call.key == message_key([SystemMessage("sys"), HumanMessage("hi")])
    assert [m.content for m in call.messages] == ["sys", "hi"]
    assert call.kwargs == {"temperature": 0.5}


def test_lookup_order_is_mapping_then_responder_then_default() -> None:
    def respond(messages: list[BaseMessage]) -> str | None:
        text = str(messages[-1].content)
        return text.upper() if text.startswith("up") else None

    model = KeyedFakeChatModel(responses={_key("up mapped"): "mapped"}, responder=respond)
    assert model.invoke("up mapped").content == "mapped"
    assert model.invoke("up here").content == "UP HERE"
    with pytest.raises(StubError, match=_key("other")):
        model.invoke("other")
    assert KeyedFakeChatModel(responder=respond, default="d").invoke("other").content == "d"


def test_refusal_is_reported_like_chat_openai() -> None:
    model = KeyedFakeChatModel(default=StubReply(text="I can't do that.", refusal=True))
    message = model.invoke("do it")
    assert isinstance(message, AIMessage)
    assert message.content == ""
    assert message.additional_kwargs == {"refusal": "I can't do that."}
    assert "logprobs" not in message.response_metadata


def test_usage_and_logprobs_in_openai_format() -> None:
    tokens = (
        TokenLogprob(token="high", logprob=-0.2, top=(TopLogprob(token="low", logprob=-1.8),)),
    )
    model = KeyedFakeChatModel(responses={_key("rate it"): StubReply(text="high", logprobs=tokens)})
    message = model.invoke("rate it")
    assert isinstance(message, AIMessage)
    assert message.usage_metadata == {"input_tokens": 2, "output_tokens": 1, "total_tokens": 3}
    assert message.response_metadata["logprobs"] == {
        "content": [
            {
                "token": "high",
                "logprob": -0.2,
                "bytes": list(b"high"),
                "top_logprobs": [{"token": "low", "logprob": -1.8, "bytes": list(b"low")}],
            }
        ],
        "refusal": None,
    }
    plain = KeyedFakeChatModel(default="two words", report_usage=False)
    asked = plain.bind(logprobs=True, top_logprobs=2).invoke("x")
    assert isinstance(asked, AIMessage)
    assert asked.usage_metadata is None
    content = asked.response_metadata["logprobs"]["content"]
    assert [t["token"] for t in content] == ["two", " words"]
    assert [len(t["top_logprobs"]) for t in content] == [2, 2]
    assert "logprobs" not in plain.invoke("x").response_metadata
