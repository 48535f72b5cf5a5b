"""Reading and writing corpora: every bad input names its file, line and problem;
writing is atomic and never clobbers an existing file by accident."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from guisekit.errors import GuisekitError, InputError, OutputError, SourceError
from guisekit.models import Source
from guisekit.tables import atomic_writer, read_rows, read_sources, write_rows

# --------------------------------------------------------------------------- helpers


def _jsonl(*rows: Any) -> bytes:
    """JSONL bytes: dicts/lists are dumped, ``str`` is taken as a raw line, bytes verbatim."""
    out = b""
    for row in rows:
        if isinstance(row, bytes):
            out += row
        elif isinstance(row, str):
            out += row.encode("utf-8")
        else:
            out += json.dumps(row, ensure_ascii=False).encode("utf-8")
        out += b"\n"
    return out


def _csv(header: list[str], *rows: list[Any]) -> bytes:
    lines = [",".join(header)] + [",".join(str(v) for v in row) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _write_parquet(path: Path, columns: dict[str, list[Any]]) -> None:
    pq.write_table(pa.table(columns), path)


def _tmp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --------------------------------------------------------------------------- bad inputs

# Each case: (test id, file name, maker, read_sources kwargs, line, column, problem parts).
# The maker gets the path and returns the bytes to write, or writes the file itself
# (Parquet) or leaves it absent and returns None.

LONG = "x" * 51

BAD_INPUTS: list[tuple[str, str, Any, dict[str, Any], int | None, str | None, list[str]]] = [
    (
        "jsonl-missing-text-column",
        "c.jsonl",
        lambda p: _jsonl({"id": "a", "text": "fine"}, {"id": "b", "body": "no text column"}),
        {},
        2,
        "text",
        ["missing column 'text'", "columns: body, id"],
    ),
    (
        "jsonl-missing-id-column",
        "c.jsonl",
        lambda p: _jsonl({"text": "no id here"}),
        {},
        1,
        "id",
        ["missing column 'id'", "columns: text"],
    ),
    (
        "csv-missing-column",
        "c.csv",
        lambda p: _csv(["id", "body"], ["a", "hello"]),
        {},
        2,
        "text",
        ["missing column 'text'", "columns: body, id"],
    ),
    (
        "parquet-missing-column",
        "c.parquet",
        lambda p: _write_parquet(p, {"id": ["a", "b"], "body": ["x", "y"]}),
        {},
        1,
        "text",
        ["missing column 'text'", "columns: body, id"],
    ),
    (
        "jsonl-empty-text",
        "c.jsonl",
        lambda p: _jsonl({"id": "a", "text": "ok"}, {"id": "b", "text": ""}),
        {},
        2,
        "text",
        ["empty or whitespace-only text in column 'text'"],
    ),
    (
        "jsonl-whitespace-text",
        "c.jsonl",
        lambda p: _jsonl({"id": "a", "text": " \t\n "}),
        {},
        1,
        "text",
        ["empty or whitespace-only text in column 'text'"],
    ),
    (
        "jsonl-null-text",
        "c.jsonl",
        lambda p: _jsonl({"id": "a", "text": "ok"}, {"id": "b", "text": None}),
        {},
        2,
        "text",
        ["empty or whitespace-only text in column 'text'"],
    ),
    (
        "csv-empty-text",
        "c.csv",
        lambda p: _csv(["id", "text"], ["a", "fine"], ["b", ""]),
        {},
        3,
        "text",
        ["empty or whitespace-only text in column 'text'"],
    ),
    (
        "csv-whitespace-text",
        "c.csv",
        lambda p: _csv(["id", "text"], ["a", "   "]),
        {},
        2,
        "text",
        ["empty or whitespace-only text in column 'text'"],
    ),
    (
        "parquet-whitespace-text",
        "c.parquet",
        lambda p: _write_parquet(p, {"id": ["a", "b", "c"], "text": ["x", "y", "  "]}),
        {},
        3,
        "text",
        ["empty or whitespace-only text in column 'text'"],
    ),
    (
        "jsonl-invalid-utf8-line-3",
        "c.jsonl",
        lambda p: _jsonl(
            {"id": "a", "text": "one"},
            {"id": "b", "text": "two"},
            b'{"id": "c", "text": "caf\xe9"}',
        ),
        {},
        3,
        None,
        ["invalid UTF-8"],
    ),
    (
        "csv-invalid-utf8-line-3",
        "c.csv",
        lambda p: b"id,text\na,one\nb,caf\xe9\nc,three\n",
        {},
        3,
        None,
        ["invalid UTF-8"],
    ),
    (
        "jsonl-duplicate-id",
        "c.jsonl",
        lambda p: _jsonl(
            {"id": "a", "text": "one"}, {"id": "b", "text": "two"}, {"id": "a", "text": "three"}
        ),
        {},
        3,
        "id",
        ["duplicate id 'a'", "first on line 1"],
    ),
    (
        "jsonl-duplicate-id-int-vs-str",
        "c.jsonl",
        lambda p: _jsonl({"id": 7, "text": "one"}, {"id": "7", "text": "two"}),
        {},
        2,
        "id",
        ["duplicate id '7'", "first on line 1"],
    ),
    (
        "jsonl-duplicate-id-after-blank-line",
        "c.jsonl",
        lambda p: _jsonl({"id": "a", "text": "one"}, "", {"id": "a", "text": "two"}),
        {},
        3,
        "id",
        ["duplicate id 'a'", "first on line 1"],
    ),
    (
        "csv-duplicate-id",
        "c.csv",
        lambda p: _csv(["id", "text"], ["a", "one"], ["b", "two"], ["a", "three"]),
        {},
        4,
        "id",
        ["duplicate id 'a'", "first on line 2"],
    ),
    (
        "parquet-duplicate-id",
        "c.parquet",
        lambda p: _write_parquet(p, {"id": [1, 2, 1], "text": ["x", "y", "z"]}),
        {},
        3,
        "id",
        ["duplicate id '1'", "first on line 1"],
    ),
    (
        "jsonl-empty-id",
        "c.jsonl",
        lambda p: _jsonl({"id": "  ", "text": "one"}),
        {},
        1,
        "id",
        ["empty id in column 'id'"],
    ),
    (
        "jsonl-text-over-max-chars",
        "c.jsonl",
        lambda p: _jsonl({"id": "a", "text": "short"}, {"id": "b", "text": LONG}),
        {"max_chars": 50},
        2,
        "text",
        ["has 51 characters", "over the limit of 50"],
    ),
    (
        "csv-text-over-max-chars",
        "c.csv",
        lambda p: _csv(["id", "text"], ["a", LONG]),
        {"max_chars": 50},
        2,
        "text",
        ["has 51 characters", "over the limit of 50"],
    ),
    (
        "jsonl-malformed-json",
        "c.jsonl",
        lambda p: _jsonl({"id": "a", "text": "one"}, '{"id": "b", "text": '),
        {},
        2,
        None,
        ["malformed JSON line"],
    ),
    (
        "jsonl-line-is-a-list",
        "c.jsonl",
        lambda p: _jsonl({"id": "a", "text": "one"}, ["b", "two"]),
        {},
        2,
        None,
        ["a JSON line must be an object"],
    ),
    (
        "jsonl-line-is-a-string",
        "c.jsonl",
        lambda p: _jsonl('"just a string"'),
        {},
        1,
        None,
        ["a JSON line must be an object"],
    ),
    (
        "csv-more-fields-than-header",
        "c.csv",
        lambda p: b"id,text\na,one\nb,two,three\n",
        {},
        3,
        None,
        ["more fields than the header"],
    ),
    (
        "unknown-suffix",
        "c.txt",
        lambda p: _jsonl({"id": "a", "text": "one"}),
        {},
        None,
        None,
        ["cannot tell the format from the suffix '.txt'"],
    ),
    (
        "missing-file",
        "absent.jsonl",
        lambda p: None,
        {},
        None,
        None,
        ["file not found"],
    ),
    (
        "empty-jsonl",
        "c.jsonl",
        lambda p: b"",
        {},
        None,
        None,
        ["no rows"],
    ),
    (
        "blank-lines-only-jsonl",
        "c.jsonl",
        lambda p: b"\n   \n\n",
        {},
        None,
        None,
        ["no rows"],
    ),
    (
        "empty-csv",
        "c.csv",
        lambda p: b"",
        {},
        None,
        None,
        ["no rows"],
    ),
    (
        "header-only-csv",
        "c.csv",
        lambda p: b"id,text\n",
        {},
        None,
        None,
        ["no rows"],
    ),
    (
        "empty-parquet",
        "c.parquet",
        lambda p: _write_parquet(
            p, {"id": pa.array([], pa.string()), "text": pa.array([], pa.string())}
        ),
        {},
        None,
        None,
        ["no rows"],
    ),
    (
        "not-a-parquet-file",
        "c.parquet",
        lambda p: b"this is not parquet at all",
        {},
        None,
        None,
        ["not a readable Parquet file"],
    ),
]


@pytest.mark.parametrize(
    ("name", "make", "kwargs", "line", "column", "problem"),
    [pytest.param(*case[1:], id=case[0]) for case in BAD_INPUTS],
)
def test_bad_input_raises_source_error_naming_file_line_and_problem(
    tmp_path: Path,
    name: str,
    make: Any,
    kwargs: dict[str, Any],
    line: int | None,
    column: str | None,
    problem: list[str],
) -> None:
    path = tmp_path / name
    made = make(path)
    if isinstance(made, bytes):
        path.write_bytes(made)

    with pytest.raises(SourceError) as info:
        read_sources(path, **kwargs)

    exc = info.value
    assert type(exc) is SourceError
    assert isinstance(exc, InputError) and isinstance(exc, GuisekitError)
    assert exc.path == path
    assert exc.line == line
    assert exc.column == column
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    assert str(exc).startswith(where), str(exc)
    assert exc.message == str(exc)
    for part in problem:
        assert part in str(exc), (part, str(exc))
    # a hint is always given, and the one-line form keeps the location and the problem
    assert exc.hint
    flat = exc.one_line()
    assert "\n" not in flat
    assert flat.startswith(where.rstrip())
    assert exc.hint in flat


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_invalid_utf8_on_line_3_is_named_exactly(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"latin1{suffix}"
    if suffix == ".jsonl":
        path.write_bytes(
            b'{"id": "a", "text": "one"}\n{"id": "b", "text": "two"}\n'
            b'{"id": "c", "text": "na\xefve"}\n'
        )
    else:
        path.write_bytes(b"id,text\na,one\nb,na\xefve\n")
    with pytest.raises(SourceError) as info:
        read_sources(path)
    message = str(info.value)
    assert f"{path}:3:" in message
    assert ":3" in message
    assert "invalid UTF-8 at byte" in message
    assert info.value.line == 3


def test_duplicate_id_message_names_both_lines(tmp_path: Path) -> None:
    path = tmp_path / "dup.jsonl"
    path.write_bytes(
        _jsonl(
            {"id": "x", "text": "a"},
            {"id": "y", "text": "b"},
            {"id": "z", "text": "c"},
            {"id": "y", "text": "d"},
        )
    )
    with pytest.raises(SourceError) as info:
        read_sources(path)
    message = str(info.value)
    assert message.startswith(f"{path}:4: ")
    assert "first on line 2" in message
    assert "'y'" in message


def test_custom_columns_are_checked_under_their_own_names(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_bytes(_jsonl({"doc": "a", "body": "ok"}, {"doc": "b", "body": " "}))
    with pytest.raises(SourceError) as info:
        read_sources(path, id_column="doc", text_column="body")
    assert info.value.line == 2
    assert info.value.column == "body"
    assert "column 'body'" in str(info.value)


def test_read_rows_checks_every_text_column(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(
        _jsonl(
            {"id": "p1", "original": "a", "rewrite": "b"},
            {"id": "p2", "original": "a", "rewrite": ""},
        )
    )
    with pytest.raises(SourceError) as info:
        read_rows(
            path,
            required=("id", "original", "rewrite"),
            text_columns=("original", "rewrite"),
            id_column="id",
        )
    assert info.value.line == 2
    assert "column 'rewrite'" in str(info.value)


def test_explicit_format_overrides_suffix(tmp_path: Path) -> None:
    path = tmp_path / "corpus.txt"
    path.write_bytes(_jsonl({"id": "a", "text": "hello"}))
    assert read_sources(path, fmt="jsonl") == [Source(id="a", text="hello")]


# --------------------------------------------------------------------------- good inputs

ROWS: list[dict[str, Any]] = [
    {"id": 1, "text": "I paid $1,200 on 03/14/2023.", "lang": "en", "score": 3},
    {"id": 2, "text": "Mera CTC Rs. 12,00,000 hai — naïve café ✓", "lang": "hi-en", "score": 7},
    {"id": 30, "text": 'Line one\nline two, with "quotes" and, commas', "lang": "en", "score": 0},
]


def test_jsonl_round_trip_keeps_ids_texts_and_meta(tmp_path: Path) -> None:
    rows = [dict(r, tags=["a", "b"], extra={"k": 1}) for r in ROWS]
    path = write_rows(tmp_path / "out.jsonl", rows)
    assert path == tmp_path / "out.jsonl"

    sources = read_sources(path)

    assert [s.id for s in sources] == ["1", "2", "30"]
    assert all(isinstance(s.id, str) for s in sources)
    assert [s.text for s in sources] == [r["text"] for r in ROWS]
    assert sources[0].meta == {"lang": "en", "score": 3, "tags": ["a", "b"], "extra": {"k": 1}}
    assert sources[1].meta["lang"] == "hi-en"
    assert sources[2].meta["score"] == 0
    # JSONL is UTF-8 with non-ASCII text written as itself
    assert "naïve café ✓" in path.read_text(encoding="utf-8")


def test_csv_round_trip_keeps_ids_texts_and_meta_as_strings(tmp_path: Path) -> None:
    path = write_rows(tmp_path / "out.csv", ROWS)
    sources = read_sources(path)
    assert [s.id for s in sources] == ["1", "2", "30"]
    assert [s.text for s in sources] == [r["text"] for r in ROWS]
    assert [s.meta for s in sources] == [
        {"lang": "en", "score": "3"},
        {"lang": "hi-en", "score": "7"},
        {"lang": "en", "score": "0"},
    ]


def test_parquet_round_trip_keeps_ids_texts_and_meta(tmp_path: Path) -> None:
    path = write_rows(tmp_path / "out.parquet", ROWS)
    table = pq.read_table(path)
    assert table.column_names == ["id", "text", "lang", "score"]
    assert table.column("id").to_pylist() == [1, 2, 30]

    sources = read_sources(path)
    assert [s.id for s in sources] == ["1", "2", "30"]
    assert [s.text for s in sources] == [r["text"] for r in ROWS]
    assert [s.meta for s in sources] == [
        {"lang": "en", "score": 3},
        {"lang": "hi-en", "score": 7},
        {"lang": "en", "score": 0},
    ]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_custom_id_and_text_columns(tmp_path: Path, suffix: str) -> None:
    rows = [
        {"doc_id": "d-1", "body": "first text", "src": "web"},
        {"doc_id": "d-2", "body": "second text", "src": "mail"},
    ]
    path = write_rows(tmp_path / f"custom{suffix}", rows)
    sources = read_sources(path, id_column="doc_id", text_column="body")
    assert sources == [
        Source(id="d-1", text="first text", meta={"src": "web"}),
        Source(id="d-2", text="second text", meta={"src": "mail"}),
    ]
    # the default column names are not there
    with pytest.raises(SourceError, match="missing column 'id'"):
        read_sources(path)


def test_ids_are_stripped_and_meta_keeps_other_columns(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_bytes(_jsonl({"id": " a ", "text": "  keep my spaces  ", "n": None}))
    [source] = read_sources(path)
    assert source.id == "a"
    assert source.text == "  keep my spaces  "
    assert source.meta == {"n": None}


def test_csv_with_bom_and_crlf_reads_clean_header(tmp_path: Path) -> None:
    path = tmp_path / "excel.csv"
    path.write_bytes(b"\xef\xbb\xbfid,text\r\na,hello\r\nb,world\r\n")
    sources = read_sources(path)
    assert [(s.id, s.text) for s in sources] == [("a", "hello"), ("b", "world")]


def test_csv_json_encodes_nested_values(tmp_path: Path) -> None:
    rows = [
        {"id": "a", "text": "t1", "tags": ["x", "ü"], "info": {"b": 2, "a": 1}},
        {"id": "b", "text": "t2", "tags": [], "info": {"nested": {"z": [1, 2]}}},
    ]
    path = write_rows(tmp_path / "nested.csv", rows)
    with path.open(encoding="utf-8", newline="") as handle:
        stored = list(csv.DictReader(handle))
    assert [r["tags"] for r in stored] == ['["x", "ü"]', "[]"]
    assert [r["info"] for r in stored] == ['{"a": 1, "b": 2}', '{"nested": {"z": [1, 2]}}']
    assert [json.loads(r["info"]) for r in stored] == [r["info"] for r in rows]

    sources = read_sources(path)
    assert json.loads(sources[0].meta["tags"]) == ["x", "ü"]


def test_parquet_stores_nested_values_natively_and_reads_them_back_exactly(
    tmp_path: Path,
) -> None:
    """Issue #17, defect 19: native struct/list columns, not JSON text; the keys Arrow's
    union adds to a row's struct are removed on reading, a real null is kept."""
    rows = [
        {"id": "a", "text": "t1", "tags": ["x", "ü"], "info": {"b": 2, "a": 1}},
        {"id": "b", "text": "t2", "tags": [], "info": {"nested": {"z": [1, 2]}, "a": None}},
    ]
    path = write_rows(tmp_path / "nested.parquet", rows)
    table = pq.read_table(path)
    assert str(table.schema.field("tags").type) == "list<element: string>"
    info = table.schema.field("info").type
    assert sorted(f.name for f in info) == ["a", "b", "nested"]
    assert [row for _, row in read_rows(path, required=())] == rows
    # a column Arrow cannot type (a number in one row, text in another) is JSON, still exact
    mixed = [{"id": "a", "v": {"k": 1}}, {"id": "b", "v": {"k": "one"}}, {"id": "c", "v": {}}]
    path = write_rows(tmp_path / "mixed.parquet", mixed)
    assert pq.read_table(path).schema.field("v").type == pa.string()
    assert [row for _, row in read_rows(path, required=())] == mixed
    empty = [{"id": "a", "details": {}}, {"id": "b", "details": {}}]
    path = write_rows(tmp_path / "empty.parquet", empty)
    assert [row for _, row in read_rows(path, required=())] == empty


def test_csv_writes_union_of_columns_in_first_seen_order(tmp_path: Path) -> None:
    rows = [{"id": "a", "text": "t1", "x": 1}, {"id": "b", "text": "t2", "y": 2}]
    path = write_rows(tmp_path / "union.csv", rows)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines == ["id,text,x,y", "a,t1,1,", "b,t2,,2"]


def test_jsonl_keeps_nested_values_and_stringifies_unknown_objects(tmp_path: Path) -> None:
    rows = [{"id": "a", "text": "t", "path": Path("some/where"), "nested": {"k": [1]}}]
    path = write_rows(tmp_path / "o.jsonl", rows)
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "id": "a",
        "text": "t",
        "path": "some/where",
        "nested": {"k": [1]},
    }


def test_write_rows_creates_missing_parent_folders(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "out.jsonl"
    write_rows(target, [{"id": "a", "text": "t"}])
    assert read_sources(target) == [Source(id="a", text="t")]


def test_write_rows_rejects_unknown_suffix_before_touching_disk(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"suffix '\.txt'"):
        write_rows(tmp_path / "out.txt", [{"id": "a"}])
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- atomic writing


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_write_rows_refuses_to_replace_existing_file(tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"out{suffix}"
    original = b"precious \x00 bytes that must survive\n"
    target.write_bytes(original)

    with pytest.raises(OutputError) as info:
        write_rows(target, [{"id": "a", "text": "new"}])

    assert type(info.value) is OutputError
    assert str(target) in str(info.value)
    assert "already exists" in str(info.value)
    assert "--overwrite" in info.value.one_line()
    assert target.read_bytes() == original
    assert _tmp_files(tmp_path) == []


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_write_rows_with_overwrite_replaces_existing_file(tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"out{suffix}"
    write_rows(target, [{"id": "old", "text": "old text"}])
    write_rows(
        target, [{"id": "new1", "text": "new text"}, {"id": "new2", "text": "more"}], overwrite=True
    )
    assert [s.id for s in read_sources(target)] == ["new1", "new2"]
    assert _tmp_files(tmp_path) == []


def _half_then_boom() -> Iterator[dict[str, Any]]:
    yield {"id": "a", "text": "first"}
    yield {"id": "b", "text": "second"}
    raise RuntimeError("source went away half way")


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
@pytest.mark.parametrize("overwrite", [False, True])
def test_failing_rows_leave_existing_target_untouched_and_no_tmp(
    tmp_path: Path,
    suffix: str,
    overwrite: bool,
) -> None:
    target = tmp_path / f"out{suffix}"
    original = b"the old, complete output\n"
    target.write_bytes(original)

    # without overwrite either error may come first (rows are gathered before the
    # existence check); with overwrite only the generator's error can stop the write
    expected = RuntimeError if overwrite else (RuntimeError, OutputError)
    with pytest.raises(expected):
        write_rows(target, _half_then_boom(), overwrite=overwrite)

    assert target.read_bytes() == original
    assert _tmp_files(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_failing_rows_create_no_new_file(tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"fresh{suffix}"
    with pytest.raises(RuntimeError, match="half way"):
        write_rows(target, _half_then_boom())
    assert list(tmp_path.iterdir()) == []


def test_failure_while_writing_parquet_removes_tmp_and_keeps_target(tmp_path: Path) -> None:
    # a column holding both a whole number and a text cannot become an Arrow column: the
    # writer fails after the temporary file exists
    target = tmp_path / "out.parquet"
    write_rows(target, [{"id": "keep", "text": "kept"}])
    before = target.read_bytes()
    with pytest.raises(Exception) as info:
        write_rows(target, [{"id": 1, "text": "a"}, {"id": "two", "text": "b"}], overwrite=True)
    assert not isinstance(info.value, GuisekitError)
    assert target.read_bytes() == before
    assert _tmp_files(tmp_path) == []
    assert [s.id for s in read_sources(target)] == ["keep"]


def test_atomic_writer_removes_tmp_on_error_midway(tmp_path: Path) -> None:
    target = tmp_path / "report.jsonl"
    target.write_text("old\n", encoding="utf-8")
    seen: list[Path] = []
    with pytest.raises(ValueError, match="midway"), atomic_writer(target, overwrite=True) as tmp:
        seen.append(tmp)
        assert tmp.parent == tmp_path
        assert tmp.name.startswith(".report.jsonl.") and tmp.name.endswith(".tmp")
        tmp.write_text("half of the new", encoding="utf-8")
        raise ValueError("midway")
    assert not seen[0].exists()
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _tmp_files(tmp_path) == []


def test_atomic_writer_replaces_on_success(tmp_path: Path) -> None:
    target = tmp_path / "report.jsonl"
    with atomic_writer(target) as tmp:
        tmp.write_text("complete\n", encoding="utf-8")
        assert not target.exists()
    assert target.read_text(encoding="utf-8") == "complete\n"
    assert _tmp_files(tmp_path) == []


def test_atomic_writer_refuses_existing_target_without_creating_tmp(tmp_path: Path) -> None:
    target = tmp_path / "report.jsonl"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(OutputError, match="already exists"), atomic_writer(target):
        pytest.fail("the body must not run")  # pragma: no cover
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _tmp_files(tmp_path) == []


def test_outputs_get_the_umask_mode_not_mkstemps_0600(tmp_path):
    import os
    import stat

    from guisekit.tables import write_rows

    target = tmp_path / "out.jsonl"
    write_rows(target, [{"id": "a", "text": "x"}])
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
