"""guisekit decide: the three decision-model kinds, caching, option orders and repeats,
failure accounting and bad input."""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from guisekit.cli import main
from guisekit.decide import load_task, option_orders
from guisekit.decide.chat import label_probs_from_logprobs
from guisekit.errors import ConfigError

sys.path.insert(0, str(Path(__file__).parent))
import decision_models

TEXTS = {
    "v1": "Please refund the $40 fee.",
    "v2": "I want the record corrected.",
    "v3": "They charged me twice, refund it.",
}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.jsonl"
    rows = [
        {"variant_id": k, "source_id": "s" + k, "text": t, "status": "ok"} for k, t in TEXTS.items()
    ]
    rows.append({"variant_id": "v4", "source_id": "s4", "text": None, "status": "error"})
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def _run(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_callable_model_decides_and_rerun_uses_the_cache(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    args = [
        "decide",
        str(corpus),
        "--task",
        "complaint_remedy",
        "--model",
        "python:decision_models:counting",
        "--out",
        str(out),
        "--repeats",
        "2",
    ]
    decision_models.CALLS.clear()
    assert _run(args) == 0
    rows = _rows(out)
    assert len(rows) == 3 * 2  # the errored variant is left out
    by_id = {(r["variant_id"], r["repeat"]): r for r in rows}
    assert by_id[("v1", 0)]["label"] == "monetary_action" and by_id[("v1", 0)]["outcome"] == 2.0
    assert (
        by_id[("v2", 1)]["label"] == "no_action" and by_id[("v2", 1)]["prob_monetary_action"] == 0.0
    )
    assert by_id[("v3", 0)]["source_id"] == "sv3"
    assert sum(decision_models.CALLS) == 6
    assert _run([*args, "--overwrite"]) == 0
    assert sum(decision_models.CALLS) == 6, "the second run makes no new calls"
    assert _rows(out) == rows


def test_all_option_orders_cross_every_variant(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    assert (
        _run(
            [
                "decide",
                str(corpus),
                "--task",
                "complaint_remedy",
                "--model",
                "python:decision_models:first_option",
                "--orders",
                "all",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    rows = _rows(out)
    assert len(rows) == 3 * 6
    orders = {r["order"]: r["options_order"] for r in rows}
    assert len(set(orders.values())) == 6
    for r in rows:
        assert r["label"] == r["options_order"].split(",")[0]


def test_random_orders_are_seeded_and_start_canonical() -> None:
    task = load_task("interview_rating")
    a = option_orders(task, 4, seed=1)
    assert a == option_orders(task, 4, seed=1) and len(set(a)) == 4
    assert a[0] == task.label_names()
    with pytest.raises(ConfigError, match="3628800 orders"):
        option_orders(task, "all", seed=0)


def test_failures_are_recorded_and_exit_non_zero(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    code = _run(
        [
            "decide",
            str(corpus),
            "--task",
            "complaint_remedy",
            "--model",
            "python:decision_models:bad_labels",
            "--out",
            str(out),
        ]
    )
    assert code == 1
    rows = _rows(out)
    assert [r["status"] for r in rows] == ["refused", "error", "ok"]
    assert rows[0]["reason"] == "policy"
    assert "not one of" in rows[1]["reason"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--task", "nope", "--model", "python:decision_models:counting"], "unknown decision task"),
        (["--task", "complaint_remedy", "--model", "python:nomodule_x:f"], "cannot import"),
        (["--task", "complaint_remedy", "--model", "python:decision_models"], "package.module"),
        (
            [
                "--task",
                "salary_estimate",
                "--model",
                "python:decision_models:counting",
                "--orders",
                "3",
            ],
            "no options",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2(corpus, tmp_path, capsys, extra, message) -> None:
    out = tmp_path / "d.jsonl"
    assert _run(["decide", str(corpus), *extra, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        replies = [{"outcome": 100000.0 * (1 + len(i["text"]))} for i in body["items"]]
        payload = json.dumps({"decisions": replies}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


def test_http_endpoint_numeric_task(corpus: Path, tmp_path: Path) -> None:
    server = HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        out = tmp_path / "d.csv"
        url = f"http://127.0.0.1:{server.server_address[1]}/decide"
        assert (
            _run(
                [
                    "decide",
                    str(corpus),
                    "--task",
                    "salary_estimate",
                    "--model",
                    url,
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
    finally:
        server.shutdown()
        server.server_close()
    import csv

    with out.open() as handle:
        rows = list(csv.DictReader(handle))
    assert {r["variant_id"]: float(r["outcome"]) for r in rows} == {
        k: 100000.0 * (1 + len(t)) for k, t in TEXTS.items()
    }
    assert {r["method"] for r in rows} == {"http"}


LABELS = ("no_action", "non_monetary_action", "monetary_action")


def _positions(chosen_token: str, rest: str, alternatives: dict[str, float]) -> list[dict]:
    import math

    return [
        {"token": '{"label": "', "top_logprobs": []},
        {
            "token": chosen_token,
            "top_logprobs": [{"token": t, "logprob": math.log(p)} for t, p in alternatives.items()],
        },
        {"token": rest, "top_logprobs": []},
    ]


def test_label_probabilities_from_logprobs() -> None:
    positions = _positions(
        "mon", 'etary_action"}', {"mon": 0.6, "non": 0.3, "no": 0.05, "xyz": 0.05}
    )
    probs = label_probs_from_logprobs(positions, "monetary_action", LABELS)
    assert probs == pytest.approx(
        {"monetary_action": 0.6 / 0.95, "non_monetary_action": 0.3 / 0.95, "no_action": 0.05 / 0.95}
    )
    # "no" ends at a word boundary only in no_action: it is not non_monetary_action
    positions = _positions("no", '_action"}', {"no": 0.7, "non": 0.2, "mon": 0.1})
    probs = label_probs_from_logprobs(positions, "no_action", LABELS)
    assert probs == pytest.approx(
        {"no_action": 0.7, "non_monetary_action": 0.2, "monetary_action": 0.1}
    )
    # too little mass on the labels: fall back
    positions = _positions("mon", 'etary_action"}', {"mon": 0.3})
    assert label_probs_from_logprobs(positions, "monetary_action", LABELS) is None
