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

``--proxy`` measures the hosted recipe as written instead (docs/hosting.md): ``truco serve
--server granian --workers 2 --threads 2`` on PostgreSQL with ``--public-url https://truco.example.org
--proxy 127.0.0.1``, behind Debian's nginx running the shipped ``docs/hosting/nginx.conf``
(started as ``tests/system/test_nginx_proxy.py`` starts it: only its ports, certificate, logs
and upstream changed); every client (the table, the flooders) speaks https to nginx from its
own loopback address. The server side (nginx, the app, PostgreSQL) may use every core; the
clients run on the second. ``--reference PATH`` runs the same scenarios on the code of
another checkout too, alternately with this one's (``bench/server.py``'s ``code``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import ssl
import statistics
import sys
import time
from pathlib import Path

from bench import server
from bench.client import Client, MatchRef
from bench.states import SHORT_MATCH

#: The public host name of the shipped nginx file.
HOST = "truco.example.org"


def _context() -> ssl.SSLContext:
    """TLS without checking the throwaway certificate the proxy runs with."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def connect(port: int, address: str, https: bool) -> http.client.HTTPConnection:
    """A keep-alive connection from ``address`` to ``port`` (nginx's https port with ``https``)."""
    if https:
        return http.client.HTTPSConnection("127.0.0.1", port, context=_context(), source_address=(address, 0),
                                           timeout=10)
    return http.client.HTTPConnection("127.0.0.1", port, source_address=(address, 0), timeout=10)


class ProxyClient(Client):
    """:class:`Client` speaking https to nginx from its own address, for the public host."""

    def __init__(self, port: int, source: str) -> None:
        super().__init__(f"http://127.0.0.1:{port}", source=source)

    def connect(self) -> http.client.HTTPConnection:
        return connect(self.port, self.source[0], True)

    def request(self, method, path, body=None, headers=None):
        return super().request(method, path, body, {"Host": HOST, **(headers or {})})

TABLE_ADDRESS, STRANGER, RUNAWAY = "127.0.0.60", "127.0.0.50", "127.0.0.51"
FLOODERS = 4
TAP_EVERY_S = 0.2


def _flood(port: int, https: bool, address: str, path: str, key: str, seconds: float, counts) -> None:
    """One flooding process: POST ``path`` as fast as the server answers, for ``seconds``.
    It runs at the lowest priority: the flooders share the client core with the measured
    table, whose phone is another device in life, so the table's own process must not
    wait for theirs (the server side's cores are not theirs either way)."""
    os.nice(19)
    conn = connect(port, address, https)
    body = json.dumps({"action": {"type": "adjust", "side": 0, "delta": 1}, "version": 0}).encode()
    headers = {"Content-Type": "application/json", "X-Edit-Key": key, **({"Host": HOST} if https else {})}
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
            conn = connect(port, address, https)
    conn.close()
    counts.put(seen)


def _table(port: int, https: bool, matches: list[MatchRef], seconds: float) -> list[float]:
    """The measured table: a tap every :data:`TAP_EVERY_S` on the matches in turn; seconds each."""
    client = ProxyClient(port, TABLE_ADDRESS) if https else Client(f"http://127.0.0.1:{port}", source=TABLE_ADDRESS)
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


def scenario(port: int, https: bool, matches: list[MatchRef], seconds: float,
             flood: tuple[str, str, str] | None, pids: list[int]) -> dict:
    """The table's figures while ``flood`` (``(address, path, key)``, or None) runs, and the
    app processes' (``pids``) CPU during it: cores used, and ms per request answered (the
    table's and the flood's; those nginx refused never reach the app)."""
    from bench.server import cpu_seconds

    cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.monotonic()
    counts: multiprocessing.Queue = multiprocessing.Queue()
    procs = []
    if flood is not None:
        procs = [multiprocessing.Process(target=_flood, args=(port, https, *flood, seconds, counts))
                 for _ in range(FLOODERS)]
        for p in procs:
            p.start()
    times = _table(port, https, matches, seconds)
    statuses: dict[str, int] = {}
    for p in procs:
        for status, n in counts.get(timeout=seconds + 30).items():
            statuses[str(status)] = statuses.get(str(status), 0) + n
        p.join(timeout=30)
    cpu, wall = sum(cpu_seconds(p) for p in pids) - cpu0, time.monotonic() - t0
    ms = sorted(t * 1000 for t in times)
    requests = len(ms) + sum(statuses.values())
    return {"taps": len(ms), "p50_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1),
            "flood_requests": sum(statuses.values()), "flood_statuses": statuses,
            "app_cpu_cores": round(cpu / wall, 3), "app_cpu_ms_per_request": round(cpu / requests * 1000, 3)}


def play(port: int, https: bool, seconds: float, pids: list[int]) -> dict:
    """Set the matches up (from an address of their own) and play the three scenarios."""
    setup = ProxyClient(port, "127.0.0.70") if https else Client(f"http://127.0.0.1:{port}", source="127.0.0.70")
    matches = [setup.create_match(SHORT_MATCH) for _ in range(10)]
    victim = setup.create_match(SHORT_MATCH)
    setup.close()
    wrong = (STRANGER, f"/api/matches/{matches[0].id}/actions", "not-the-key")
    runaway = (RUNAWAY, f"/api/matches/{victim.id}/actions", victim.key)
    return {"quiet": scenario(port, https, matches, seconds, None, pids),
            "one-address wrong-key flood": scenario(port, https, matches, seconds, wrong, pids),
            "one-match flood": scenario(port, https, matches, seconds, runaway, pids)}


def run(seconds: float = 10.0, proxy: bool = False, code: str | None = None) -> dict:
    """Start the server (and nginx with ``proxy``) from this checkout or ``code``, play the
    three scenarios, stop it; the figures by scenario."""
    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    from bench.db import app_pids as db_app_pids

    if not proxy:
        srv = server.start(server_cores, args=("--public-url", "http://127.0.0.1"), code=code)
        try:
            return play(srv.port, False, seconds, db_app_pids(srv))
        finally:
            srv.stop()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import nginx_proxy

    from bench import db

    every = server_cores | client_cores
    cluster = db.pg_cluster().Cluster()
    db.pin_cluster(cluster, every)
    srv = proxy_server = None
    try:
        srv = server.start(every, db=cluster.create_database(), code=code, args=(
            "--server", "granian", "--workers", "2", "--threads", "2", "--public-url", f"https://{HOST}", "--proxy", "127.0.0.1"))
        proxy_server = nginx_proxy.Proxy(srv.port)
        return play(proxy_server.https_port, True, seconds, db.app_pids(srv))
    finally:
        if proxy_server is not None:
            proxy_server.destroy()
        if srv is not None:
            srv.stop()
        from scorer.app import store

        store.dispose_all()
        cluster.destroy()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each scenario")
    parser.add_argument("--proxy", action="store_true", help="the hosted recipe: nginx in front, https, PostgreSQL")
    parser.add_argument("--reference", metavar="PATH", help="also run another checkout's code, alternately")
    args = parser.parse_args()
    codes = {"this": None, **({"reference": args.reference} if args.reference else {})}
    figures = {}
    for name, code in codes.items():
        figures[name] = run(args.seconds, args.proxy, code)
        for scenario_name, f in figures[name].items():
            print(f"{name:9} {scenario_name:30} table taps {f['taps']:4}  p50 {f['p50_ms']:6.1f} ms  "
                  f"p95 {f['p95_ms']:6.1f} ms  flood {f['flood_requests']:6} requests {f['flood_statuses']}; "
                  f"app {f['app_cpu_cores']} cores, {f['app_cpu_ms_per_request']} ms a request")
    figures["load_average"] = os.getloadavg()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
