"""A stranger's flood against one ``truco serve`` (issue 23, item 2): another table's taps
while one address floods wrong-key posts, and while one match is flooded with its key.

The server runs as a public instance (``--public-url``, so loopback is limited like any
address), pinned to the first core; the flood (4 processes) and the measured table run on
the other core. The table is one phone on its own loopback address (127.0.0.60) tapping
htmx form posts in turn on 10 matches (each match every 2 s or so, within a table's
``match_action`` budget), one tap every 0.2 s; its p50/p95 are reported quiet, during a
one-address wrong-key flood (127.0.0.50) and during a one-match flood with the right key
(127.0.0.51, stale versions, as a runaway phone would send). Target: p95 under 50 ms.

``python -m bench.flood [--seconds N]`` prints the figures (JSON on the last line).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import statistics
import time

from bench import server
from bench.client import Client, MatchRef
from bench.states import SHORT_MATCH

TABLE_ADDRESS, STRANGER, RUNAWAY = "127.0.0.60", "127.0.0.50", "127.0.0.51"
FLOODERS = 4
TAP_EVERY_S = 0.2


def _flood(port: int, address: str, path: str, key: str, seconds: float, counts) -> None:
    """One flooding process: POST ``path`` as fast as the server answers, for ``seconds``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(address, 0), timeout=10)
    body = json.dumps({"action": {"type": "adjust", "side": 0, "delta": 1}, "version": 0}).encode()
    headers = {"Content-Type": "application/json", "X-Edit-Key": key}
    deadline = time.monotonic() + seconds
    seen: dict[int, int] = {}
    while time.monotonic() < deadline:
        try:
            conn.request("POST", path, body=body, headers=headers)
            r = conn.getresponse()
            r.read()
            seen[r.status] = seen.get(r.status, 0) + 1
        except (http.client.HTTPException, OSError):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(address, 0), timeout=10)
    conn.close()
    counts.put(seen)


def _table(port: int, matches: list[MatchRef], seconds: float) -> list[float]:
    """The measured table: a tap every :data:`TAP_EVERY_S` on the matches in turn; seconds each."""
    client = Client(f"http://127.0.0.1:{port}")
    client.conn = http.client.HTTPConnection("127.0.0.1", port, source_address=(TABLE_ADDRESS, 0), timeout=10)
    times, n = [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        m = matches[n % len(matches)]
        delta = 1 if (n // len(matches)) % 2 == 0 else -1
        secs, _ = client.htmx_act(m, {"type": "adjust", "side": 0, "delta": delta})
        times.append(secs)
        n += 1
        time.sleep(max(0.0, TAP_EVERY_S - secs))
    client.close()
    return times


def scenario(port: int, matches: list[MatchRef], seconds: float, flood: tuple[str, str, str] | None) -> dict:
    """The table's figures while ``flood`` (``(address, path, key)``, or None) runs."""
    counts: multiprocessing.Queue = multiprocessing.Queue()
    procs = []
    if flood is not None:
        procs = [multiprocessing.Process(target=_flood, args=(port, *flood, seconds, counts)) for _ in range(FLOODERS)]
        for p in procs:
            p.start()
    times = _table(port, matches, seconds)
    statuses: dict[str, int] = {}
    for p in procs:
        for status, n in counts.get(timeout=seconds + 30).items():
            statuses[str(status)] = statuses.get(str(status), 0) + n
        p.join(timeout=30)
    ms = sorted(t * 1000 for t in times)
    return {"taps": len(ms), "p50_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
            "flood_requests": sum(statuses.values()), "flood_statuses": statuses}


def run(seconds: float = 10.0) -> dict:
    """Start the server, play the three scenarios, stop it; the figures by scenario."""
    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    srv = server.start(server_cores, args=("--public-url", "http://127.0.0.1"))
    try:
        setup = Client(srv.base)
        setup.conn = http.client.HTTPConnection("127.0.0.1", srv.port, source_address=("127.0.0.70", 0), timeout=10)
        matches = [setup.create_match(SHORT_MATCH) for _ in range(10)]
        victim = setup.create_match(SHORT_MATCH)
        setup.close()
        wrong = (STRANGER, f"/api/matches/{matches[0].id}/actions", "not-the-key")
        runaway = (RUNAWAY, f"/api/matches/{victim.id}/actions", victim.key)
        return {"quiet": scenario(srv.port, matches, seconds, None),
                "one-address wrong-key flood": scenario(srv.port, matches, seconds, wrong),
                "one-match flood": scenario(srv.port, matches, seconds, runaway)}
    finally:
        srv.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each scenario")
    figures = run(parser.parse_args().seconds)
    for name, f in figures.items():
        print(f"{name:30} table taps {f['taps']:4}  p50 {f['p50_ms']:6.1f} ms  p95 {f['p95_ms']:6.1f} ms  "
              f"flood {f['flood_requests']:6} requests {f['flood_statuses']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
