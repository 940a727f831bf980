"""``python -m bench --only phones``: what an unchanged poll costs as phones connect (issue 23).

For each HTTP server ``truco serve`` offers (waitress, the laptop's default, ``--server
gunicorn`` and ``--server granian``, the hosted recipe's), one process on a fresh SQLite file, pinned to
the server core: ``N`` phones connect (each sends one poll and keeps its keep-alive
connection open, as a phone between two polls does), then 20 more connections poll one
scoreboard at 200 polls a second in all (wrk, each connection waiting 100 ms between
polls) for a few seconds. The figure is the server processes' CPU per answered poll (from
/proc: the work the server does for it, whatever else the machine runs) and wrk's p50/p99,
at N = 10, 500 and 2,000, each level measured ``rounds`` times with the servers
alternating (so both see the same moments of a shared machine), median per level, and
the ratio to N = 10.
"""

from __future__ import annotations

import os
import socket
import statistics
import time
from typing import Any

from bench import server, wrk
from bench.client import Client

LEVELS = (10, 500, 2000)
SERVERS = {"waitress": (), "gunicorn": ("--server", "gunicorn"), "granian": ("--server", "granian")}
POLLERS, POLL_DELAY_MS = 20, 100  # 20 connections x 10 polls/s = 200 polls/s


def server_pids(srv) -> list[int]:
    """``truco serve`` and its children (gunicorn's arbiter and worker, granian's worker, or waitress alone)."""
    from bench.db import children

    return [srv.pid()] + children(srv.pid())


def connect_phones(srv, path: str, n: int) -> list[socket.socket]:
    """``n`` keep-alive connections that each sent one poll of ``path`` and read its 204."""
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nHX-Request: true\r\n\r\n").encode()
    phones = [socket.create_connection(("127.0.0.1", srv.port), timeout=10) for _ in range(n)]
    for s in phones:  # every phone's poll sent before any answer is read: they connect together
        s.sendall(request)
    for s in phones:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                raise RuntimeError("the server closed a phone's connection")
            head += chunk
        if not head.startswith(b"HTTP/1.1 204"):
            raise RuntimeError(f"a phone's poll got {head[:40]!r}")
    return phones


def still_open(phones: list[socket.socket]) -> int:
    """How many of the phones' connections the server has not closed."""
    n = 0
    for s in phones:
        try:
            s.setblocking(False)
            n += s.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            n += 1  # nothing to read and not closed
        except OSError:
            pass
        finally:
            s.setblocking(True)
    return n


def measure_level(srv, client_cores, path: str, n: int, seconds: float) -> dict[str, Any]:
    """CPU per poll and latency with ``n`` phones connected (see the module docstring)."""
    phones = connect_phones(srv, path, n)
    try:
        time.sleep(0.5)
        pids = server_pids(srv)
        cpu0 = sum(server.cpu_seconds(p) for p in pids)
        r = wrk.run(srv.base, [path], connections=POLLERS, seconds=seconds, cores=client_cores,
                    delay_ms=POLL_DELAY_MS, headers={"HX-Request": "true"})
        cpu = sum(server.cpu_seconds(p) for p in pids) - cpu0
        kept = still_open(phones)
    finally:
        for s in phones:
            s.close()
    polls = r["requests"]
    return {"phones": n, "phones_still_connected": kept, "polls": polls, "rps": round(r["rps"], 1),
            "cpu_ms_per_poll": round(cpu / max(1, polls) * 1000, 3),
            "p50_ms": round(r["p50_ms"], 2), "p99_ms": round(r["p99_ms"], 2),
            "non_204": sum(v for k, v in r["statuses"].items() if k != "204")}


def run(say, clock, server_cores, client_cores, rounds: int = 3, seconds: float = 3.0) -> dict[str, Any]:
    """Every server at every level, ``rounds`` times, servers alternating; medians and ratios."""
    from scorer.cli.serve import allow_open_files

    allow_open_files(max(LEVELS) + POLLERS + 256)  # this process holds the phones' sockets
    started = {name: server.start(server_cores, args=args) for name, args in SERVERS.items()}
    samples: dict[str, dict[int, list[dict[str, Any]]]] = {name: {n: [] for n in LEVELS} for name in SERVERS}
    load = [os.getloadavg()[0]]
    try:
        paths = {}
        for name, srv in started.items():
            client = Client(srv.base)
            m = client.create_match()
            client.close()
            paths[name] = m.poll_path()
        for round_ in range(rounds):
            for n in LEVELS:
                for name, srv in started.items():
                    s = measure_level(srv, client_cores, paths[name], n, seconds)
                    samples[name][n].append(s)
                    say(clock, f"round {round_ + 1}, {name}, {n} phones: {s['cpu_ms_per_poll']:.3f} ms CPU per poll, "
                               f"p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms ({s['phones_still_connected']} still connected)")
            load.append(os.getloadavg()[0])
    finally:
        for srv in started.values():
            srv.stop()
    out: dict[str, Any] = {"levels": list(LEVELS), "rounds": rounds, "seconds_per_level": seconds,
                           "poll_rate": POLLERS * 1000 // POLL_DELAY_MS, "load_average": load, "servers": {}}
    for name in SERVERS:
        per = {}
        for n in LEVELS:
            xs = samples[name][n]
            per[str(n)] = {
                "cpu_ms_per_poll": round(statistics.median(x["cpu_ms_per_poll"] for x in xs), 3),
                "p50_ms": round(statistics.median(x["p50_ms"] for x in xs), 2),
                "p99_ms": round(statistics.median(x["p99_ms"] for x in xs), 1),
                "runs_cpu_ms": [x["cpu_ms_per_poll"] for x in xs],
                "phones_still_connected": min(x["phones_still_connected"] for x in xs),
                "non_204": sum(x["non_204"] for x in xs),
            }
        base = per[str(LEVELS[0])]["cpu_ms_per_poll"]
        for n in LEVELS:
            per[str(n)]["ratio_vs_10"] = round(per[str(n)]["cpu_ms_per_poll"] / base, 2) if base else None
        out["servers"][name] = per
    return out
