"""Bad inputs across every command (issue #17): each case asserts the exit code, exactly one
``error:`` line naming the problem, no traceback, and that no file was created or changed.

A case is files to create in a fresh folder (the working directory of the run) and the
arguments; ``{d}`` in either is that folder and ``{ex}`` the repository's examples folder.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
DEEP = "[" * 100_000 + "]" * 100_000
BOMB = "".join(
    [f"l0: &l0 [{', '.join(['x'] * 9)}]\n"]
    + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10)]
)
CONFIG = (
    "sources:\n  path: {sources}\n{source_extra}engine:\n  name: rules\nseed: 0\n"
    "transforms:\n  - transform: identity\n  - transform: hedge\n"
    "    direction: [hedged]\noutput:\n  dir: {d}/out\n"
)
ROWS = '{"id": "a", "text": "I was charged $40 twice."}\n{"id": "b", "text": "Fix it now."}\n'
PAIRS = '{"id": "p1", "original": "I paid $40.", "rewrite": "I paid $40."}\n'
GELBACH = "variant_id,source_id,education,approved,a,b\n" + "".join(
    f"v{s}{e},s{s},{e},{(s + len(e)) % 2},{(s + 1) * len(e) % 7 / 10},{(3 * s + len(e)) % 5}\n"
    for s in range(6)
    for e in ("college", "high_school")
)

# GELBACH as JSONL with a byte that is not UTF-8 in a column name (Arrow read it, then
# raised UnicodeDecodeError on the name: a traceback)
GELBACH_NOT_UTF8 = (
    "".join(
        json.dumps(dict(zip(GELBACH.splitlines()[0].split(","), line.split(","), strict=True)))
        + "\n"
        for line in GELBACH.splitlines()[1:]
    )
    .encode()
    .replace(b'"b":', b'"b\xff":', 1)
)

# controls: age2 repeats age under another name, edu2 repeats the focal column
GELBACH_CONTROLS = "variant_id,source_id,education,edu2,age,age2,approved,a,b\n" + "".join(
    f"v{s}{e}{g},s{s},{e},{e[:2]},{g},{g},{(s + len(e) + len(g)) % 2},"
    f"{(s + 1) * len(e) % 7 / 10 + len(g) / 10},{(3 * s + len(e) * len(g)) % 5}\n"
    for s in range(6)
    for e in ("college", "high_school")
    for g in ("young", "old")
)

# gaps: six sources x two education levels, a 0/1 outcome (d) and a numeric one (n, 0 to 5)
GAPS_CORPUS = "".join(
    json.dumps(
        {
            "variant_id": f"s{s}-{e}",
            "source_id": f"s{s}",
            "transform": "persona",
            "status": "ok",
            "text": "x",
            "spec": {"version": 1, "transform": "persona", "persona": {"education": e}},
        }
    )
    + "\n"
    for s in range(6)
    for e in ("college", "high_school")
)
GAPS_RATE, GAPS_NUMERIC = (
    "".join(
        json.dumps(
            {
                "variant_id": f"s{s}-{e}",
                "repeat": 0,
                "order": 0,
                "status": "ok",
                "outcome": (s + len(e)) % 2 if rate else s,
            }
        )
        + "\n"
        for s in range(6)
        for e in ("college", "high_school")
    )
    for rate in (True, False)
)


def corpus_config(sources: str = "{d}/rows.jsonl", source_extra: str = "", **swap: str) -> str:
    text = CONFIG.format(sources=sources, source_extra=source_extra, d="{d}")
    for old, new in swap.items():
        text = text.replace(old, new)
    return text


@dataclass(frozen=True)
class Case:
    name: str
    args: list[str]
    message: str
    files: dict[str, str | bytes] = field(default_factory=dict)
    code: int = 2


def _corpus(name: str, message: str, files: dict[str, str | bytes], *extra: str) -> Case:
    return Case(name, ["corpus", "{d}/c.yaml", *extra], message, files)


CASES = [
    # --- corpus: the config ------------------------------------------------------------
    Case("corpus-missing-config", ["corpus", "{d}/none.yaml"], "none.yaml: config file not found"),
    _corpus("corpus-not-utf8", "not valid UTF-8", {"c.yaml": b"seed: \xff\n"}),
    _corpus(
        "corpus-yaml-syntax",
        "malformed YAML: line 2 column 2: expected ',' or ']'",
        {"c.yaml": "a: [1\nb: 2\n"},
    ),
    _corpus("corpus-top-level-list", "expected a mapping", {"c.yaml": "- 1\n- 2\n"}),
    _corpus("corpus-yaml-deep", "nested more than 100 levels", {"c.yaml": "seed: " + DEEP}),
    _corpus("corpus-yaml-bomb-top", "aliases expand", {"c.yaml": BOMB}),
    _corpus(
        "corpus-yaml-bomb-in-params",
        "aliases expand",
        {
            "c.yaml": corpus_config(
                **{
                    "  name: rules\n": "  name: rules\n  params:\n"
                    + "".join("    " + line + "\n" for line in BOMB.splitlines())
                }
            ),
            "rows.jsonl": ROWS,
        },
    ),
    _corpus("corpus-empty-config", "expected a mapping", {"c.yaml": ""}),
    _corpus(
        "corpus-unknown-key",
        "workers",
        {"c.yaml": corpus_config() + "workers: 4\n", "rows.jsonl": ROWS},
    ),
    _corpus(
        "corpus-unknown-transform",
        "shout",
        {"c.yaml": corpus_config(**{"transform: hedge": "transform: shout"}), "rows.jsonl": ROWS},
    ),
    _corpus(
        "corpus-bad-strength",
        "strength",
        {
            "c.yaml": corpus_config(
                **{"direction: [hedged]": "direction: [hedged]\n    strength: 2"}
            ),
            "rows.jsonl": ROWS,
        },
    ),
    _corpus(
        "corpus-bad-format",
        "output.format",
        {"c.yaml": corpus_config() + "  format: xlsx\n", "rows.jsonl": ROWS},
    ),
    _corpus(
        "corpus-negative-seed",
        "seed",
        {"c.yaml": corpus_config(**{"seed: 0": "seed: -1"}), "rows.jsonl": ROWS},
    ),
    _corpus(
        "corpus-no-transforms",
        "transforms",
        {
            "c.yaml": corpus_config().split("transforms:")[0] + "transforms: []\n"
            "output:\n  dir: {d}/out\n",
            "rows.jsonl": ROWS,
        },
    ),
    # --- corpus: the sources -------------------------------------------------------------
    _corpus("corpus-sources-missing", "rows.jsonl", {"c.yaml": corpus_config()}),
    _corpus(
        "corpus-sources-text-column",
        "missing column 'body'",
        {"c.yaml": corpus_config(source_extra="  text_column: body\n"), "rows.jsonl": ROWS},
    ),
    _corpus(
        "corpus-sources-id-column",
        "missing column 'key'",
        {"c.yaml": corpus_config(source_extra="  id_column: key\n"), "rows.jsonl": ROWS},
    ),
    _corpus(
        "corpus-sources-malformed-jsonl",
        "rows.jsonl",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS + '{"id": "c", "text": \n'},
    ),
    _corpus(
        "corpus-sources-not-object",
        "rows.jsonl",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS + "[1, 2]\n"},
    ),
    _corpus("corpus-sources-empty", "rows.jsonl", {"c.yaml": corpus_config(), "rows.jsonl": ""}),
    _corpus(
        "corpus-sources-blank-text",
        "rows.jsonl",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS + '{"id": "c", "text": "   "}\n'},
    ),
    _corpus(
        "corpus-sources-null-id",
        "id",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS + '{"id": null, "text": "Hi there."}\n'},
    ),
    _corpus(
        "corpus-sources-object-id",
        "id",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS + '{"id": {"a": 1}, "text": "Hi."}\n'},
    ),
    _corpus(
        "corpus-sources-list-id",
        "id",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS + '{"id": [1], "text": "Hi."}\n'},
    ),
    _corpus(
        "corpus-sources-duplicate-id",
        "a",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS + '{"id": "a", "text": "Again."}\n'},
    ),
    _corpus(
        "corpus-sources-lone-surrogate",
        "rows.jsonl",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS + '{"id": "c", "text": "x \\ud800 y"}\n'},
    ),
    _corpus(
        "corpus-csv-unterminated-quote",
        "rows.csv:3: malformed CSV: a quoted field starts here and is never closed",
        {
            "c.yaml": corpus_config(sources="{d}/rows.csv"),
            "rows.csv": 'id,text\na,"I paid $40."\nb,"Fix it\nc,More text here.\n',
        },
    ),
    _corpus(
        "corpus-csv-huge-field",
        "rows.csv",
        {
            "c.yaml": corpus_config(sources="{d}/rows.csv"),
            "rows.csv": "id,text\na," + "x" * 140_000 + "\n",
        },
    ),
    _corpus(
        "corpus-sources-text-too-long",
        "characters",
        {
            "c.yaml": corpus_config(source_extra="  max_chars: 10\n"),
            "rows.jsonl": ROWS,
        },
    ),
    _corpus(
        "corpus-sources-unknown-suffix",
        "rows.txt",
        {"c.yaml": corpus_config(sources="{d}/rows.txt"), "rows.txt": ROWS},
    ),
    _corpus(
        "corpus-sources-folder",
        "src",
        {"c.yaml": corpus_config(sources="{d}/src"), "src/keep.txt": "x"},
    ),
    # --- corpus: the outputs -------------------------------------------------------------
    _corpus(
        "corpus-out-is-file",
        "is a file, not a folder",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS, "out": "a file"},
    ),
    _corpus(
        "corpus-out-under-file",
        "is a file, not a folder",
        {
            "c.yaml": corpus_config(**{"{d}/out": "{d}/f/out"}),
            "rows.jsonl": ROWS,
            "f": "a file",
        },
    ),
    _corpus(
        "corpus-out-exists",
        "already exists",
        {"c.yaml": corpus_config(), "rows.jsonl": ROWS, "out/corpus.jsonl": "{}\n"},
    ),
    _corpus(
        "corpus-out-is-input",
        "is also an input",
        {"c.yaml": corpus_config(sources="{d}/out/corpus.jsonl"), "out/corpus.jsonl": ROWS},
        "--overwrite",
    ),
    # --- check-facts ---------------------------------------------------------------------
    Case("facts-nothing", ["check-facts"], "nothing to check"),
    Case("facts-one-text", ["check-facts", "I paid $40."], "nothing to check"),
    Case(
        "facts-both",
        ["check-facts", "a", "b", "--pairs", "{d}/p.jsonl"],
        "not both",
        {"p.jsonl": PAIRS},
    ),
    Case("facts-pairs-missing", ["check-facts", "--pairs", "{d}/none.jsonl"], "none.jsonl"),
    Case(
        "facts-pairs-column",
        ["check-facts", "--pairs", "{d}/p.jsonl", "--rewrite-column", "after"],
        "missing column 'after'",
        {"p.jsonl": PAIRS},
    ),
    Case(
        "facts-pairs-malformed",
        ["check-facts", "--pairs", "{d}/p.jsonl"],
        "p.jsonl",
        {"p.jsonl": PAIRS + "{oops\n"},
    ),
    Case(
        "facts-pairs-null-id",
        ["check-facts", "--pairs", "{d}/p.jsonl"],
        "id",
        {"p.jsonl": PAIRS + '{"id": null, "original": "a", "rewrite": "a"}\n'},
    ),
    Case(
        "facts-pairs-unterminated-quote",
        ["check-facts", "--pairs", "{d}/p.csv"],
        "p.csv:3: malformed CSV: a quoted field starts here and is never closed",
        {"p.csv": 'id,original,rewrite\np1,a,a\np2,"b,b\np3,c,c\n'},
    ),
    Case(
        "facts-pairs-surrogate",
        ["check-facts", "--pairs", "{d}/p.jsonl"],
        "p.jsonl",
        {"p.jsonl": '{"id": "p", "original": "\\udc80", "rewrite": "a"}\n'},
    ),
    Case(
        "facts-report-folder",
        ["check-facts", "--pairs", "{d}/p.jsonl", "--report", "{d}/r.jsonl", "--overwrite"],
        "r.jsonl is a folder",
        {"p.jsonl": PAIRS, "r.jsonl/keep.txt": "x"},
    ),
    Case(
        "facts-report-exists",
        ["check-facts", "--pairs", "{d}/p.jsonl", "--report", "{d}/r.jsonl"],
        "already exists",
        {"p.jsonl": PAIRS, "r.jsonl": "{}\n"},
    ),
    Case(
        "facts-report-is-pairs",
        ["check-facts", "--pairs", "{d}/p.jsonl", "--report", "{d}/p.jsonl", "--overwrite"],
        "is also an input",
        {"p.jsonl": PAIRS},
    ),
    Case(
        "facts-report-under-file",
        ["check-facts", "--pairs", "{d}/p.jsonl", "--report", "{d}/f/r.jsonl"],
        "is a file, not a folder",
        {"p.jsonl": PAIRS, "f": "x"},
    ),
    Case(
        "facts-report-dangling-symlink",
        ["check-facts", "--pairs", "{d}/p.jsonl", "--report", "{d}/r.jsonl", "--overwrite"],
        "r.jsonl is a dangling symlink",
        {"p.jsonl": PAIRS},
    ),
    _corpus(
        "corpus-llm-missing-sources-makes-no-cache",
        "rows.jsonl",
        {
            "c.yaml": corpus_config(
                **{
                    "  name: rules\n": "  name: llm\n  models:\n    - model: openai:gpt-4o-mini\n"
                    "  cache: {d}/cache.sqlite\n"
                }
            )
        },
    ),
    Case(
        "facts-text-too-long",
        ["check-facts", "--pairs", "{d}/p.jsonl", "--max-chars", "3"],
        "characters",
        {"p.jsonl": PAIRS},
    ),
    # --- attributes ----------------------------------------------------------------------
    Case("attr-missing", ["attributes", "{d}/none.jsonl", "--out", "{d}/a.csv"], "none.jsonl"),
    Case(
        "attr-negative-resamples",
        ["attributes", "{d}/c.jsonl", "--out", "{d}/a.csv", "--resamples", "-3"],
        "--resamples -3",
        {"c.jsonl": ROWS},
    ),
    Case(
        "attr-out-is-corpus",
        ["attributes", "{d}/c.jsonl", "--out", "{d}/c.jsonl", "--overwrite"],
        "is also an input",
        {"c.jsonl": ROWS},
    ),
    Case(
        "attr-out-exists",
        ["attributes", "{d}/c.jsonl", "--out", "{d}/a.csv"],
        "already exists",
        {"c.jsonl": ROWS, "a.csv": "x\n"},
    ),
    Case(
        "attr-llm-without-model",
        ["attributes", "{d}/c.jsonl", "--out", "{d}/a.csv", "--engine", "llm"],
        "--engine llm needs --model",
        {"c.jsonl": ROWS},
    ),
    Case(
        "attr-set-deep",
        ["attributes", "{d}/c.jsonl", "--out", "{d}/a.csv", "--attribute-set", "{d}/s.yaml"],
        "nested more than 100 levels",
        {"c.jsonl": ROWS, "s.yaml": DEEP},
    ),
    Case(
        "attr-set-bomb",
        ["attributes", "{d}/c.jsonl", "--out", "{d}/a.csv", "--attribute-set", "{d}/s.yaml"],
        "aliases expand",
        {"c.jsonl": ROWS, "s.yaml": BOMB},
    ),
    Case(
        "attr-set-unknown",
        ["attributes", "{d}/c.jsonl", "--out", "{d}/a.csv", "--attribute-set", "recipes"],
        "recipes",
        {"c.jsonl": ROWS},
    ),
    # --- gelbach -------------------------------------------------------------------------
    *(
        Case(
            f"gelbach-{name}",
            [
                "gelbach",
                "{d}/g.csv",
                "--outcome",
                "approved",
                "--focal-column",
                "education",
                "--focal-level",
                "college",
                "--attributes",
                "a=delivery,b=content",
                "--out",
                "{d}/g",
                *extra,
            ],
            message,
            {"g.csv": data, **more},
        )
        for name, extra, message, data, more in [
            ("missing-data", [], "g.csv", None, {}),
            ("outcome-huge", [], "is not finite", None, {}),
            ("outcome-column", ["--outcome", "paid"], "paid", GELBACH, {}),
            ("focal-level", ["--focal-level", "phd"], "phd", GELBACH, {}),
            ("attribute-missing", ["--attributes", "zz=delivery"], "zz", GELBACH, {}),
            ("attribute-family", ["--attributes", "a"], "no family", GELBACH, {}),
            ("out-is-file", [], "g", GELBACH, {"g": "a file"}),
            (
                "one-cluster",
                ["--resamples", "9"],
                "only 1 source (cluster): a cluster bootstrap cannot give intervals",
                "".join(
                    line
                    for line in GELBACH.splitlines(True)
                    if ",s0," in line or line.startswith("variant_id")
                ),
                {},
            ),
            (
                "control-copy",
                ["--control", "age,age2"],
                "the controls are collinear within sources: 'age2=young' is determined by "
                "'age=young' (control columns age, age2)",
                GELBACH_CONTROLS,
                {},
            ),
            (
                "control-repeats-focal",
                ["--control", "edu2"],
                "'education=college' is determined by the controls within sources "
                "(control columns edu2)",
                GELBACH_CONTROLS,
                {},
            ),
        ]
    ),
    Case(
        "gelbach-jsonl-name-not-utf8",
        [
            *("gelbach", "{d}/g.jsonl", "--outcome", "approved", "--focal-column", "education"),
            *("--focal-level", "college", "--attributes", "a=delivery", "--out", "{d}/g"),
        ],
        "g.jsonl:1: invalid UTF-8 at byte",
        {"g.jsonl": GELBACH_NOT_UTF8},
    ),
    # a --model that cannot be opened: was refused after the answer cache (and its folder)
    # had been created
    *(
        Case(
            f"decide-model-{name}",
            [
                *("decide", "{d}/c.jsonl", "--task", "complaint_remedy", "--model", model),
                *("--id-column", "id", "--out", "{d}/o/d.jsonl"),
            ],
            message,
            {"c.jsonl": ROWS},
        )
        for name, model, message in [
            ("not-importable", "python:nope_mod:f", "--model: cannot import 'nope_mod'"),
            ("no-provider", "nope", "model 'nope' is not `provider:name`"),
            # an endpoint with no host or a bad port: ran, and every decision failed
            ("http-no-host", "http://", "--model: endpoint 'http://' names no host"),
            ("https-port-only", "https://:80/x", "endpoint 'https://:80/x' names no host"),
            ("http-bad-port", "http://h:99999/", "endpoint 'http://h:99999/' has a bad port"),
        ]
    ),
    # counts that only chat models read: a zero or negative value ran without a word
    *(
        Case(
            f"decide-{flag[2:]}-{value}",
            [
                *("decide", "{d}/c.jsonl", "--task", "complaint_remedy", "--model", "p:m:f"),
                *("--id-column", "id", "--out", "{d}/o/d.jsonl", flag, value),
            ],
            f"error: {flag}: must be at least 1, got {value}",
            {"c.jsonl": ROWS},
        )
        for flag in ("--samples", "--concurrency")
        for value in ("0", "-2")
    ),
    # a suffix with no format, in a folder that does not exist yet: the folder was left
    # behind, and the message named the hidden staging copy
    Case(
        "facts-report-suffix-new-folder",
        ["check-facts", "--pairs", "{d}/p.jsonl", "--report", "{d}/o/r.txt"],
        "error: {d}/o/r.txt: cannot tell the format from the suffix '.txt'",
        {"p.jsonl": PAIRS},
    ),
    # a margin that is NaN or infinite: was accepted (NaN compares false with 0), and
    # every equivalence test then reported nonsense
    *(
        Case(
            f"gaps-{option[2:]}-{value}",
            ["gaps", "{d}/c.jsonl", "{d}/d.jsonl", "--out", "{d}/g", option, value],
            "--margin*: margins must be positive finite numbers",
        )
        for option in ("--margin", "--margin-h")
        for value in ("nan", "inf")
    ),
    # a margin too wide to mean anything on the outcome's scale: 1e308 crashed drawing the
    # report's plot ("Singular matrix") after the analysis had run
    *(
        Case(
            f"gaps-{name}",
            ["gaps", "{d}/c.jsonl", "{d}/" + decisions, "--out", "{d}/g", *option],
            message,
            {"c.jsonl": GAPS_CORPUS, "d.jsonl": GAPS_RATE, "n.jsonl": GAPS_NUMERIC},
        )
        for name, decisions, option, message in [
            (
                "margin-huge-rate",
                "d.jsonl",
                ("--margin", "1e308"),
                "--margin: 1e+308 pp is wider than any gap between rates; give a margin in "
                "(0, 100]",
            ),
            (
                "margin-huge-numeric",
                "n.jsonl",
                ("--margin", "1e308"),
                "--margin: 1e+308 is wider than the outcome's whole range (0 to 5); give a "
                "margin in (0, 5]",
            ),
            (
                "margin-h-huge",
                "d.jsonl",
                ("--margin-h", "1e308"),
                "--margin-h: 1e+308 exceeds the largest possible |Cohen's h| (pi)",
            ),
        ]
    ),
    # personas: a number or null (was a TypeError traceback in the persona grid)
    *(
        _corpus(
            f"corpus-personas-{name}",
            f"transforms[1].personas: persona {shown} is neither a persona id nor an axis",
            {
                "c.yaml": corpus_config(
                    **{"  - transform: hedge\n    direction: [hedged]\n": persona}
                ),
                "rows.jsonl": ROWS,
            },
        )
        for name, persona, shown in [
            ("number", "  - transform: persona\n    personas: 3\n", "3"),
            ("null", "  - transform: persona\n    personas: null\n", "None"),
            ("nested", "  - transform: persona\n    personas: [[1]]\n", "[1]"),
        ]
    ),
    # the decide stage's task or model: refused after the corpus stage had written its
    # outputs; now before anything runs
    *(
        Case(
            f"study-decide-{name}",
            ["study", "{d}/s.yaml"],
            message,
            {
                "s.yaml": f"corpus: c.yaml\ndecide: {{task: {task}, model: {model}}}\n"
                "output: {d}/study\n",
                "c.yaml": corpus_config(),
                "rows.jsonl": ROWS,
            },
        )
        for name, task, model, message in [
            ("task", "nope", "python:m:f", "unknown decision task 'nope'"),
            ("model", "complaint_remedy", "nope", "model 'nope' is not `provider:name`"),
            ("endpoint", "complaint_remedy", "'http://'", "endpoint 'http://' names no host"),
        ]
    ),
    # gaps.outcome and the gelbach stage's outcome and attributes: refused only when their
    # stage ran, after the corpus and decide stages had written; now before anything runs
    *(
        Case(
            f"study-{name}",
            ["study", "{d}/s.yaml"],
            message,
            {
                "s.yaml": "corpus: c.yaml\ndecide: {task: complaint_remedy, model: 'python:m:f'}\n"
                + extra
                + "output: {d}/study\n",
                "c.yaml": corpus_config(),
                "rows.jsonl": ROWS,
            },
        )
        for name, extra, message in [
            (
                "gaps-outcome",
                "gaps: {outcome: prob_nope}\n",
                "gaps.outcome: 'prob_nope' is not an outcome the decide task writes; use one of "
                "outcome, prob_",
            ),
            (
                "gaps-outcome-label",
                "gaps: {outcome: label=nope}\n",
                "gaps.outcome: 'label=nope' is not an outcome",
            ),
            (
                "gelbach-outcome",
                "attributes: {}\ngelbach: {outcome: approved, focal_column: education}\n",
                "gelbach.outcome: 'approved' is not an outcome the decide task writes",
            ),
            (
                "gelbach-attribute",
                "attributes: {}\ngelbach: {focal_column: education, attributes: [nope]}\n",
                "gelbach.attributes: attribute 'nope' has no family in the set 'complaints'",
            ),
            (
                "gelbach-family",
                "attributes: {}\ngelbach: {focal_column: education, attributes: [a=b]}\n",
                "gelbach.attributes: attribute 'a': unknown family 'b'",
            ),
        ]
    ),
    # a focal level the persona axis lacks: refused only when the gelbach stage ran
    Case(
        "study-gelbach-focal-level",
        ["study", "{d}/s.yaml"],
        "gelbach.focal_level: 'ancient' is not a level of the persona axis 'age'; use one of "
        "old, young",
        {
            "s.yaml": "corpus: c.yaml\ndecide: {task: complaint_remedy, model: 'python:m:f'}\n"
            "attributes: {}\ngelbach: {focal_column: age, focal_level: [ancient]}\n"
            "output: {d}/study\n",
            "c.yaml": corpus_config(
                **{
                    "  - transform: hedge\n    direction: [hedged]\n": (
                        "  - transform: persona\n    personas: all\n"
                    )
                }
            ),
            "rows.jsonl": ROWS,
        },
    ),
    # --- click's usage errors: one line too (were a multi-line box) ---------------------------
    Case(
        "usage-bad-int",
        ["gaps", "{d}/c.jsonl", "{d}/d.jsonl", "--out", "{d}/g", "--resamples", "x"],
        "Invalid value for '--resamples': Input should be a valid integer",
    ),
    Case(
        "usage-missing-argument", ["gaps"], "Missing argument 'corpus'. (see guisekit gaps --help)"
    ),
    Case("usage-no-such-command", ["nope"], "No such command 'nope'. (see guisekit --help)"),
    # a negative seed: was a ValueError traceback from numpy's SeedSequence
    *(
        Case(
            f"{name}-seed-negative",
            [name, *args, "--seed", "-1"],
            "Invalid value for '--seed': Input should be greater than or equal to 0",
        )
        for name, args in [
            ("gaps", ["{d}/c.jsonl", "{d}/d.jsonl", "--out", "{d}/g"]),
            ("gelbach", ["{d}/g.csv", "--outcome", "y", "--focal-column", "x", "--out", "{d}/g"]),
            ("decide", ["{d}/c.jsonl", "--task", "t", "--model", "m", "--out", "{d}/d.jsonl"]),
            ("attributes", ["{d}/c.jsonl", "--out", "{d}/a.jsonl"]),
        ]
    ),
    # --- serve (options refused before listening) ------------------------------------------
    *(
        Case(f"serve-{name}", ["serve", "--port", "0", *extra], message, files)
        for name, extra, message, files in [
            ("port", ["--port", "70000"], "--port", {}),
            ("max-bytes", ["--max-bytes", "0"], "--max-bytes", {}),
            ("max-batch", ["--max-batch", "0"], "--max-batch", {}),
            ("concurrency", ["--concurrency", "0"], "--concurrency", {}),
            ("timeout", ["--timeout", "0"], "--timeout", {}),
            ("header-timeout", ["--header-timeout", "0"], "--header-timeout", {}),
            ("body-timeout", ["--body-timeout", "-1"], "--body-timeout", {}),
            ("style", ["--style", "fancy"], "unknown style 'fancy'", {}),
            ("host-without-token", ["--host", "0.0.0.0"], "needs a bearer token", {}),
            ("engine-config-missing", ["--engine-config", "{d}/e.yaml"], "not found", {}),
            ("engine-config-deep", ["--engine-config", "{d}/e.yaml"], "nested", {"e.yaml": DEEP}),
            ("engine-config-bomb", ["--engine-config", "{d}/e.yaml"], "aliases", {"e.yaml": BOMB}),
            (
                "engine-config-syntax",
                ["--engine-config", "{d}/e.yaml"],
                "line 1",
                {"e.yaml": "a: b: c"},
            ),
            (
                "engine-config-unknown",
                ["--engine-config", "{d}/e.yaml"],
                "colour",
                {"e.yaml": "colour: red"},
            ),
        ]
    ),
    # --- grid ----------------------------------------------------------------------------
    Case("grid-missing", ["grid", "{d}/none.yaml"], "none.yaml"),
    Case("grid-deep", ["grid", "{d}/g.yaml"], "nested more than 100 levels", {"g.yaml": DEEP}),
    Case("grid-bomb", ["grid", "{d}/g.yaml"], "aliases expand", {"g.yaml": BOMB}),
    Case("grid-syntax", ["grid", "{d}/g.yaml"], "line 1 column 5", {"g.yaml": "a: b: c\n"}),
    *(
        Case(
            f"grid-template-{name}",
            ["grid", "{d}/g.yaml", "--out", "{d}/grid.jsonl"],
            message,
            {
                "g.yaml": (EX / "grid_salary.yaml")
                .read_text(encoding="utf-8")
                .replace("grid_salary/templates.yaml", "{d}/t.yaml")
                .replace("grid_salary/", f"{EX}/grid_salary/"),
                "t.yaml": "templates:\n  self:\n    en: '" + body + "'\n    hinglish: 'x'\n"
                "  third_party:\n    en: 'x'\n    hinglish: 'x'\n",
            },
        )
        for name, body, message in [
            ("division-by-zero", "{{ 1/0 }} {{ identity }} {{ question }}", "ZeroDivisionError"),
            (
                "huge-range",
                "{% for i in range(10**7) %}x{% endfor %}{{ identity }}",
                "a template fails to render: OverflowError: Range too big",
            ),
            (
                "recursive-macro",
                "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}{{ identity }}",
                "RecursionError",
            ),
        ]
    ),
    # a language no template is written in: was exit 1 ("checks failed: nothing written")
    # after one "missing in x" line per prompt
    Case(
        "grid-unknown-language",
        ["grid", "{d}/g.yaml", "--out", "{d}/grid.jsonl"],
        "languages: unknown language 'x': the templates in "
        f"{EX}/grid_salary/templates.yaml are written in en, hinglish",
        {
            "g.yaml": (EX / "grid_salary.yaml")
            .read_text(encoding="utf-8")
            .replace("languages: [en, hinglish]", "languages: [en, x]")
            .replace("grid_salary/", f"{EX}/grid_salary/"),
        },
    ),
    # a language the templates are written in but the identifiers are not: ran, rendered no
    # prompt in it, and exited 1 with one "missing in fr" line per prompt
    Case(
        "grid-language-without-phrases",
        ["grid", "{d}/g.yaml", "--out", "{d}/grid.jsonl"],
        "error: languages: identifier caste/brahmin has no phrase in 'fr' (add phrases.fr to "
        "every identifier (identifiers: india), or drop the language)",
        {
            "g.yaml": (EX / "grid_salary.yaml")
            .read_text(encoding="utf-8")
            .replace("languages: [en, hinglish]", "languages: [en, fr]")
            .replace("grid_salary/templates.yaml", "{d}/t.yaml")
            .replace("grid_salary/", f"{EX}/grid_salary/"),
            "t.yaml": "templates:\n  self:\n    en: '{{ identity }} {{ question }}'\n"
            "    fr: '{{ identity }} {{ question }}'\n",
        },
    ),
    # --- personas, audit, decide, gaps, study, edits ---------------------------------------
    Case("personas-grid-missing", ["personas", "--grid", "{d}/none.yaml"], "none.yaml"),
    Case("personas-grid-deep", ["personas", "--grid", "{d}/p.yaml"], "nested", {"p.yaml": DEEP}),
    Case("personas-grid-bomb", ["personas", "--grid", "{d}/p.yaml"], "aliases", {"p.yaml": BOMB}),
    Case("audit-config-missing", ["audit", "--config", "{d}/none.yaml"], "none.yaml"),
    Case("audit-config-deep", ["audit", "--config", "{d}/a.yaml"], "nested", {"a.yaml": DEEP}),
    Case("audit-config-bomb", ["audit", "--config", "{d}/a.yaml"], "aliases", {"a.yaml": BOMB}),
    Case(
        "decide-missing",
        [
            "decide",
            "{d}/none.jsonl",
            "--task",
            "complaint_remedy",
            "--model",
            "stub",
            "--out",
            "{d}/d.jsonl",
        ],
        "none.jsonl",
    ),
    Case("study-missing", ["study", "{d}/none.yaml"], "none.yaml"),
    Case("study-deep", ["study", "{d}/s.yaml"], "nested", {"s.yaml": DEEP}),
    Case("study-bomb", ["study", "{d}/s.yaml"], "aliases", {"s.yaml": BOMB}),
    Case("edits-missing", ["edits", "{d}/none.jsonl"], "none.jsonl"),
    Case(
        "gaps-missing",
        ["gaps", "{d}/none.jsonl", "{d}/none2.jsonl", "--out", "{d}/g"],
        "none",
    ),
]


def _snapshot(folder: Path) -> dict[str, str]:
    """Every entry under ``folder`` with its content hash (or link target)."""
    seen = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            seen[key] = "link:" + os.readlink(path)
        elif path.is_file():
            seen[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            seen[key] = "dir"
    return seen


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(
    case: Case,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from guisekit.cli import main

    def fill(text: str) -> str:
        return text.replace("{d}", str(tmp_path)).replace("{ex}", str(EX))

    for name, content in case.files.items():
        if content is None:
            continue
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(fill(content), encoding="utf-8")
    if case.name == "facts-report-dangling-symlink":
        (tmp_path / "r.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    if case.name == "gelbach-outcome-huge":
        huge = GELBACH.replace(",s0,college,", ",s0,college,1" + "0" * 400 + "#", 1)
        (tmp_path / "g.csv").write_text(huge.replace("#1,", ",").replace("#0,", ","))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GUISEKIT_TOKEN", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    before = _snapshot(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main([fill(arg) for arg in case.args])
    captured = capsys.readouterr()
    text = captured.err + captured.out
    assert "Traceback" not in text, text
    errors = [line for line in captured.err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, captured.err
    assert fill(case.message) in errors[0], errors[0]
    assert exited.value.code == case.code, captured.err
    assert _snapshot(tmp_path) == before


def test_good_inputs_the_strict_readers_still_accept(tmp_path: Path) -> None:
    """A BOM in JSONL (as in CSV), integer ids, and quotes doubled inside a quoted field."""
    from guisekit.tables import read_sources

    jsonl = tmp_path / "bom.jsonl"
    jsonl.write_bytes(b'\xef\xbb\xbf{"id": 7, "text": "I paid $40."}\n{"id": "b", "text": "Hi."}\n')
    assert [(s.id, s.text) for s in read_sources(jsonl)] == [("7", "I paid $40."), ("b", "Hi.")]
    table = tmp_path / "bom.csv"
    table.write_bytes(b'\xef\xbb\xbfid,text\n1,"He said ""fix it"",\nnow."\n')
    assert [(s.id, s.text) for s in read_sources(table)] == [("1", 'He said "fix it",\nnow.')]
