"""The capacity search (the bench's table model): the largest number of tables whose requests
keep p99 under 100 ms, found by steps of the asyncio phone simulator (bench/loadgen.py) on an
idle server. Used by the default run, ``--only db`` and ``--only hosting``/``phones``."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench import server
from bench.clock import Clock, median, say
from bench.client import Client


def run_loadgen(srv, cores, tables: list[dict[str, Any]], window_s: float, windows: int) -> dict[str, Any]:
    cfg = {"base": srv.base, "poll_s": 2.0, "action_s": 20.0, "warmup_s": 2.0, "windows": windows,
           "window_s": window_s, "tables": tables, "phones": 4, "pool": 0, "seed": len(tables)}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cfg, f)
        path = f.name
    try:
        out = subprocess.run(
            [sys.executable, "-m", "bench.loadgen", path], capture_output=True, text=True,
            timeout=2.0 + window_s * windows + 60, preexec_fn=lambda: os.sched_setaffinity(0, cores),
        )
    finally:
        os.unlink(path)
    if out.returncode:
        raise RuntimeError(f"loadgen failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout)


#: A capacity step starts once the server's processes used less than this share of a core over
#: SETTLE_S seconds (the previous step's requests worked off), or after SETTLE_MAX_S seconds.
SETTLE_SHARE, SETTLE_S, SETTLE_MAX_S = 0.05, 0.5, 30.0


def settle(srv) -> float:
    """Wait until ``srv`` (``truco serve`` and its children) is idle: an overloaded step leaves
    requests queued in the server, which it goes on answering (to clients already gone) into
    the next step, so that step would measure the last one's overload. Seconds waited."""
    from bench.db import children

    started = time.monotonic()
    while time.monotonic() - started < SETTLE_MAX_S:
        pids = [srv.pid()] + children(srv.pid())
        before = sum(server.cpu_seconds(p) for p in pids)
        time.sleep(SETTLE_S)
        if sum(server.cpu_seconds(p) for p in pids) - before < SETTLE_SHARE * SETTLE_S:
            break
    return time.monotonic() - started


def measure_capacity(srv, cores, client: Client, pool: list[dict[str, Any]], clock: Clock,
                     reserve: float, window_s: float, windows: int, probe=None) -> dict[str, Any]:
    """Largest number of tables with p99 < 100 ms (median of the windows' p99), by a
    geometric search that starts at the 500-table target and stops when time runs out; each
    step starts on an idle server (:func:`settle`).

    ``probe``: called as each step starts; it returns a function that the step calls when
    its load ends, whose dict (the server side's CPU, say) is added to the step."""
    step_s = 2.0 + window_s * windows + 1.5
    lo, hi = 0, None
    n = 500
    steps = []
    while clock.left() - reserve > step_s + 4:
        while len(pool) < n:
            m = client.create_match()
            pool.append({"id": m.id, "key": m.key, "version": m.version, "taps": 0})
        waited = settle(srv)
        if clock.left() - reserve < step_s:
            break
        probed = probe() if probe else None
        r = run_loadgen(srv, cores, pool[:n], window_s, windows)
        probed = probed() if probed else {}
        for t in pool[:n]:
            t["version"] = r["versions"][t["id"]]
            t["taps"] = r["taps"][t["id"]]
        p99 = median([w["p99_ms"] for w in r["windows"]])
        answered = sum(w["answered"] for w in r["windows"]) / max(1, sum(w["requests"] for w in r["windows"]))
        ok = p99 is not None and p99 < 100 and answered >= 0.99
        steps.append({
            "tables": n, "ok": ok, "p99_ms": p99, "p50_ms": median([w["p50_ms"] for w in r["windows"]]),
            "windows_p99_ms": [None if w["p99_ms"] is None else round(w["p99_ms"], 1) for w in r["windows"]],
            "action_p99_ms": median([w["action_p99_ms"] for w in r["windows"]]),
            "answered": round(answered, 4), "offered_rps": round(r["offered_rps"], 1),
            "statuses": r["statuses"], "client_cpu_share": round(r["client_cpu_s"] / r["wall_s"], 3),
            "settled_s": round(waited, 1), **probed,
        })
        say(clock, f"capacity {n} tables: p99 {p99 and round(p99, 1)} ms, answered {answered:.1%} -> "
                   f"{'ok' if ok else 'too slow'}")
        if ok:
            lo = n
        else:
            hi = n
        if hi is None:
            n = lo * 2
        elif lo == 0:
            n = max(1, hi // 4)
        else:
            if hi / lo <= 1.2:
                break
            n = int(round(math.sqrt(lo * hi)))
        if n in (lo, hi):
            break
    return {"tables": lo, "failed_at": hi, "steps": steps,
            "model": "4 phones per table, each its own keep-alive connection, polling every 2 s with the "
                     "version it shows; one tap (htmx form post) per table every 20 s; random phases; "
                     "real rates (not scaled), short windows"}
