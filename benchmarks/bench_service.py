"""Load benchmark of ``guisekit serve`` (rules engine, plain style) from a second process.

Usage: python benchmarks/bench_service.py [--requests 10000] [--concurrency 32]
                                          [--sequential 1000] [--block 1000]

The server runs as a subprocess on a free loopback port; this process is the client (a
minimal keep-alive HTTP/1.1 client, see ``_Connection``). Texts are synthetic
1,500-character complaints, all distinct, so the cache answers only where a run is meant
to hit it. In-process calls (``Standardiser.standardise``, cache off) and HTTP calls take
turns on the same texts, so a slow patch of the machine hits both alike:

- ``sequential``: per text, one in-process call then one HTTP request (concurrency 1):
  the per-request latency overhead of the HTTP stack, p50(HTTP) - p50(in-process)
  (target < 5 ms), and the median of the paired differences;
- ``loaded``: ``--requests`` requests at ``--concurrency``, in blocks of ``--block`` that
  alternate with in-process runs over the same block: throughput, p50/p99 latency, and
  throughput as a ratio of in-process (the rules engine holds the GIL, so the server
  rewrites one text at a time and latency under load is mostly queueing);
- ``cache_hits``: the same requests again, every answer from the server's cache.

Every HTTP answer is checked against the in-process text for the same input.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
from synthetic import complaint_texts

from guisekit.standardise import Standardiser


def _summary(latencies_s: Sequence[float], wall_s: float) -> dict[str, float]:
    ordered = sorted(latencies_s)

    def pct(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 3)

    return {
        "requests": len(ordered),
        "throughput_per_s": round(len(ordered) / wall_s, 1),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 3),
    }


class _Connection:
    """One keep-alive HTTP/1.1 connection speaking just enough HTTP for this benchmark.

    Not httpx: its async pool alone tops out near 200 requests/s at concurrency 32 on
    loopback (encode/httpx#3215), which would time the client instead of the server.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, url: str) -> _Connection:
        host, port = url.removeprefix("http://").split(":")
        return cls(*await asyncio.open_connection(host, int(port)))

    async def post_json(self, path: str, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        body = json.dumps(payload).encode("utf-8")
        head = f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        self.writer.write(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, json.loads(await self.reader.readexactly(length))

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def _http_run(
    url: str,
    texts: Sequence[str],
    expected: dict[str, str],
    concurrency: int,
    *,
    hits: bool = False,
) -> tuple[float, list[float]]:
    """``texts`` as single-text requests over ``concurrency`` fresh keep-alive connections:
    the wall time and each request's latency. ``hits``: every answer must be cached."""
    connections = [await _Connection.open(url) for _ in range(concurrency)]
    latencies: list[float] = []
    queue = iter(texts)

    async def worker(connection: _Connection) -> None:
        for text in queue:
            t0 = time.perf_counter()
            status, body = await connection.post_json("/standardise", {"text": text})
            latencies.append(time.perf_counter() - t0)
            _check(status, body, text, expected)
            if body["cached"] is not hits:
                raise SystemExit(f"expected cached={hits}, got {body['cached']}")

    started = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in connections))
    wall = time.perf_counter() - started
    for connection in connections:
        await connection.close()
    return wall, latencies


def _check(status: int, body: dict[str, Any], text: str, expected: dict[str, str]) -> None:
    if status != 200:
        raise SystemExit(f"HTTP {status}: {body}")
    if body["text"] != expected[text]:
        raise SystemExit("the service answered a different text than the in-process call")


def _start_server(
    concurrency: int, cache_size: int, log: Path
) -> tuple[subprocess.Popen[bytes], str]:
    command = [
        sys.executable,
        "-c",
        "from guisekit.cli import main; main()",
        "serve",
        "--port",
        "0",
        "--concurrency",
        str(concurrency),
        "--timeout",
        "300",
        "--cache-size",
        str(cache_size),
    ]
    # The server logs a line per request: to a file, so a full pipe never stalls it.
    proc = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", log.read_text())
        if found:
            with httpx.Client(base_url=found.group(1)) as client:
                for _ in range(200):
                    try:
                        client.get("/health")
                        return proc, found.group(1)
                    except httpx.ConnectError:
                        time.sleep(0.05)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()}")


async def _sequential(
    url: str, local: Standardiser, texts: Sequence[str], expected: dict[str, str]
) -> tuple[list[float], list[float]]:
    connection = await _Connection.open(url)
    local_s, http_s = [], []
    for text in texts:
        t0 = time.perf_counter()
        local.standardise(text)
        t1 = time.perf_counter()
        status, body = await connection.post_json("/standardise", {"text": text})
        t2 = time.perf_counter()
        _check(status, body, text, expected)
        local_s.append(t1 - t0)
        http_s.append(t2 - t1)
    await connection.close()
    return local_s, http_s


async def _loaded(
    url: str, local: Standardiser, texts: Sequence[str], expected: dict[str, str], args: Any
) -> dict[str, Any]:
    local_wall = http_wall = 0.0
    latencies: list[float] = []
    for start in range(0, len(texts), args.block):
        block = texts[start : start + args.block]
        t0 = time.perf_counter()
        for text in block:
            local.standardise(text)
        local_wall += time.perf_counter() - t0
        wall, block_latencies = await _http_run(url, block, expected, args.concurrency)
        http_wall += wall
        latencies += block_latencies
    http = _summary(latencies, http_wall)
    in_process = round(len(texts) / local_wall, 1)
    return {
        "http": http,
        "in_process_throughput_per_s": in_process,
        "throughput_ratio_http_to_in_process": round(http["throughput_per_s"] / in_process, 3),
        "server_cost_per_request_ms": round(1000 / http["throughput_per_s"] - 1000 / in_process, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--sequential", type=int, default=1_000)
    parser.add_argument("--block", type=int, default=1_000)
    args = parser.parse_args()
    texts = complaint_texts(args.requests + args.sequential + 1, seed=7)
    if len(set(texts)) != len(texts):
        raise SystemExit("synthetic texts repeat; the miss runs would hit the cache")
    warm, seq_texts = texts[0], texts[1 : args.sequential + 1]
    load_texts = texts[args.sequential + 1 :]
    reference = Standardiser(cache_size=0)
    expected = {text: reference.standardise(text).text for text in texts}
    local = Standardiser(cache_size=0)  # engine state warm (lexicons loaded), no result cache
    local.standardise(warm)

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = _start_server(args.concurrency, len(texts) + 1, Path(tmp) / "server.log")
        try:
            asyncio.run(_http_run(url, [warm], expected, 1))
            local_s, http_s = asyncio.run(_sequential(url, local, seq_texts, expected))
            loaded = asyncio.run(_loaded(url, local, load_texts, expected, args))
            hit_wall, hit_latencies = asyncio.run(
                _http_run(url, load_texts, expected, args.concurrency, hits=True)
            )
        finally:
            proc.terminate()
            proc.wait(30)

    in_seq = _summary(local_s, sum(local_s))
    http_seq = _summary(http_s, sum(http_s))
    hits = _summary(hit_latencies, hit_wall)
    report = {
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
        "text_chars": round(statistics.fmean(len(t) for t in texts)),
        "sequential": {
            "in_process": in_seq,
            "http": http_seq,
            "p50_overhead_ms": round(http_seq["p50_ms"] - in_seq["p50_ms"], 3),
            "median_paired_overhead_ms": round(
                statistics.median(h - s for h, s in zip(http_s, local_s, strict=True)) * 1000, 3
            ),
        },
        "loaded": loaded,
        "cache_hits": {
            "http": hits,
            "throughput_ratio_to_loaded_misses": round(
                hits["throughput_per_s"] / loaded["http"]["throughput_per_s"], 2
            ),
        },
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
