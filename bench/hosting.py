"""Issue 23's figures: ``python -m bench --only phones`` and ``python -m bench --only hosting``.

``phones`` (bench/phones.py): an unchanged poll's cost at 10 / 500 / 2,000 connected
phones, waitress beside gunicorn and granian.

``hosting``: tables per app core at p99 < 100 ms (the capacity search of
``bench/capacity.py`` with its table model) for the laptop command (``truco serve``:
waitress, SQLite, one process) and the hosted recipe's server (``truco serve --server
granian``, one worker, on PostgreSQL, with its poll shortcut), with gunicorn (the recipe's
server before) and waitress on PostgreSQL (the hosted server before issue 23) beside them; with
``--reference PATH``, :data:`COMPARED` instead: the laptop's and the hosted server's code of
another checkout beside this one's; placement as in ``--only db``: the server side (app process and
PostgreSQL) on every core, the load generators on the client core. One app process runs
its Python under one lock (the GIL), so one process is one app core at most; each step
records what it used. Then, on the hosted server with ``--public-url`` (so the rate limits
count loopback clients too), another table's action p95 (a client on 127.0.0.2 tapping
its own match, each tap undone, untimed) alone, during a flood on one match (64
connections from 127.0.0.1 posting taps at a stale version to one match, as fast as the
server answers) and during a flood from one address (64 connections from 127.0.0.1
posting taps with a wrong key to 100 other matches, and creating matches).

Both write their part of ``bench/results_hosting.json`` and print it.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

from bench import server
from bench.client import Client
from bench.states import LONG_MATCH, VIRA_MATCH, first_call

RESULTS = Path(__file__).with_name("results_hosting.json")
#: name -> (database: None for SQLite, "pg"; truco serve's options; code: None for this checkout, else
#: ``"reference"``, the ``--reference`` checkout).
CONFIGS = {
    "laptop: waitress, SQLite, 1 process": (None, (), None),
    "before: waitress, PostgreSQL, 1 process": ("pg", (), None),
    "gunicorn, PostgreSQL, 1 worker (poll shortcut on)": ("pg", ("--server", "gunicorn"), None),
    "granian, PostgreSQL, 1 worker, 8 threads (poll shortcut on)": ("pg", ("--server", "granian"), None),
    "hosted: granian, PostgreSQL, 1 worker, 2 threads (poll shortcut on)": ("pg", ("--server", "granian", "--threads", "2"), None),
}
#: With ``--reference``: this checkout's laptop and hosted servers each beside the reference's, alternately.
COMPARED = {
    "laptop, reference": (None, (), "reference"),
    "laptop, this": (None, (), None),
    "hosted, reference (gunicorn, shortcut on)": ("pg", ("--server", "gunicorn", "--poll-shortcut"), "reference"),
    "gunicorn, this (shortcut on)": ("pg", ("--server", "gunicorn"), None),
    "hosted, this (granian, shortcut on)": ("pg", ("--server", "granian"), None),
}
HOSTED = ("--server", "granian", "--threads", "2")  # the recipe's (docs/hosting.md)
#: Tables (4 phones each, so 1,600 open connections) of the fixed load whose CPU is measured.
FIXED_TABLES = 400
#: Requests a table of the model sends a second: 4 phones polling every 2 s, a tap every 20 s.
REQUESTS_PER_TABLE_SECOND = 4 / 2.0 + 1 / 20.0
FLOOD_CONNECTIONS = 64


def save(part: str, figures: dict[str, Any]) -> None:
    """Write ``figures`` as ``part`` of :data:`RESULTS`, keeping the other parts."""
    try:
        data = json.loads(RESULTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    from bench import report

    data[part] = {**figures, "machine": report.machine(), "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    RESULTS.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(only: str, quick: bool, clock, say, measure_capacity, run_loadgen, reference: str | None = None) -> int:
    from bench import wrk

    try:
        wrk.ensure_wrk()
    except wrk.ToolMissing as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    every_core = set(os.sched_getaffinity(0))
    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    if only == "phones":
        from bench import phones

        r = phones.run(say, clock, server_cores, client_cores, rounds=2 if quick else 3, seconds=2.0 if quick else 3.0)
        save("phones", r)
        print_phones(r)
    else:
        r = {"capacity": capacity(clock, say, measure_capacity, run_loadgen, every_core, client_cores, quick,
                                  reference)}
        if reference:
            r["reference"] = reference_commit(reference)
        save("hosting", r)  # kept should the floods fail
        r["floods"] = floods(say, clock, every_core, client_cores, seconds=3.0 if quick else 5.0)
        save("hosting", r)
        print_hosting(r)
    print(f"Total {clock.elapsed():.1f} s. Written {RESULTS}.")
    return 0


def print_phones(r: dict[str, Any]) -> None:
    print(f"\nunchanged poll, CPU per poll at {r['poll_rate']} polls/s (median of {r['rounds']}; ratio vs 10 phones); "
          f"load average {', '.join(f'{x:.1f}' for x in r['load_average'])}")
    for name, per in r["servers"].items():
        print(f"{name:9} " + "   ".join(
            f"{n} phones: {per[str(n)]['cpu_ms_per_poll']:.3f} ms ({per[str(n)]['ratio_vs_10']:.2f}x), "
            f"p50 {per[str(n)]['p50_ms']} ms" for n in r["levels"]))


def print_hosting(r: dict[str, Any]) -> None:
    print()
    for name, c in r["capacity"].items():
        f = c["fixed_load"]
        print(f"{name:42} at {f['tables']} tables: {f['app_cpu_ms_per_request']} ms of app CPU per request, a table "
              f"{f['app_cpu_ms_per_table_second']} ms/s (PostgreSQL {f['db_cpu_ms_per_table_second']} ms/s): "
              f"{f['tables_per_app_core_at_100_percent']} tables per app core at 100 %; p99 {f['p99_ms']:.0f} ms, "
              f"load average {f['load_average']:.1f}")
    for name, c in r["capacity"].items():
        cap, step = c["capacity"], c["capacity"].get("last_ok_step") or {}
        fails = f" (fails at {cap['failed_at']})" if cap.get("failed_at") else ""
        print(f"{name:42} {cap['tables']}{fails} tables; at that step app {step.get('app_cpu_cores')} cores, "
              f"PostgreSQL {step.get('db_cpu_cores')}, machine busy {step.get('machine_busy_cores')}; a table costs "
              f"{c.get('app_cpu_ms_per_table_second')} ms/s of app CPU and {c.get('db_cpu_ms_per_table_second')} ms/s "
              f"of PostgreSQL CPU: {c.get('tables_per_app_core_at_100_percent')} tables per app core at 100 %")
    f = r["floods"]
    print("another table's action (p50 / p95 ms): " + ", ".join(
        f"{k.replace('_', ' ')} {v['p50_ms']} / {v['p95_ms']} ({v.get('flood_rps', 0)} flood req/s, "
        f"statuses {v.get('flood_statuses', {})})" for k, v in f["cases"].items()))
    print(f"load average: {f['load_average']}")


# ---------------------------------------------------------------------------- capacity


def reference_commit(path: str) -> str:
    """The commit checked out at ``path`` (what ``--reference`` ran)."""
    out = subprocess.run(["git", "-C", path, "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    return out.stdout.strip() or path


def capacity(clock, say, measure_capacity, run_loadgen, server_cores: set[int], client_cores: set[int], quick: bool,
             reference: str | None = None):
    """For each of :data:`CONFIGS` (:data:`COMPARED` with a ``reference`` checkout): the CPU
    a table costs at a fixed load of :data:`FIXED_TABLES` tables (:func:`cpu_at`), then the
    capacity search (time shared evenly)."""
    configs = COMPARED if reference else CONFIGS
    from bench import db

    pg = db.pg_cluster()
    if not pg.available():
        raise RuntimeError(f"PostgreSQL binaries missing in {pg.BIN} (apt-get install -y postgresql)")
    cluster = pg.Cluster()
    db.pin_cluster(cluster, server_cores)
    out: dict[str, Any] = {}
    try:
        for n, (name, (backend, args, code)) in enumerate(configs.items()):
            url = cluster.create_database() if backend == "pg" else None
            srv = server.start(server_cores, db=url, args=args, code=reference if code else None)
            client = Client(srv.base)
            try:
                pool = [{"id": m.id, "key": m.key, "version": m.version, "taps": 0}
                        for m in (client.create_match() for _ in range(FIXED_TABLES))]
                say(clock, f"{name}: CPU per table at {FIXED_TABLES} tables, load average {os.getloadavg()[0]:.1f}")
                fixed = cpu_at(srv, cluster if backend == "pg" else None, client_cores, pool, run_loadgen)
                share = (clock.left() - 40) / (len(configs) - n)  # 40 s kept for the floods
                say(clock, f"{name}: capacity search ({share:.0f} s), load average {os.getloadavg()[0]:.1f}")
                cap = measure_capacity(srv, client_cores, client, pool, type(clock)(share), reserve=1.0,
                                       window_s=1.5 if quick else 2.0, windows=3,
                                       probe=db.server_probe(srv, cluster if backend == "pg" else None, 2.0))
                ok = [s for s in cap["steps"] if s["ok"]]
                cap["last_ok_step"] = max(ok, key=lambda s: s["tables"]) if ok else None
                out[name] = {"capacity": cap, "load_average": os.getloadavg()[0], "fixed_load": fixed,
                             **cpu_per_table(cap["steps"])}
            finally:
                client.close()
                srv.stop()
    finally:
        from scorer.app import store

        store.dispose_all()
        cluster.destroy()
    return out


def cpu_at(srv, cluster, client_cores: set[int], pool: list[dict[str, Any]], run_loadgen) -> dict[str, Any]:
    """The table model at ``len(pool)`` tables for 8 s: the app processes' and PostgreSQL's
    CPU per answered request (their own CPU time, from /proc), times the model's requests
    per table-second; so what a table costs, and the tables one app core holds at 100 %,
    measured the same way for every server even where the machine is too busy for the
    capacity search. Latency is reported too (on a busy machine, the machine's)."""
    from bench import db

    pids = [srv.pid()] + db.children(srv.pid())
    cpu0 = sum(server.cpu_seconds(p) for p in pids)
    db0 = db.cluster_cpu(cluster) if cluster else 0.0
    r = run_loadgen(srv, client_cores, pool, 2.0, 3)
    cpu = sum(server.cpu_seconds(p) for p in pids) - cpu0
    dbc = (db.cluster_cpu(cluster) - db0) if cluster else 0.0
    for t in pool:
        t["version"], t["taps"] = r["versions"][t["id"]], r["taps"][t["id"]]
    answered = sum(n for code, n in r["statuses"].items() if int(code) > 0)
    app_ms = cpu / max(1, answered) * 1000 * REQUESTS_PER_TABLE_SECOND
    return {"tables": len(pool), "answered_requests": answered, "statuses": r["statuses"],
            "app_cpu_ms_per_request": round(cpu / max(1, answered) * 1000, 3),
            "app_cpu_ms_per_table_second": round(app_ms, 3),
            "db_cpu_ms_per_table_second": round(dbc / max(1, answered) * 1000 * REQUESTS_PER_TABLE_SECOND, 3),
            "tables_per_app_core_at_100_percent": int(1000 / app_ms) if app_ms else None,
            "p99_ms": statistics.median(w["p99_ms"] for w in r["windows"] if w["p99_ms"] is not None),
            "load_average": os.getloadavg()[0]}


def cpu_per_table(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """CPU per table-second of the model, app and PostgreSQL (ms of CPU per second of one
    table), at the largest step that answered 99 % of its requests (a busier process serves
    more requests per turn of its loop, so a light step costs more per table): the server's
    own CPU time, so it holds on a busy machine where the capacity search itself cannot;
    and the tables one app core would hold at 100 % (where one process's GIL stops it)."""
    used = [s for s in steps if s["answered"] >= 0.99 and s.get("app_cpu_cores")]
    if not used:
        return {}
    step = max(used, key=lambda s: s["tables"])
    app = step["app_cpu_cores"] / step["tables"] * 1000
    dbc = step["db_cpu_cores"] / step["tables"] * 1000
    return {"app_cpu_ms_per_table_second": round(app, 3), "db_cpu_ms_per_table_second": round(dbc, 3),
            "tables_per_app_core_at_100_percent": int(1000 / app), "cpu_step_tables": step["tables"]}


# ---------------------------------------------------------------------------- floods


async def flood(base: str, requests: list[list], seconds: float, connections: int) -> dict[str, Any]:
    """``connections`` keep-alive connections sending ``requests`` (``[method, path, body,
    headers]``) round-robin, each as soon as the last one is answered, for ``seconds``."""
    from bench.loadgen import Conn

    u = urllib.parse.urlsplit(base)
    statuses: dict[str, int] = {}
    end = time.monotonic() + seconds

    async def one(i: int) -> None:
        conn = Conn(u.hostname, u.port)
        k = i
        while time.monotonic() < end:
            method, path, body, headers = requests[k % len(requests)]
            k += connections
            try:
                status, _ = await conn.request(method, path, body.encode(), headers)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                status = 0
            statuses[str(status)] = statuses.get(str(status), 0) + 1
        conn.close()

    await asyncio.gather(*(one(i) for i in range(connections)))
    return {"statuses": statuses, "requests": sum(statuses.values()), "rps": round(sum(statuses.values()) / seconds)}


def flood_requests(kind: str, target, others) -> list[list]:
    """What a flooder sends: ``one_match``: taps at a stale version on ``target`` (409 with
    the board, or 429 once limited); ``one_address``: taps with a wrong key on ``others``
    and match creations."""
    form = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
    tap = urllib.parse.urlencode({"version": "0", "action": json.dumps({"type": "hand_winner", "side": 0})})
    if kind == "one_match":
        return [["POST", target.action_path(), tap, form]]
    out = [["POST", f"/m/{m.id}/{'x' * 43}/actions", tap, form] for m in others]
    create = json.dumps({"variant": VIRA_MATCH})
    return out + [["POST", "/api/matches", create, {"Content-Type": "application/json"}]] * (len(out) // 10)


def measured_taps(client: Client, matches: list, seconds: float) -> list[float]:
    """Another table's taps from 127.0.0.2 for ``seconds``, on ``matches`` in turn (so
    each stays within a table's ``match_action`` budget): ms of each (undone untimed)."""
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        m = matches[len(out) % len(matches)]
        secs, _ = client.htmx_act(m, {"type": "call", "side": 0, "call": first_call(LONG_MATCH)})
        out.append(secs * 1000)
        client.form_undo(m)
        time.sleep(0.05)
    return out


def floods(say, clock, server_cores: set[int], client_cores: set[int], seconds: float) -> dict[str, Any]:
    """Another table's action p50/p95 alone and during each flood (see the module docstring)."""
    from bench import db

    pg = db.pg_cluster()
    cluster = pg.Cluster()
    db.pin_cluster(cluster, server_cores)
    srv = server.start(server_cores, db=cluster.create_database(), args=(*HOSTED, "--public-url", "http://127.0.0.1"))
    cases: dict[str, Any] = {}
    try:
        matches = []
        for i in range(5):  # 20 matches from each of 5 addresses: under the creation limit
            client = Client(srv.base, source=f"127.0.1.{i + 1}")
            matches += [client.create_match() for _ in range(21 if i == 0 else 20)]
            client.close()
        own = []
        for i in range(3):  # 60 matches (each under its 60 actions a minute however fast the server), made
            maker = Client(srv.base, source=f"127.0.2.{i + 1}")  # from 3 addresses: under the creation limit
            own += [maker.create_match() for _ in range(20)]
            maker.close()
        table = Client(srv.base, source="127.0.0.2")
        for kind in ("alone", "one_match", "one_address"):
            say(clock, f"floods: {kind}")
            proc = None
            if kind != "alone":
                cfg = {"base": srv.base, "requests": flood_requests(kind, matches[0], matches[1:]),
                       "seconds": seconds + 1.0, "connections": FLOOD_CONNECTIONS}
                proc = subprocess.Popen([sys.executable, "-m", "bench.hosting", json.dumps(cfg)],
                                        stdout=subprocess.PIPE, text=True,
                                        preexec_fn=lambda: (os.sched_setaffinity(0, client_cores), os.nice(19)))
                time.sleep(0.5)
            lat = measured_taps(table, own, seconds)
            case = {"p50_ms": round(statistics.median(lat), 1),
                    "p95_ms": round(sorted(lat)[int(0.95 * (len(lat) - 1))], 1), "taps": len(lat)}
            if proc is not None:
                r = json.loads(proc.communicate(timeout=seconds + 60)[0])
                case.update(flood_rps=r["rps"], flood_statuses=r["statuses"])
            cases[kind] = case
    finally:
        srv.stop()
        from scorer.app import store

        store.dispose_all()
        cluster.destroy()
    return {"cases": cases, "server": "truco serve --server granian --threads 2 (1 worker) on PostgreSQL, "
                                      "--public-url http://127.0.0.1", "load_average": os.getloadavg()[0]}


if __name__ == "__main__":  # the flooder, in its own process: python -m bench.hosting CONFIG_JSON
    c = json.loads(sys.argv[1])
    print(json.dumps(asyncio.run(flood(c["base"], c["requests"], c["seconds"], c["connections"]))))
