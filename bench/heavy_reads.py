"""Issue 31, item 1's figures: ``python -m bench --only heavy`` (about 2 minutes).

1. **In process** (Flask's test client, no HTTP), on a throwaway PostgreSQL cluster (the
   tests' ``tests/pg_cluster.py``: ``fsync=off``, so commits cost less than on a real disk) and
   on SQLite: a 64-team round robin (2,016 matches, the documented maximum) created through
   ``POST /api/tournaments``, then each heavy read of it **cold** (its first read: nothing kept)
   and **warm** (the next read of the same version: kept), each on an app of its own whose
   templates ran first on a 4-team tournament; then the first read after one result (a new
   version: the numbers of the 2,015 unchanged games are kept by match); and each answer's size.
   Medians of :data:`ROUNDS` rounds.
2. **Through nginx** (the hosted recipe of docs/hosting.md: ``truco serve --server granian
   --workers 2 --threads 2`` on PostgreSQL, ``--public-url https://truco.example.org --proxy
   127.0.0.1``, behind Debian's nginx running the shipped ``docs/hosting/nginx.conf``, as
   ``bench/flood.py --proxy`` runs it): the creation's time through nginx, then another table's
   tap p50/p95 (htmx form posts from 127.0.0.60, as ``bench/flood.py``) quiet, and in the same
   run during a heavy-read flood: one address (127.0.0.50) with 4 keep-alive connections
   alternating the tournament's statistics and summary picture as fast as answered (the issue's
   scenario). Target: the flood's p95 within 3x the quiet p95. Then the same while 8 addresses
   each read a 1,200-action match's chart, statistics, CSV files, page and export in turn (the
   issue's second finding, with 16 addresses).

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
from bench.client import HttpError
from bench.flood import HOST, TAP_EVERY_S, ProxyClient, _context, connect
from bench.states import SHORT_MATCH

RESULTS = Path(__file__).with_name("results_heavy.json")
TEAMS = [f"Dupla {i + 1:02d}" for i in range(64)]
ROUNDS = int(os.environ.get("HEAVY_ROUNDS", "3"))
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
    """One round on ``database``: the creation, then each read cold and warm, each on an app of
    its own (nothing kept: no answer, no game's numbers, no layout), whose templates and code
    were first run on a 4-team tournament (so cold is this tournament's cost, not Jinja's first
    compilation), then the statistics and the summary picture cold again after one result."""
    client = fresh_client(database)
    t0 = time.perf_counter()
    r = client.post("/api/tournaments", json={"name": "Liga", "variant": SHORT_MATCH, "teams": TEAMS,
                                              "format": "round_robin"})
    create_ms = (time.perf_counter() - t0) * 1000
    assert r.status_code == 201, r.get_data(as_text=True)[:300]
    t = r.get_json()
    small = client.post("/api/tournaments", json={"name": "Copa", "variant": SHORT_MATCH, "teams": TEAMS[:4],
                                                  "format": "round_robin"}).get_json()
    out: dict[str, Any] = {"create_ms": create_ms, "reads": {}}
    for name, path in routes(t).items():
        client = fresh_client(database)
        timed(client, routes(small)[name])
        forget_layouts()
        cold = timed(client, path)
        warm = timed(client, path)
        out["reads"][name] = {"cold_ms": cold[0], "cold_cpu_ms": cold[2], "warm_ms": warm[0],
                              "warm_cpu_ms": warm[2], "bytes": cold[1]}
    client = fresh_client(database)  # read once, then one result: a new version
    for name in ("statistics (JSON)", "summary picture"):
        timed(client, routes(t)[name])
    first = t["state"]["rounds"][0]["matches"][0]
    _m, match_id, key = first["edit_url"].split("://", 1)[1].split("/", 1)[1].split("/")
    done = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                       json={"action": {"type": "adjust", "side": 0, "delta": target()}, "version": 0})
    assert done.status_code == 200, done.get_data(as_text=True)[:300]
    for name in ("statistics (JSON)", "summary picture"):
        out["reads"][name]["after_a_result_ms"] = timed(client, routes(t)[name])[0]
    return out


def played(database: str) -> dict[str, Any]:
    """A 64-team round robin whose 2,016 games each hold 2 actions (a Truco refused: the game
    goes on, so no result moves the tournament), written straight to the store; its statistics
    read cold with nothing counted yet (every game replayed, then kept), then cold in a new app
    (a restart, or the other worker) that finds each game's numbers kept in the database."""
    from scorer.app import store
    from scorer.app.store import tournaments as tstore
    from scorer.core.variants import VARIANTS

    client = fresh_client(database)
    t = client.post("/api/tournaments", json={"name": "Liga", "variant": SHORT_MATCH, "teams": TEAMS,
                                              "format": "round_robin"}).get_json()
    db = store.connect(database)
    try:
        call = VARIANTS[SHORT_MATCH].truco_ladder[0].call
        for _slot, match_id, _version in tstore.game_versions(db, t["id"]):
            store.append_action(db, match_id, 0, {"type": "call", "side": 0, "call": call}, score=(0, 0), winner=None)
            store.append_action(db, match_id, 1, {"type": "no_quiero", "side": 1}, score=(1, 0), winner=None)
    finally:
        db.close()
    path = routes(t)["statistics (JSON)"]
    first = timed(fresh_client(database), path)
    forget_layouts()
    kept = timed(fresh_client(database), path)
    return {"statistics_nothing_counted_ms": first[0], "statistics_nothing_counted_cpu_ms": first[2],
            "statistics_kept_in_database_ms": kept[0], "statistics_kept_in_database_cpu_ms": kept[2]}


def fresh_client(database: str):
    """A test client of a new app on ``database`` (nothing kept in it)."""
    from scorer.web import create_app

    app = create_app({"TESTING": True, "DATABASE": database, "INSTANCE_SECRET": "b" * 40, "SHARE_LAN": False})
    return app.test_client()


def forget_layouts() -> None:
    """Forget the tournaments' layouts this process built (a reference checkout has none)."""
    from scorer.app import tournament_service

    if hasattr(tournament_service, "layout"):
        tournament_service.layout.cache_clear()


def target() -> int:
    """The tentos that end a game of :data:`~bench.states.SHORT_MATCH` at once (its target)."""
    from scorer.core.variants import VARIANTS

    return VARIANTS[SHORT_MATCH].target


def timed(client, path: str) -> tuple[float, int, float]:
    """``(wall ms, bytes, this process's CPU ms)`` of one read (the CPU time holds on a machine
    shared with other work, where the wall time is the machine's; PostgreSQL's is not in it)."""
    t0, c0 = time.perf_counter(), time.process_time()
    r = client.get(path)
    ms, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
    assert r.status_code == 200, (path, r.status_code)
    return ms, len(r.data), cpu


def in_process_of(code: str, say) -> dict[str, Any]:
    """:func:`in_process` run on another checkout's ``scorer`` package (``code``, as
    ``bench/server.py``'s ``code``): this module in a child process with that package first on
    its path; its figures."""
    import subprocess

    say(f"in process, the code of {code}")
    # Its scorer package (and the pages and static files beside it) first on the path, this
    # checkout's bench after it: a folder of links, as both checkouts have both folders.
    links = Path(tempfile.mkdtemp(prefix="truco-heavy-ref-"))
    for name in ("scorer", "templates", "static"):
        (links / name).symlink_to(Path(code).resolve() / name)
    env = dict(os.environ, HEAVY_ROUNDS="1", PYTHONPATH=os.pathsep.join(filter(None, [
        str(links), str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "bench.heavy_reads"], env=env, cwd=links, capture_output=True,
                          text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.splitlines()[-1])


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
            say(f"in process, {backend}, a played round robin")
            database = cluster.create_database() if backend == "PostgreSQL" else str(
                Path(tempfile.mkdtemp(prefix="truco-heavy-")) / "t.sqlite3")
            try:
                figures[backend]["played"] = {k: round(v, 1) for k, v in played(database).items()}
            except Exception as e:  # noqa: BLE001 - a reference checkout has no kept numbers: say why
                figures[backend]["played"] = {"error": repr(e)[:300]}
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


def _reader(port: int, address: str, paths: list[str], seconds: float, counts) -> None:
    """One flooding connection from ``address``: GET ``paths`` in turn as fast as answered."""
    os.nice(19)  # the measured table's phone is another device: it never waits for the flooder's process
    conn = connect(port, address, True)
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
            conn = connect(port, address, True)
        n += 1
    conn.close()
    counts.put(seen)


def taps(port: int, matches: list, seconds: float) -> tuple[list[float], int]:
    """The measured table (as ``bench/flood.py``'s): a tap every :data:`TAP_EVERY_S` from
    :data:`TABLE_ADDRESS` on ``matches`` in turn, for ``seconds``; the seconds of each, and how
    many failed (no answer within :data:`TAP_TIMEOUT_S`, or not 200: each counted at the time it
    took, so a server that stalls shows in the p95 instead of stopping the bench)."""
    client = ProxyClient(port, TABLE_ADDRESS)
    client.timeout = TAP_TIMEOUT_S
    client.conn.close()
    client.conn = client.connect()
    times, failed, n = [], 0, 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        m = matches[n % len(matches)]
        delta = 1 if (n // len(matches)) % 2 == 0 else -1
        t0 = time.perf_counter()
        try:
            secs, _ = client.htmx_act(m, {"type": "adjust", "side": 0, "delta": delta})
        except (HttpError, OSError, http.client.HTTPException):
            secs, failed = time.perf_counter() - t0, failed + 1
            client.conn.close()
            client.conn = client.connect()
            m.version = json.loads(client.request("GET", f"/api/matches/{m.id}")[1])["version"]
        times.append(secs)
        n += 1
        time.sleep(max(0.0, TAP_EVERY_S - secs))
    client.close()
    return times, failed


#: A tap's wait for its answer before it counts as failed (the board gives up after 8 s).
TAP_TIMEOUT_S = 8.0


def table_figures(measured: tuple[list[float], int]) -> dict[str, Any]:
    times, failed = measured
    ms = sorted(t * 1000 for t in times)
    return {"taps": len(ms), "failed": failed, "p50_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 1)}


def create_through(port: int, body: bytes) -> tuple[int, bytes, float]:
    """``POST /api/tournaments`` through nginx from 127.0.0.70, waiting up to 2 minutes (the code
    before issue 31 took 9 to 27 s): ``(status, body, seconds)``."""
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=_context(), source_address=("127.0.0.70", 0),
                                       timeout=120)
    try:
        t0 = time.perf_counter()
        conn.request("POST", "/api/tournaments", body=body, headers={"Host": HOST, "Content-Type": "application/json"})
        r = conn.getresponse()
        return r.status, r.read(), time.perf_counter() - t0
    finally:
        conn.close()


#: Addresses reading the long match's statistics, chart, CSV files, page and export (the issue: 16).
MATCH_READERS = 8
#: Actions of the long match (the issue measured a 1,200-action match).
LONG_MATCH_ACTIONS = 1200


def import_long_match(port: int) -> str:
    """A :data:`LONG_MATCH_ACTIONS`-action match imported through nginx (corrections +1 and -1 in
    turn: the game goes on); its id."""
    actions = [{"type": "adjust", "side": n % 2, "delta": 1 if n % 4 < 2 else -1} for n in range(LONG_MATCH_ACTIONS)]
    body = json.dumps({"format": "truco-scorer-match/1", "variant": SHORT_MATCH, "options": {}, "mano": 0,
                       "names": ["Nós", "Eles"], "actions": actions}, separators=(",", ":")).encode()
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=_context(), source_address=("127.0.0.71", 0),
                                       timeout=60)
    try:
        conn.request("POST", "/api/matches/import", body=body, headers={"Host": HOST, "Content-Type": "application/json"})
        r = conn.getresponse()
        data = r.read()
    finally:
        conn.close()
    assert r.status == 201, data[:300]
    return json.loads(data)["id"]


def match_paths(match_id: str) -> list[str]:
    """A match's heavy public reads."""
    return [f"/matches/{match_id}/chart.svg", f"/api/matches/{match_id}/stats", f"/matches/{match_id}/stats.csv",
            f"/matches/{match_id}/stats", f"/api/matches/{match_id}/log.csv", f"/api/matches/{match_id}/export"]


def flooded(port: int, matches: list, seconds: float, readers: list[tuple[str, list[str]]]) -> dict[str, Any]:
    """The table's figures while each of ``readers`` (``(address, paths)``, a process each) reads."""
    counts: multiprocessing.Queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_reader, args=(port, address, paths, seconds + 1.0, counts))
             for address, paths in readers]
    for p in procs:
        p.start()
    figures = table_figures(taps(port, matches, seconds))
    statuses: dict[str, int] = {}
    for p in procs:
        for status, n in counts.get(timeout=seconds + 60).items():
            statuses[str(status)] = statuses.get(str(status), 0) + n
        p.join(timeout=30)
    figures.update(reads=sum(statuses.values()), read_statuses=statuses)
    return figures


def through_nginx(say, seconds: float, code: str | None = None) -> dict[str, Any]:
    """Part 2 of the module docstring: creation, then the table quiet and during the flood
    (``code``: another checkout's server, as ``bench/server.py``'s)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import nginx_proxy

    from bench import db

    server_cores, client_cores = server.cores()
    every = server_cores | client_cores
    cluster = db.pg_cluster().Cluster()
    db.pin_cluster(cluster, every)
    srv = proxy = None
    try:
        srv = server.start(every, db=cluster.create_database(), code=code, timeout=60.0, args=(
            "--server", "granian", "--workers", "2", "--threads", "2", "--public-url", f"https://{HOST}",
            "--proxy", "127.0.0.1"))
        proxy = nginx_proxy.Proxy(srv.port)
        port = proxy.https_port
        setup = ProxyClient(port, "127.0.0.70")
        matches = [setup.create_match(SHORT_MATCH) for _ in range(10)]
        body = json.dumps({"name": "Liga", "variant": SHORT_MATCH, "teams": TEAMS, "format": "round_robin"}).encode()
        setup.close()
        status, raw, create_s = create_through(port, body)
        assert status == 201, raw[:300]
        t = json.loads(raw)
        paths = [routes(t)["statistics (JSON)"], routes(t)["summary picture"]]
        long_match = import_long_match(port)
        say("through nginx: quiet")
        quiet = table_figures(taps(port, matches, seconds))
        say("through nginx: heavy-read flood")
        flood = flooded(port, matches, seconds, [(READER, paths)] * FLOODERS)
        say("through nginx: a long match's reads from 8 addresses")
        match_flood = flooded(port, matches, seconds, [(f"127.0.0.{80 + i}", match_paths(long_match))
                                                       for i in range(MATCH_READERS)])
        return {"create_through_nginx_s": round(create_s, 3), "quiet": quiet, "heavy-read flood": flood,
                "p95_ratio": round(flood["p95_ms"] / quiet["p95_ms"], 2), "target": "p95 within 3x quiet",
                "ok": flood["p95_ms"] <= 3 * quiet["p95_ms"], "long-match read flood": match_flood,
                "match_p95_ratio": round(match_flood["p95_ms"] / quiet["p95_ms"], 2),
                "server": "truco serve --server granian --workers 2 --threads 2, PostgreSQL, behind nginx (shipped file)"}
    finally:
        if proxy is not None:
            proxy.destroy()
        if srv is not None:
            srv.stop()
        from scorer.app import store

        store.dispose_all()
        cluster.destroy()


def main(quick: bool, say, reference: str | None = None) -> int:
    """Both parts on this checkout; with ``reference`` (a checkout of another commit, ``git
    archive COMMIT | tar -x -C PATH``), both on its code too, in the same run."""
    from bench import report

    os.sched_setaffinity(0, server.cores()[1])
    seconds = 5.0 if quick else 15.0
    figures: dict[str, Any] = {"in_process": in_process(say)}
    if reference:
        figures["reference"] = {"code": reference, "in_process": in_process_of(reference, say)}
    figures["through_nginx"] = through_nginx(say, seconds)
    if reference:
        figures["reference"]["through_nginx"] = through_nginx(say, seconds, code=reference)
    figures.update(machine=report.machine(), started=time.strftime("%Y-%m-%d %H:%M:%S"),
                   load_average=os.getloadavg())
    RESULTS.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for backend, f in figures["in_process"].items():
        print(f"\n{backend}, in process: 64-team round robin created in {f['create_ms']:.0f} ms")
        for name, r in f["reads"].items():
            after = f", after a result {r['after_a_result_ms']:.1f} ms" if "after_a_result_ms" in r else ""
            print(f"  {name:20} cold {r['cold_ms']:7.1f} ms (CPU {r['cold_cpu_ms']:6.1f})  warm {r['warm_ms']:5.1f} ms "
                  f"(CPU {r['warm_cpu_ms']:4.1f}){after}  ({r['bytes']:.0f} bytes)")
        print(f"  played (2 actions a game): {f['played']}")
    n = figures["through_nginx"]
    print(f"\nthrough nginx: created in {n['create_through_nginx_s']} s; another table's tap p50/p95 quiet "
          f"{n['quiet']['p50_ms']}/{n['quiet']['p95_ms']} ms, during the heavy-read flood {n['heavy-read flood']['p50_ms']}/"
          f"{n['heavy-read flood']['p95_ms']} ms = {n['p95_ratio']}x (target 3x; flood "
          f"{n['heavy-read flood']['reads']} reads {n['heavy-read flood']['read_statuses']})")
    m = n["long-match read flood"]
    print(f"  a {LONG_MATCH_ACTIONS}-action match read from {MATCH_READERS} addresses: p50/p95 {m['p50_ms']}/{m['p95_ms']} ms"
          f" = {n['match_p95_ratio']}x quiet ({m['reads']} reads {m['read_statuses']})")
    if reference:
        r = figures["reference"]
        for backend, f in r["in_process"].items():
            print(f"\nreference ({reference}), {backend}, in process: created in {f['create_ms']:.0f} ms; " + ", ".join(
                f"{name} cold {v['cold_ms']:.0f} ms ({v['bytes']:.0f} bytes)" for name, v in f["reads"].items()))
        n = r["through_nginx"]
        print(f"reference through nginx: created in {n['create_through_nginx_s']} s; tap p95 quiet {n['quiet']['p95_ms']} ms, "
              f"during the flood {n['heavy-read flood']['p95_ms']} ms = {n['p95_ratio']}x; during the long match's reads "
              f"{n['long-match read flood']['p95_ms']} ms = {n['match_p95_ratio']}x")
    print(f"Written {RESULTS}.")
    return 0


if __name__ == "__main__":  # the in-process part alone, its JSON on the last line (in_process_of)
    print(json.dumps(in_process(lambda text: print(text, file=sys.stderr))))
