"""``python -m bench --only db``: the database figures of issue 12, in one run.

Three configurations, one after the other, each on a fresh database: SQLite with one
``truco serve`` process, PostgreSQL with one process, PostgreSQL with two
(``--workers 2``). For each: the action p50/p99 while 400 phones poll, then the
capacity search (the bench's table model, p99 < 100 ms).

Placement, the same for the three: the server side (the app processes and PostgreSQL,
postmaster and backends) may run on every core, as on a real host, where the kernel
spreads them; the load generators and this process stay on the client core, as in the
other figures. One CPython process runs its Python under one lock (the GIL), so one app
process uses about one core at most; a second process can use another. Each capacity
step records what the server side used: CPU cores of each app process and of
PostgreSQL, the phones' connections each app process holds, the load generator's share
and the machine's whole busy time (whatever else the shared machine ran shows there).

Then the statements each request sends to the database (counted in-process with
``scorer.app.store.STATEMENT_LISTENERS``, on both backends): an unchanged poll, a poll
after another server's action, an action. PostgreSQL is a throwaway cluster made with
Debian's ``initdb``/``pg_ctl`` (``tests/pg_cluster.py``), as the tests do.
"""

from __future__ import annotations

import importlib.util
import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench import server
from bench.client import Client
from bench.states import VIRA_MATCH

ROOT = Path(__file__).resolve().parent.parent


def pg_cluster():
    """tests/pg_cluster.py, loaded by path (the tests are not a package)."""
    spec = importlib.util.spec_from_file_location("pg_cluster", ROOT / "tests" / "pg_cluster.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pin_cluster(cluster, cores: set[int]) -> None:
    """Pin the postmaster (and so every backend it forks from now on) to ``cores``."""
    pid = int((cluster.data / "postmaster.pid").read_text().split()[0])
    for task in os.listdir(f"/proc/{pid}/task"):
        os.sched_setaffinity(int(task), cores)
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            os.sched_setaffinity(int(child), cores)
        except OSError:
            pass


def statements(url: str) -> dict[str, int]:
    """Statements sent to the database per request kind (BEGIN/COMMIT included)."""
    from scorer.app import store
    from scorer.web import create_app

    app = create_app({"TESTING": True, "DATABASE": url})
    client = app.test_client()
    seen: list[str] = []

    def count(_db, statement):
        seen.append(statement)

    store.STATEMENT_LISTENERS.append(count)
    hx = {"HX-Request": "true"}
    try:
        path = client.post("/matches", data={"variant": VIRA_MATCH}).headers["Location"]
        match_id = path.split("/")[2]
        adjust = json.dumps({"type": "adjust", "side": 0, "delta": 1})
        client.post(path + "/actions", data={"action": adjust, "version": "0"}, headers=hx)
        out = {}
        seen.clear()
        assert client.get(path + "/board?version=1&rematch=0", headers=hx).status_code == 204
        out["unchanged_poll"] = len(seen)
        other = store.connect(url)
        store.append_action(other, match_id, 1, {"type": "adjust", "side": 1, "delta": 1}, score=(1, 1), winner=None)
        other.close()
        seen.clear()
        assert client.get(path + "/board?version=1&rematch=0", headers=hx).status_code == 200
        out["poll_after_other_servers_action"] = len(seen)
        seen.clear()
        assert client.post(path + "/actions", data={"action": adjust, "version": "2"}, headers=hx).status_code == 200
        out["action"] = len(seen)
        return out
    finally:
        store.STATEMENT_LISTENERS.remove(count)


def cluster_cpu(cluster) -> float:
    """CPU seconds used so far by the cluster's postmaster and every backend it forked."""
    pid = int((cluster.data / "postmaster.pid").read_text().split()[0])
    pids = [pid] + [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return sum(server.cpu_seconds(p) for p in pids)


#: The bench's table model per second: 4 phones polling every 2 s, one tap every 20 s,
#: after which the other 3 phones fetch the new board (a changed poll) once.
MODEL = {"unchanged_poll": 2.0 - 3 * 0.05, "changed_poll": 3 * 0.05, "action": 0.05}


def cpu_costs(url: str | None, cluster=None, n: int = 300) -> dict[str, Any]:
    """CPU per request kind (``time.process_time`` in this process: the app's work alone,
    whatever else the machine runs) and, on PostgreSQL, the cluster's CPU for the same
    requests; then CPU per table-second under :data:`MODEL` and the tables one core
    would hold at 100 %."""
    from scorer.web import create_app

    path_db = url or str(Path(tempfile.mkdtemp(prefix="truco-bench-cpu-")) / "cpu.sqlite3")
    client = create_app({"TESTING": False, "DATABASE": path_db}).test_client()
    hx = {"HX-Request": "true"}
    adjust = [json.dumps({"type": "adjust", "side": 0, "delta": d}) for d in (1, -1)]
    path = client.post("/matches", data={"variant": VIRA_MATCH}).headers["Location"]
    version = 0

    def act():
        nonlocal version
        r = client.post(path + "/actions", data={"action": adjust[version % 2], "version": str(version)}, headers=hx)
        assert r.status_code == 200, r.status_code
        version += 1

    for _ in range(20):
        act()
    kinds = {
        "unchanged_poll": lambda: client.get(f"{path}/board?version={version}&rematch=0", headers=hx),
        "changed_poll": lambda: client.get(f"{path}/board?version={version - 1}&rematch=0", headers=hx),
        "action": act,
    }
    out: dict[str, Any] = {}
    for kind, call in kinds.items():
        db0 = cluster_cpu(cluster) if cluster else 0.0
        t0 = time.process_time()
        for _ in range(n):
            call()
        app_us = (time.process_time() - t0) / n * 1e6
        db_us = (cluster_cpu(cluster) - db0) / n * 1e6 if cluster else 0.0
        out[kind] = {"app_us": round(app_us, 1), "db_us": round(db_us, 1)}
    app = sum(MODEL[k] * out[k]["app_us"] for k in MODEL)
    dbc = sum(MODEL[k] * out[k]["db_us"] for k in MODEL)
    out["per_table_second"] = {"app_us": round(app, 1), "db_us": round(dbc, 1)}
    out["tables_per_app_core"] = int(1e6 / app) if app else None
    out["tables_per_db_core"] = int(1e6 / dbc) if dbc else None
    return out


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (``truco serve --workers``'s workers)."""
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def app_pids(srv) -> list[int]:
    """The processes that serve requests: the workers, or the one ``truco serve``."""
    return children(srv.pid()) or [srv.pid()]


def machine_busy_s() -> float:
    """CPU seconds the whole machine has been busy (every core, every process), from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def connections_per_process(port: int, pids: list[int]) -> list[int]:
    """Established connections to ``port`` held by each of ``pids`` (from /proc)."""
    hex_port = f"{port:04X}"
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[1].endswith(":" + hex_port) and f[3] == "01":
                inodes.add(f[9])
    out = []
    for pid in pids:
        n = 0
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    n += 1
        except OSError:
            pass
        out.append(n)
    return out


def server_probe(srv, cluster, warmup_s: float):
    """A ``probe`` for ``measure_capacity``: CPU cores used during the step by each app
    process, by PostgreSQL and by the whole machine, and (sampled once, after the phones
    have connected) the connections each app process holds."""

    def start():
        pids = app_pids(srv)
        cpu0 = [server.cpu_seconds(p) for p in pids]
        db0 = cluster_cpu(cluster) if cluster else 0.0
        busy0, t0 = machine_busy_s(), time.monotonic()
        conns: list[list[int]] = []
        done = threading.Event()

        def sample() -> None:
            if not done.wait(warmup_s + 1.0):
                conns.append(connections_per_process(srv.port, pids))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()

        def stop() -> dict[str, Any]:
            wall = time.monotonic() - t0
            done.set()
            sampler.join()
            per = [round((server.cpu_seconds(p) - c) / wall, 2) for p, c in zip(pids, cpu0)]
            return {
                "app_cpu_cores": round(sum(per), 2), "per_process_cpu_cores": per,
                "per_process_connections": conns[0] if conns else None,
                "db_cpu_cores": round((cluster_cpu(cluster) - db0) / wall, 2) if cluster else 0.0,
                "machine_busy_cores": round((machine_busy_s() - busy0) / wall, 2),
            }

        return stop

    return start


def capacity(srv, client, client_cores: set[int], pool: list[dict[str, Any]], measure_capacity, clock, quick: bool,
             probe) -> dict[str, Any]:
    """One configuration's capacity search (``measure_capacity`` within ``clock``, each step
    probed by ``probe``), with its last step under the target (``last_ok_step``)."""
    cap = measure_capacity(srv, client_cores, client, pool, clock, reserve=1.0,
                           window_s=1.5 if quick else 2.0, windows=3, probe=probe)
    ok = [s for s in cap["steps"] if s["ok"]]
    cap["last_ok_step"] = max(ok, key=lambda s: s["tables"]) if ok else None
    return cap


def run(clock, say, measure_action_under_polls, measure_capacity, Clock, quick: bool = False,
        server_cores: set[int] | None = None, client_cores: set[int] | None = None) -> dict[str, Any]:
    """Every configuration's figures (see the module docstring). ``server_cores``: where the
    app processes and PostgreSQL may run (default every core); ``client_cores``: the load
    generators' (default :func:`bench.server.cores`'s)."""
    server_cores = set(server_cores or os.sched_getaffinity(0))
    client_cores = set(client_cores or server.cores()[1])
    pg = pg_cluster()
    if not pg.available():
        raise RuntimeError(f"PostgreSQL binaries missing in {pg.BIN} (apt-get install -y postgresql)")
    cluster = pg.Cluster()
    pin_cluster(cluster, server_cores)  # not the bench's own core, which the cluster inherited
    placement = (f"server side (truco serve's app processes, waitress 8 threads each, and PostgreSQL) on "
                 f"cores {sorted(server_cores)}, unpinned among them; load generators (wrk -t1, the asyncio "
                 f"phone simulator) and the bench on core(s) {sorted(client_cores)}; same for all three")
    say(clock, placement)
    results: dict[str, Any] = {"placement": placement, "configs": {}}
    warmup_s = 2.0
    try:
        tmp = Path(tempfile.mkdtemp(prefix="truco-bench-db-"))
        results["statements"] = {"sqlite": statements(str(tmp / "count.sqlite3")),
                                 "postgresql": statements(cluster.create_database())}
        say(clock, "CPU per request, in process (SQLite, PostgreSQL)")
        results["cpu"] = {"sqlite": cpu_costs(None), "postgresql": cpu_costs(cluster.create_database(), cluster)}
        configs = [("sqlite, 1 process", None, ()), ("postgresql, 1 process", "pg", ()),
                   ("postgresql, 2 processes", "pg", ("--workers", "2"))]
        for n, (name, db, args) in enumerate(configs):
            url = cluster.create_database() if db == "pg" else None
            srv = server.start(server_cores, db=url, args=args)
            client = Client(srv.base)
            try:
                say(clock, f"{name}: 100 tables, action under 400 polling phones")
                tables = [client.create_match() for _ in range(100)]
                r: dict[str, Any] = {"action_under_polls": measure_action_under_polls(
                    srv, client_cores, client, tables, 1, 2.0 if quick else 3.0)}
                share = clock.left() / (len(configs) - n)
                say(clock, f"{name}: capacity search ({share:.0f} s)")
                pool = [{"id": t.id, "key": t.key, "version": t.version, "taps": 0} for t in tables]
                r["capacity"] = capacity(srv, client, client_cores, pool, measure_capacity, Clock(share), quick,
                                         server_probe(srv, cluster if db == "pg" else None, warmup_s))
                results["configs"][name] = r
            finally:
                client.close()
                srv.stop()
    finally:
        from scorer.app import store

        store.dispose_all()
        cluster.destroy()
    results["targets"] = targets(results)
    results["on_paper"] = on_paper(results)
    results["started"] = time.strftime("%Y-%m-%d %H:%M:%S")
    return results


def targets(results: dict[str, Any]) -> dict[str, Any]:
    """The issue's targets against the configurations' capacities: PostgreSQL with one process
    at least 0.7x SQLite, and two processes more than one."""
    caps = {k: v["capacity"]["tables"] for k, v in results["configs"].items()}
    sqlite_tables = caps.get("sqlite, 1 process") or 0
    pg1, pg2 = caps.get("postgresql, 1 process") or 0, caps.get("postgresql, 2 processes") or 0
    return {
        "pg1_vs_sqlite": round(pg1 / sqlite_tables, 2) if sqlite_tables else None,
        "pg1_at_least_0.7x_sqlite": bool(sqlite_tables) and pg1 >= 0.7 * sqlite_tables,
        "pg2_vs_pg1": round(pg2 / pg1, 2) if pg1 else None,
        "pg2_more_than_pg1": pg2 > pg1,
    }


#: Each app process keeps up to this many pooled PostgreSQL connections busy (waitress's 8
#: threads, plus the daily prune); PostgreSQL's default ``max_connections`` is 100.
CONNECTIONS_PER_PROCESS, PG_MAX_CONNECTIONS = 9, 100


def on_paper(results: dict[str, Any]) -> dict[str, Any]:
    """What N app servers on one PostgreSQL would hold, from the CPU this run measured per
    table through HTTP (app processes and PostgreSQL, over every PostgreSQL capacity step
    at each PostgreSQL configuration's capacity, the largest step that met p99 < 100 ms;
    their mean), at 100 % of a core per app process: where one process's GIL stops it.
    At lighter steps a request costs more CPU (a busy process shares each turn of its
    loop among more requests; on a shared machine, other work also leaves its caches
    cold). The in-process figures of ``cpu`` leave out the HTTP server; these include it."""
    app, dbc = [], []
    for name, c in results["configs"].items():
        step = c["capacity"].get("last_ok_step")
        if name.startswith("postgresql") and step and step.get("app_cpu_cores"):
            app.append(step["app_cpu_cores"] / step["tables"] * 1000)
            dbc.append(step["db_cpu_cores"] / step["tables"] * 1000)
    if not app:
        return {}
    app_ms, db_ms = sum(app) / len(app), sum(dbc) / len(dbc)
    per_process = int(1000 / app_ms)
    pg_core = int(1000 / db_ms) if db_ms else None
    return {
        "app_cpu_ms_per_table_second": round(app_ms, 2), "db_cpu_ms_per_table_second": round(db_ms, 3),
        "steps_used": len(app),
        "tables_per_app_process_at_full_core": per_process,
        "tables_per_postgresql_core": pg_core,
        "app_processes_per_postgresql_core": round(pg_core / per_process, 1) if pg_core else None,
        "processes_at_default_max_connections": PG_MAX_CONNECTIONS // CONNECTIONS_PER_PROCESS,
    }
