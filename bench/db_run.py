"""``python -m bench --only db``: SQLite vs PostgreSQL (bench/db.py), printed and written to
``bench/results_db.json``."""

from __future__ import annotations

import json
import os
import sys

from bench import report, server, wrk
from bench.capacity import measure_capacity
from bench.clock import Clock, say
from bench.phases import measure_action_under_polls


def main_db_only(args) -> int:
    """``--only db``: capacity and action p99 on SQLite and PostgreSQL (1 and 2 processes),
    and the statements per request; printed and written to ``bench/results_db.json``."""
    from bench import db

    clock = Clock(min(args.budget, 180.0))
    try:
        wrk.ensure_wrk()
    except wrk.ToolMissing as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    every_core = set(os.sched_getaffinity(0))  # before this process pins itself
    _server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    r = db.run(clock, say, measure_action_under_polls, measure_capacity, Clock, quick=args.quick,
               server_cores=every_core, client_cores=client_cores)
    r["machine"] = report.machine()
    out = report.RESULTS.with_name("results_db.json")
    out.write_text(json.dumps(r, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print()
    print(f"{'configuration':26} {'tables (p99 < 100 ms)':>24} {'action p50 / p99, 400 polling':>32}")
    for name, c in r["configs"].items():
        cap, a = c["capacity"], c["action_under_polls"]
        fails = f" (fails at {cap['failed_at']})" if cap.get("failed_at") else ""
        print(f"{name:26} {str(cap['tables']) + fails:>24} {a['p50_ms']:>14.1f} ms / {a['p99_ms']:.1f} ms")
    for backend, counts in r["statements"].items():
        print(f"statements to {backend}: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items()))
    for backend, c in r["cpu"].items():
        kinds = ", ".join(f"{k.replace('_', ' ')} {v['app_us']:.0f} us" + (f" (+{v['db_us']:.0f} us PostgreSQL)" if v["db_us"] else "")
                          for k, v in c.items() if isinstance(v, dict) and "app_us" in v and k != "per_table_second")
        print(f"CPU on {backend}: {kinds}; a table costs {c['per_table_second']['app_us']:.0f} us/s of app CPU"
              + (f" and {c['per_table_second']['db_us']:.0f} us/s of PostgreSQL CPU" if c['per_table_second']['db_us'] else "")
              + f": {c['tables_per_app_core']} tables per app core"
              + (f", {c['tables_per_db_core']} per PostgreSQL core" if c["tables_per_db_core"] else ""))
    print(f"placement: {r['placement']}")
    for name, c in r["configs"].items():
        last_ok = c["capacity"].get("last_ok_step") or {}
        if last_ok:
            print(f"{name} at {last_ok['tables']} tables: app processes {last_ok.get('app_cpu_cores')} cores "
                  f"(per process {last_ok.get('per_process_cpu_cores')}, connections {last_ok.get('per_process_connections')}), "
                  f"PostgreSQL {last_ok.get('db_cpu_cores')} cores, load generator {last_ok['client_cpu_share']} core, "
                  f"machine busy {last_ok.get('machine_busy_cores')} cores")
    if r.get("on_paper"):
        p = r["on_paper"]
        print(f"on paper (CPU through HTTP): a table costs {p['app_cpu_ms_per_table_second']} ms/s of app CPU and "
              f"{p['db_cpu_ms_per_table_second']} ms/s of PostgreSQL CPU: {p['tables_per_app_process_at_full_core']} "
              f"tables per app process at a full core, {p['tables_per_postgresql_core']} per PostgreSQL core "
              f"({p['app_processes_per_postgresql_core']} app processes per PostgreSQL core); PostgreSQL's default "
              f"100 connections at {p['processes_at_default_max_connections']} processes")
    print(f"targets: {r['targets']}")
    print(f"Total {clock.elapsed():.1f} s. Written {out}.")
    return 0
