"""The default run's server figures (``python -m bench``, bench/whole.py), each against one
``truco serve``: the static-file limit, the unchanged-scoreboard poll at 1/50/400 connections,
whether a 204 keeps the connection, and an action's cost (at action 10 and 1,000; while 400
phones poll)."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
import time
from typing import Any

from bench import wrk
from bench.clock import median, pct
from bench.client import Client, MatchRef, drive_to
from bench.states import LONG_MATCH, first_call

POLL_LEVELS = (1, 50, 400)
STATIC_PATH = "/static/icons/icon.svg"
TEMPLATE_POLL_S = 1.0  # hx-trigger="every 1s" in templates/partials/_scoreboard.html


def measure_static(srv, cores, runs, secs) -> dict[str, Any]:
    rs = [wrk.run(srv.base, [STATIC_PATH], connections=50, seconds=secs, cores=cores) for _ in range(runs)]
    return {
        "path": STATIC_PATH, "connections": 50,
        "rps": median([r["rps"] for r in rs]), "p50_ms": median([r["p50_ms"] for r in rs]),
        "p99_ms": median([r["p99_ms"] for r in rs]), "runs": [round(r["rps"]) for r in rs],
    }


def keeps_alive_after_204(client: Client, m: MatchRef) -> dict[str, Any]:
    """Whether the server keeps the connection open after an unchanged poll (204)."""
    import http.client

    conn = http.client.HTTPConnection(client.host, client.port, timeout=5)
    conn.request("GET", m.poll_path(), headers={"HX-Request": "true"})
    resp = conn.getresponse()
    resp.read()
    header = resp.getheader("Connection", "")
    conn.close()
    return {"status": resp.status, "connection_header": header, "keep_alive": "close" not in header.lower()}


def measure_polls(srv, cores, tables: list[MatchRef], runs, secs) -> dict[str, Any]:
    out = {}
    for c in POLL_LEVELS:
        paths = [t.poll_path() for t in tables[: max(1, c // 4)]]
        rs = [wrk.run(srv.base, paths, connections=c, seconds=secs, cores=cores, headers={"HX-Request": "true"})
              for _ in range(runs)]
        out[str(c)] = {
            "rps": median([r["rps"] for r in rs]), "p50_ms": median([r["p50_ms"] for r in rs]),
            "p99_ms": median([r["p99_ms"] for r in rs]),
            "timeouts": sum(r["errors"]["timeout"] for r in rs),
            "non_204": sum(n for r in rs for code, n in r["statuses"].items() if code != "204"),
            "runs": [round(r["rps"]) for r in rs],
        }
    return out


def act_cycle(client: Client, m: MatchRef) -> float:
    """Time one tap that records a call (Truco, htmx form post answering the fragment),
    then undo it with the confirmed Undo form (untimed; answered with a redirect) so the
    match stays where it was. (Through the JSON API, the undo answered the whole state,
    every log entry: at action 1,000 the server was still freeing it when the next timed
    tap arrived, and the tap was charged for it.)"""
    secs, _size = client.htmx_act(m, {"type": "call", "side": 0, "call": first_call(LONG_MATCH)})
    client.form_undo(m)
    return secs


def measure_action_length(client: Client, runs: int, per_run: int) -> dict[str, Any]:
    """Action cost at action 10 and at action 1,000 of one match."""
    out = {}
    for n in (10, 1000):
        m = client.create_match()
        drive_to(client, m, n - 1)  # the timed tap is action number n
        act_cycle(client, m)  # warm the server's cache for this match
        meds, sizes = [], []
        for _ in range(runs):
            meds.append(statistics.median(act_cycle(client, m) for _ in range(per_run)) * 1000)
        sizes.append(client.htmx_act(m, {"type": "call", "side": 0, "call": first_call(LONG_MATCH)})[1])
        client.form_undo(m)
        out[str(n)] = {"p50_ms": median(meds), "runs": [round(x, 2) for x in meds], "fragment_bytes": sizes[0],
                       "match_version": m.version}
    out["ratio"] = out["1000"]["p50_ms"] / out["10"]["p50_ms"]
    return out


def measure_action_under_polls(srv, cores, client: Client, tables, runs, secs) -> dict[str, Any]:
    """Action p50/p99 while 400 phones (100 tables x 4) poll every second (the template's
    interval), paced by wrk's think time; the tapping phone's connection is already open."""
    m = client.create_match()
    drive_to(client, m, 9)
    act_cycle(client, m)
    per_run = []
    poll_rps = []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("w", delete=False) as f:
            f.write("\n".join(t.poll_path() for t in tables[:100]) + "\n")
            paths_file = f.name
        env = dict(os.environ, BENCH_PATHS=paths_file, BENCH_DELAY_MS=str(int(TEMPLATE_POLL_S * 1000)),
                   BENCH_HEADERS="HX-Request: true")
        proc = subprocess.Popen(
            [wrk.ensure_wrk(), "-t1", "-c400", f"-d{int(secs + 2)}s", "--timeout=2s", "-s", str(wrk.SCRIPT),
             srv.base + tables[0].poll_path()],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: os.sched_setaffinity(0, cores),
        )
        time.sleep(1.5)  # let the 400 phones connect and spread out
        lat = []
        t_end = time.monotonic() + secs
        while time.monotonic() < t_end:
            lat.append(act_cycle(client, m) * 1000)
            time.sleep(0.05)
        out, _ = proc.communicate(timeout=secs + 30)
        os.unlink(paths_file)
        line = next((ln for ln in out.splitlines() if ln.startswith("BENCH_JSON ")), None)
        if line:
            r = json.loads(line[len("BENCH_JSON "):])
            poll_rps.append(r["requests"] / (r["duration_us"] / 1e6))
        per_run.append({"p50_ms": pct(lat, 50), "p99_ms": pct(lat, 99), "n": len(lat)})
    return {
        "p50_ms": median([r["p50_ms"] for r in per_run]),
        "p99_ms": median([r["p99_ms"] for r in per_run]),
        "actions_per_run": [r["n"] for r in per_run],
        "runs_p99_ms": [round(r["p99_ms"], 1) for r in per_run],
        "background_poll_rps": median(poll_rps),
        "fragment": "POST /m/<id>/<key>/actions (HX-Request) -> partials/_scoreboard.html",
    }
