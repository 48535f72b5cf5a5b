"""Throughput and rate-limit benchmark of the LLM runner against the stub server.

The stub runs in its own process (as a provider would) with a fixed latency per call; the
runner sends N requests at a concurrency cap. Reported figures are ratios measured in this
run, so they do not depend on the machine's speed:

* wall / ideal, where ideal = N x latency / concurrency (issue #4: <= 1.10 clean, <= 1.25
  with 5% of calls answered 429);
* under a stub-enforced request cap R per window: sustained rate / R (>= 0.95) and the
  share of calls answered 429 (< 1%).

    python benchmarks/bench_llm_runner.py            # N=2000, latency 1 s, concurrency 64
    python benchmarks/bench_llm_runner.py --n 500 --latency 0.5
"""

from __future__ import annotations

import argparse
import bisect
import os
import tempfile
import time
from pathlib import Path

from guisekit.llm import LLMRequest, LLMRunner, RunnerSettings, Store, load_prompt
from guisekit.llm.refs import parse_model
from guisekit.testing import StubConfig, StubProcess

RESPONDER = "guisekit.testing.responders:echo_responder"


def _requests(base_url: str, n: int, tag: str, **model: object) -> list[LLMRequest]:
    ref = parse_model({"model": "openai:bench", "base_url": base_url, **model})
    template = load_prompt("standardise/rewrite")
    return [
        LLMRequest(model=ref, prompt=template.render(text=f"{tag} I paid ${i}.00.", style="plain"))
        for i in range(n)
    ]


def throughput(n: int, latency: float, concurrency: int, rate_429: float) -> dict[str, float]:
    config = StubConfig(latency=latency, rate_429=rate_429, retry_after=latency, seed=1)
    with StubProcess(config, RESPONDER) as stub, tempfile.TemporaryDirectory() as folder:
        runner = LLMRunner(
            Store(Path(folder) / "cache.sqlite"),
            RunnerSettings(concurrency=concurrency, max_retries=8),
        )
        requests = _requests(stub.openai_base_url, n, f"t{rate_429}")
        start = time.perf_counter()
        answers = runner.run(requests)
        wall = time.perf_counter() - start
        stats = stub.stats()
    ideal = n * latency / concurrency
    return {
        "wall_s": wall,
        "ideal_s": ideal,
        "ratio": wall / ideal,
        "ok": sum(a.status == "ok" for a in answers),
        "calls": stats.total_requests,
        "answered_429": stats.by_status.get(429, 0),
    }


def rate_cap(n: int, cap: int, window: float) -> dict[str, float]:
    config = StubConfig(rpm_limit=cap, rate_window_s=window, latency=0.05)
    with StubProcess(config, RESPONDER) as stub, tempfile.TemporaryDirectory() as folder:
        runner = LLMRunner(Store(Path(folder) / "cache.sqlite"), RunnerSettings(concurrency=64))
        answers = runner.run(_requests(stub.openai_base_url, n, "rpm", rpm=cap * 60 / window))
        stats = stub.stats()
    arrivals = sorted(stats.arrival_times)
    busiest = max(bisect.bisect_right(arrivals, t + window) - i for i, t in enumerate(arrivals))
    rate = (len(arrivals) - 1) / (arrivals[-1] - arrivals[0]) * window
    return {
        "sustained_share": rate / cap,
        "share_429": stats.by_status.get(429, 0) / stats.total_requests,
        "busiest_window": busiest,
        "ok": sum(a.status == "ok" for a in answers),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--cap", type=int, default=300, help="Stub request cap per window.")
    parser.add_argument("--window", type=float, default=10.0, help="Cap window in seconds.")
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "bench-key")
    for rate in (0.0, 0.05):
        r = throughput(args.n, args.latency, args.concurrency, rate)
        print(
            f"throughput, {rate:.0%} 429s: N={args.n} latency={args.latency}s "
            f"concurrency={args.concurrency}: wall {r['wall_s']:.2f}s / ideal {r['ideal_s']:.2f}s"
            f" = {r['ratio']:.3f} (ok {r['ok']}/{args.n}, calls {r['calls']}, "
            f"429s {r['answered_429']})"
        )
    r = rate_cap(args.cap * 3, args.cap, args.window)
    print(
        f"rate cap {args.cap}/{args.window:g}s: sustained {r['sustained_share']:.3f} of the cap, "
        f"429 share {r['share_429']:.4f}, busiest window {r['busiest_window']} calls "
        f"(ok {r['ok']}/{args.cap * 3})"
    )


if __name__ == "__main__":
    main()
