"""Issue 31, item 1's figures: ``python -m bench --only heavy`` (about 2 minutes).

1. **In process** (Flask's test client, no HTTP), on a throwaway PostgreSQL cluster (the
   tests' ``tests/pg_cluster.py``: ``fsync=off``, so commits cost less than on a real disk) and
   on SQLite: a 64-team round robin (2,016 matches, the documented maximum) created through
   ``POST /api/tournaments``, then each heavy read of it **cold** (its first read: nothing kept)
   and **warm** (the next read of the same version: kept), then cold again after one result
   (a new version: the statistics of the 2,015 unchanged games are kept by match), and the
   organizer page's size. Each a median of :data:`ROUNDS` fresh apps.
2. **Through nginx** (the hosted recipe of docs/hosting.md: ``truco serve --server granian
   --workers 2 --threads 2`` on PostgreSQL, ``--public-url https://truco.example.org --proxy
   127.0.0.1``, behind Debian's nginx running the shipped ``docs/hosting/nginx.conf``, as
   ``bench/flood.py --proxy`` runs it): the creation's time through nginx, then another table's
   tap p50/p95 (htmx form posts from 127.0.0.60, as ``bench/flood.py``) quiet, and in the same
   run during a heavy-read flood: one address (127.0.0.50) with 4 keep-alive connections
   alternating the tournament's statistics and summary picture as fast as answered (the issue's
   scenario). Target: the flood's p95 within 3x the quiet p95.

Writes ``bench/results_heavy.json`` and prints the figures.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import server
from bench.flood import HOST, ProxyClient, _table, connect
from bench.states import SHORT_MATCH

RESULTS = Path(__file__).with_name("results_heavy.json")
TEAMS = [f"Dupla {i + 1:02d}" for i in range(64)]
ROUNDS = 3
FLOODERS = 4
TABLE_ADDRESS, READER = "127.0.0.60", "127.0.0.50"


def routes(t: dict) -> dict[str, str]:
    """The heavy reads of tournament ``t`` (its ``id`` and ``organizer_key``)."""
    tid, key = t["id"], t["organizer_key"]
    return {"statistics (JSON)": f"/api/tournaments/{tid}/stats", "summary picture": f"/tournaments/{tid}/summary.svg",
            "summary page": f"/tournaments/{tid}/summary", "statistics (CSV)": f"/tournaments/{tid}/stats.csv",
            "export": f"/api/tournaments/{tid}/export", "results (CSV)": f"/api/tournaments/{tid}/results.csv",
            "state (JSON)": f"/api/tournaments/{tid}", "organizer page": f"/t/{tid}/{key}",
            "TV page": f"/tv/{tid}", "TV poll (changed)": f"/tv/{tid}/live?stamp=old"}


def in_process_round(database: str) -> dict[str, Any]:
    """One fresh app on ``database``: creation, each read cold and warm, cold after a result."""
    from scorer.web import create_app

    app = create_app({"TESTING": True, "DATABASE": database, "INSTANCE_SECRET": "b" * 40, "SHARE_LAN": False})
    client = app.test_client()
    t0 = time.perf_counter()
    r = client.post("/api/tournaments", json={"name": "Liga", "variant": SHORT_MATCH, "teams": TEAMS,
                                              "format": "round_robin"})
    create_ms = (time.perf_counter() - t0) * 1000
    assert r.status_code == 201, r.get_data(as_text=True)[:300]
    t = r.get_json()
    out: dict[str, Any] = {"create_ms": create_ms, "reads": {}}
    for name, path in routes(t).items():
        cold = timed(client, path)
        warm = timed(client, path)
        out["reads"][name] = {"cold_ms": cold[0], "warm_ms": warm[0], "bytes": cold[1]}
    first = t["state"]["rounds"][0]["matches"][0]
    _m, match_id, key = first["edit_url"].split("://", 1)[1].split("/", 1)[1].split("/")
    done = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                       json={"action": {"type": "adjust", "side": 0, "delta": target()}, "version": 0})
    assert done.status_code == 200, done.get_data(as_text=True)[:300]
    for name in ("statistics (JSON)", "summary picture"):
        out["reads"][name]["after_a_result_ms"] = timed(client, routes(t)[name])[0]
    return out


def target() -> int:
    """The tentos that end a game of :data:`~bench.states.SHORT_MATCH` at once (its target)."""
    from scorer.core.variants import VARIANTS

    return VARIANTS[SHORT_MATCH].target


def timed(client, path: str) -> tuple[float, int]:
    t0 = time.perf_counter()
    r = client.get(path)
    ms = (time.perf_counter() - t0) * 1000
    assert r.status_code == 200, (path, r.status_code)
    return ms, len(r.data)


def in_process(say) -> dict[str, Any]:
    """:func:`in_process_round` :data:`ROUNDS` times on PostgreSQL and on SQLite; medians."""
    from bench import db

    figures: dict[str, Any] = {}
    cluster = db.pg_cluster().Cluster()
    try:
        for backend in ("PostgreSQL", "SQLite"):
            rounds = []
            for n in range(ROUNDS):
                say(f"in process, {backend}, round {n + 1}")
                database = cluster.create_database() if backend == "PostgreSQL" else str(
                    Path(tempfile.mkdtemp(prefix="truco-heavy-")) / "t.sqlite3")
                rounds.append(in_process_round(database))
            figures[backend] = medians(rounds)
    finally:
        from scorer.app import store

        store.dispose_all()
        cluster.destroy()
    return figures


def medians(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"create_ms": round(statistics.median(r["create_ms"] for r in rounds), 1), "reads": {}}
    for name, first in rounds[0]["reads"].items():
        out["reads"][name] = {k: round(statistics.median(r["reads"][name][k] for r in rounds), 1) for k in first}
    return out


def _reader(port: int, paths: list[str], seconds: float, counts) -> None:
    """One flooding connection from :data:`READER`: GET ``paths`` in turn as fast as answered."""
    os.nice(19)  # the measured table's phone is another device: it never waits for the flooder's process
    conn = connect(port, READER, True)
    seen: dict[int, int] = {}
    deadline, n = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        try:
            conn.request("GET", paths[n % len(paths)], headers={"Host": HOST})
            r = conn.getresponse()
            r.read()
            seen[r.status] = seen.get(r.status, 0) + 1
        except (http.client.HTTPException, OSError):
            conn.close()
            conn = connect(port, READER, True)
        n += 1
    conn.close()
    counts.put(seen)


def table_figures(times: list[float]) -> dict[str, Any]:
    ms = sorted(t * 1000 for t in times)
    return {"taps": len(ms), "p50_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1)}


def through_nginx(say, seconds: float) -> dict[str, Any]:
    """Part 2 of the module docstring: creation, then the table quiet and during the flood."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import nginx_proxy

    from bench import db

    server_cores, client_cores = server.cores()
    every = server_cores | client_cores
    cluster = db.pg_cluster().Cluster()
    db.pin_cluster(cluster, every)
    srv = proxy = None
    try:
        srv = server.start(every, db=cluster.create_database(), args=(
            "--server", "granian", "--workers", "2", "--threads", "2", "--public-url", f"https://{HOST}",
            "--proxy", "127.0.0.1"))
        proxy = nginx_proxy.Proxy(srv.port)
        port = proxy.https_port
        setup = ProxyClient(port, "127.0.0.70")
        matches = [setup.create_match(SHORT_MATCH) for _ in range(10)]
        body = json.dumps({"name": "Liga", "variant": SHORT_MATCH, "teams": TEAMS, "format": "round_robin"}).encode()
        status, raw, create_s = setup.request("POST", "/api/tournaments", body, {"Content-Type": "application/json"})
        assert status == 201, raw[:300]
        t = json.loads(raw)
        setup.close()
        paths = [routes(t)["statistics (JSON)"], routes(t)["summary picture"]]
        say("through nginx: quiet")
        quiet = table_figures(_table(port, True, matches, seconds))
        say("through nginx: heavy-read flood")
        counts: multiprocessing.Queue = multiprocessing.Queue()
        procs = [multiprocessing.Process(target=_reader, args=(port, paths, seconds + 1.0, counts))
                 for _ in range(FLOODERS)]
        for p in procs:
            p.start()
        flood = table_figures(_table(port, True, matches, seconds))
        statuses: dict[str, int] = {}
        for p in procs:
            for code, n in counts.get(timeout=seconds + 60).items():
                statuses[str(code)] = statuses.get(str(code), 0) + n
            p.join(timeout=30)
        flood.update(reads=sum(statuses.values()), read_statuses=statuses)
        return {"create_through_nginx_s": round(create_s, 3), "quiet": quiet, "heavy-read flood": flood,
                "p95_ratio": round(flood["p95_ms"] / quiet["p95_ms"], 2), "target": "p95 within 3x quiet",
                "ok": flood["p95_ms"] <= 3 * quiet["p95_ms"],
                "server": "truco serve --server granian --workers 2 --threads 2, PostgreSQL, behind nginx (shipped file)"}
    finally:
        if proxy is not None:
            proxy.destroy()
        if srv is not None:
            srv.stop()
        from scorer.app import store

        store.dispose_all()
        cluster.destroy()


def main(quick: bool, say) -> int:
    from bench import report

    os.sched_setaffinity(0, server.cores()[1])
    figures: dict[str, Any] = {"in_process": in_process(say)}
    figures["through_nginx"] = through_nginx(say, 5.0 if quick else 15.0)
    figures.update(machine=report.machine(), started=time.strftime("%Y-%m-%d %H:%M:%S"),
                   load_average=os.getloadavg())
    RESULTS.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for backend, f in figures["in_process"].items():
        print(f"\n{backend}, in process: 64-team round robin created in {f['create_ms']:.0f} ms")
        for name, r in f["reads"].items():
            after = f", after a result {r['after_a_result_ms']:.1f} ms" if "after_a_result_ms" in r else ""
            print(f"  {name:20} cold {r['cold_ms']:7.1f} ms  warm {r['warm_ms']:5.1f} ms{after}  ({r['bytes']:.0f} bytes)")
    n = figures["through_nginx"]
    print(f"\nthrough nginx: created in {n['create_through_nginx_s']} s; another table's tap p50/p95 quiet "
          f"{n['quiet']['p50_ms']}/{n['quiet']['p95_ms']} ms, during the heavy-read flood {n['heavy-read flood']['p50_ms']}/"
          f"{n['heavy-read flood']['p95_ms']} ms = {n['p95_ratio']}x (target 3x; flood "
          f"{n['heavy-read flood']['reads']} reads {n['heavy-read flood']['read_statuses']})")
    print(f"Written {RESULTS}.")
    return 0
