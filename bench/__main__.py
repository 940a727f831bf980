"""``python -m bench``: measure truco-scorer against its targets in under three minutes.

Runs, in this order: the engine timings; then, against one ``truco serve`` started here
on 127.0.0.1 with a fresh database: the static-file limit, the unchanged-scoreboard poll
at 1/50/400 connections, action latency (while 400 phones poll; at action 10 and 1,000),
Chromium page weight and tap to screen, and last the capacity search, which gets the
time that is left. Prints a table and writes ``bench/results.json``.

Options: ``--quick`` (shorter runs, for trying the bench out), ``--budget SECONDS``
(default 170), ``--only browser`` (only the Chromium figures: page weight, tap to screen,
tap to screen beside the no-network floor page with and without 150 ms of latency, board
heights per variant and state; prints them and writes ``bench/results-browser.json``,
leaving ``bench/results.json`` as it is), ``--only db`` (SQLite vs PostgreSQL, one and two
processes, bench/db.py), ``--only tournament`` (a 64-team knockout played through the API,
bench/tournament.py; printed only), ``--only phones`` (what an unchanged poll costs with 10,
500 and 2,000 phones connected, waitress beside gunicorn, bench/phones.py), ``--only hosting``
(tables per app core for the laptop command and the hosted recipe, and another table's
action p95 during a flood, bench/hosting.py); these two write their part of
``bench/results_hosting.json``; ``--only stats`` (the statistics of a 31-match night,
bench/stats.py; printed only); ``--only taps`` (two throttled phones: phone-to-phone delay and
taps per silent loss, bench/taps.py, ``bench/results_taps.json``); ``--only heavy`` (a 64-team round
robin's creation and heavy reads cold and warm, and another table's tap p95 during a heavy-read
flood through nginx beside its quiet p95, bench/heavy_reads.py, ``bench/results_heavy.json``); ``--only club`` (a club of 200
players and 2,000 games: the season table and a player's page from a fresh server, bench/club.py;
printed only); ``--only push`` (phone-to-phone delay with push beside the 1 s poll, an idle board's
bytes, streams held by nginx, bench/push.py, ``bench/results_push.json``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench import browser, engine, report, server, wrk
from bench.states import LONG_MATCH, first_call
from bench.client import Client, MatchRef, drive_to

POLL_LEVELS = (1, 50, 400)
STATIC_PATH = "/static/icons/icon.svg"
TEMPLATE_POLL_S = 1.0  # hx-trigger="every 1s" in templates/partials/_scoreboard.html


class Clock:
    """The run's time budget."""

    def __init__(self, budget: float) -> None:
        self.t0, self.budget = time.monotonic(), budget

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def left(self) -> float:
        return self.budget - self.elapsed()


def median(xs: list[float]) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))]


def say(clock: Clock, text: str) -> None:
    print(f"[{clock.elapsed():5.1f}s] {text}", flush=True)


# ---------------------------------------------------------------------------- phases


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


# ---------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="shorter runs (numbers less stable)")
    ap.add_argument("--budget", type=float, default=170.0, help="seconds for the whole run (max 180)")
    ap.add_argument("--only", choices=["browser", "db", "tournament", "phones", "hosting", "stats", "offline", "taps",
                                       "push", "heavy", "club"],
                    help="only these figures (db: SQLite vs PostgreSQL, 1 and 2 processes, written to "
                         "bench/results_db.json; tournament: a 64-team knockout); results.json is not written")
    ap.add_argument("--reference", metavar="PATH",
                    help="with --only hosting or heavy: also run the laptop's and the hosted server's code from this "
                         "checkout of another commit (git worktree add --detach PATH COMMIT), alternately with "
                         "this one's, so the two compare on the same machine in the same minutes")
    args = ap.parse_args(argv)
    if args.only == "browser":
        return main_browser_only(args)
    if args.only == "db":
        return main_db_only(args)
    if args.only in ("phones", "hosting"):  # issue 23: bench/phones.py, bench/hosting.py
        from bench import hosting

        budget = 120.0 if args.only == "phones" else (540.0 if args.reference else 300.0)  # about 2, 5 or 9 minutes
        return hosting.main(args.only, args.quick, Clock(budget), say, measure_capacity, run_loadgen,
                            reference=args.reference)
    if args.only == "taps":  # issue 30: bench/taps.py
        from bench import taps

        clock = Clock(3600.0)
        return taps.main(args.quick, lambda text: say(clock, text))
    if args.only == "push":  # issue 34: bench/push.py
        from bench import push

        clock = Clock(1800.0)
        return push.main(args.quick, lambda text: say(clock, text))
    if args.only == "offline":  # issue 24: bench/offline.py
        from bench import offline

        return offline.main()
    if args.only == "club":  # issue 32: bench/club.py
        from bench import club

        return club.main()
    if args.only == "stats":  # issue 22: bench/stats.py
        from bench import stats

        return stats.main()
    if args.only == "heavy":  # issue 31, item 1: bench/heavy_reads.py
        from bench import heavy_reads

        clock = Clock(3600.0)
        return heavy_reads.main(args.quick, lambda text: say(clock, text), reference=args.reference)
    if args.only == "tournament":  # issue 11: bench/tournament.py
        from bench import tournament

        return tournament.main()
    clock = Clock(min(args.budget, 180.0))
    runs = 3
    secs = 1 if args.quick else 2

    try:
        wrk.ensure_wrk()
        browser.ensure_chromium()
    except (wrk.ToolMissing, browser.BrowserMissing) as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2

    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)  # this process, wrk, loadgen and Chromium
    sharing = (f"server (truco serve, waitress, 8 threads) pinned to core {sorted(server_cores)}; "
               f"load generators (wrk -t1, the asyncio phone simulator), this process and Chromium "
               f"pinned to core(s) {sorted(client_cores)}")
    results: dict[str, Any] = {"machine": report.machine(), "cores": sharing, "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    say(clock, sharing)

    say(clock, "engine")
    results["engine"] = engine.run(runs=runs, min_seconds=0.2 if args.quick else 0.35)

    srv = server.start(server_cores)
    client = Client(srv.base)
    try:
        say(clock, f"server at {srv.base}; creating 100 tables")
        tables = [client.create_match() for _ in range(100)]
        for t in tables[:10]:
            drive_to(client, t, 6)
        results["keep_alive_204"] = keeps_alive_after_204(client, tables[0])

        say(clock, "static-file limit")
        results["static"] = measure_static(srv, client_cores, runs, secs)
        say(clock, "polls at 1, 50, 400 connections")
        results["polls"] = measure_polls(srv, client_cores, tables, runs, secs)
        say(clock, "action cost at action 10 and 1,000")
        results["action_length"] = measure_action_length(client, runs, 8 if args.quick else 15)
        say(clock, "actions while 400 phones poll")
        results["action_under_polls"] = measure_action_under_polls(srv, client_cores, client, tables, runs,
                                                                  2.0 if args.quick else 3.0)

        results.update(browser_figures(srv, client, runs, clock))

        say(clock, "capacity search")
        pool = [{"id": t.id, "key": t.key, "version": t.version, "taps": 0} for t in tables]
        results["capacity"] = measure_capacity(srv, client_cores, client, pool, clock, reserve=4.0,
                                               window_s=1.5 if args.quick else 2.0, windows=3)
    finally:
        client.close()
        srv.stop()
        warnings = [ln for ln in srv.output if "connection limit" in ln]
        results["server_warnings"] = {"connection_limit_reached": len(warnings)}

    results["elapsed_s"] = round(clock.elapsed(), 1)
    rows = rows_for(results)
    results["table"] = rows
    report.write(results)
    print()
    print(report.table(rows))
    print()
    m = results["machine"]
    print(f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB, {m['os']}, Python {m['python']}")
    print(f"Cores: {sharing}")
    if not results["keep_alive_204"]["keep_alive"]:
        print("Note: the server closes the connection after every 204 poll "
              f"(Connection: {results['keep_alive_204']['connection_header']}): every poll opens a new TCP connection.")
    print(f"Each figure is the median of {runs} runs. Total {results['elapsed_s']} s. Written {report.RESULTS}.")
    return 0


def browser_figures(srv, client: Client, runs: int, clock: Clock) -> dict[str, Any]:
    """Page weight (a scoreboard at action 21) and tap to screen (from action 6)."""
    say(clock, "Chromium: page weight")
    board = client.create_match()
    drive_to(client, board, 21)
    out = {"page_weight": browser.page_weight(srv.base, board.page_path(), runs=runs)}
    say(clock, "Chromium: tap to screen (50 taps, 4x CPU throttling)")
    tap_match = client.create_match()
    drive_to(client, tap_match, 6)
    out["tap"] = browser.tap_to_screen(srv.base, tap_match.page_path(), taps=50, throttle=4.0)
    say(clock, "Chromium: tap to screen beside the floor page, interleaved (4x CPU; then 150 ms latency)")
    for key, latency in (("tap_floor", 0), ("tap_floor_latency", 150)):
        floor_match = client.create_match()  # one each: 30 taps, 15 a side, stay under 30
        drive_to(client, floor_match, 6)
        out[key] = browser.tap_vs_floor(srv.base, floor_match.page_path(), taps=30, throttle=4.0,
                                        latency_ms=latency)
    say(clock, "Chromium: board heights at 360x640, every variant and state")
    out["board_heights"] = browser.board_heights(srv.base)
    return out


#: Where ``--only browser`` writes its figures (results.json is the whole bench's).
BROWSER_RESULTS = report.RESULTS.with_name("results-browser.json")


def main_browser_only(args) -> int:
    """``--only browser``: the Chromium figures alone, printed (results.json untouched)."""
    clock = Clock(min(args.budget, 180.0))
    try:
        browser.ensure_chromium()
    except browser.BrowserMissing as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    srv = server.start(server_cores)
    client = Client(srv.base)
    try:
        r = browser_figures(srv, client, 3, clock)
    finally:
        client.close()
        srv.stop()
    with open(BROWSER_RESULTS, "w") as f:  # kept apart from results.json, which --only leaves alone
        json.dump(r, f, indent=1)
    print(f"Written {BROWSER_RESULTS}.")
    w = r["page_weight"]
    for key in ("first_identity", "first_compressed", "second_compressed"):
        print(f"{key}: {w[key]['bytes']:,} B")
        for q in w[key]["requests"]:
            print(f"    {q['bytes']:7,}  {q['encoding'] or '-':4} {'sw ' if q['sw'] else '   '}{q['url']}")
    t = r["tap"]
    ms = lambda x: "n/a" if x is None else f"{x:.1f}"  # noqa: E731
    print(f"tap to screen: p50 {t['p50_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms, max {t['max_ms']:.1f} ms; "
          f"touch -> request p50 {ms(t['request_start_p50_ms'])} ms, -> answer p50 {ms(t['answer_p50_ms'])} ms")
    print("samples:", t["samples"])
    for key in ("tap_floor", "tap_floor_latency"):
        f = r[key]
        print(f"{key} (latency {f['latency_ms']} ms): ours p50 {f['ours']['p50_ms']:.1f} / p95 {f['ours']['p95_ms']:.1f} ms, "
              f"floor p50 {f['floor']['p50_ms']:.1f} / p95 {f['floor']['p95_ms']:.1f} ms, "
              f"ratio p50 {f['ratio_p50']:.2f}x / p95 {f['ratio_p95']:.2f}x; "
              f"confirmed p50 {f['confirmed']['p50_ms']:.1f} / p95 {f['confirmed']['p95_ms']:.1f} ms")
    for variant, by_state in r["board_heights"].items():
        print(f"board {variant}: " + ", ".join(f"{k} {v['buttons']:.0f}/{v['page']}" for k, v in by_state.items()))
    return 0


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


def rows_for(r: dict[str, Any]) -> list[dict[str, Any]]:
    fmt, kb = report.fmt, report.kb
    rows = []
    s = r["static"]
    rows.append({"figure": "Static file limit (50 conns)", "target": "(the limit)",
                 "measured": f"{fmt(s['rps'], ' req/s')}, p50 {fmt(s['p50_ms'], ' ms')}, p99 {fmt(s['p99_ms'], ' ms')}",
                 "ok": None})
    for c in POLL_LEVELS:
        p = r["polls"][str(c)]
        ratio = p["rps"] / s["rps"]
        extra = f", {p['timeouts']} timeouts" if p["timeouts"] else ""
        rows.append({"figure": f"Poll 204, {c} conn{'s' if c > 1 else ''}", "target": ">= 0.5x limit",
                     "measured": f"{ratio:.2f}x ({fmt(p['rps'], ' req/s')}, p99 {fmt(p['p99_ms'], ' ms')}{extra})",
                     "ok": ratio >= 0.5})
    a = r["action_under_polls"]
    rows.append({"figure": "Action, 400 phones polling", "target": "p99 < 25 ms",
                 "measured": f"p50 {fmt(a['p50_ms'], ' ms')}, p99 {fmt(a['p99_ms'], ' ms')}",
                 "ok": a["p99_ms"] < 25})
    al = r["action_length"]
    rows.append({"figure": "Action 1,000 vs action 10", "target": "<= 1.5x",
                 "measured": f"{al['ratio']:.2f}x ({fmt(al['1000']['p50_ms'], ' ms')} vs {fmt(al['10']['p50_ms'], ' ms')})",
                 "ok": al["ratio"] <= 1.5})
    cap = r.get("capacity", {})
    bracket = f" (fails at {cap['failed_at']})" if cap.get("failed_at") else ""
    rows.append({"figure": "Capacity (tables, p99 < 100 ms)", "target": ">= 500",
                 "measured": f"{cap.get('tables', 'n/a')}{bracket}", "ok": cap.get("tables", 0) >= 500})
    w = r["page_weight"]
    rows.append({"figure": "First open, uncompressed", "target": "< 70 KB",
                 "measured": kb(w["first_identity"]["bytes"]), "ok": w["first_identity"]["bytes"] < 70_000})
    enc = {q["encoding"] for q in w["first_compressed"]["requests"]} - {""}
    how = f"served {', '.join(sorted(enc))}" if enc else "server sends no compression"
    rows.append({"figure": "First open, compressed", "target": "< 30 KB",
                 "measured": f"{kb(w['first_compressed']['bytes'])} ({how}; gzip would be "
                             f"{kb(w['first_compressed']['gzip_estimate_bytes'])})",
                 "ok": w["first_compressed"]["bytes"] < 30_000})
    rows.append({"figure": "Second open (cache)", "target": "< 4 KB",
                 "measured": f"{kb(w['second_compressed']['bytes'])}", "ok": w["second_compressed"]["bytes"] < 4_000})
    t = r["tap"]
    rows.append({"figure": "Tap to screen, 360x640, 4x CPU", "target": "p95 < 100 ms",
                 "measured": f"p50 {fmt(t['p50_ms'], ' ms')}, p95 {fmt(t['p95_ms'], ' ms')}", "ok": t["p95_ms"] < 100})
    for key, label in (("tap_floor", "Tap beside floor, 4x CPU"), ("tap_floor_latency", "Same, 150 ms latency")):
        f = r.get(key)
        if not f:
            continue
        rows.append({"figure": label, "target": "<= 1.5x floor",
                     "measured": f"p50 {f['ratio_p50']:.2f}x ({fmt(f['ours']['p50_ms'], ' ms')} vs {fmt(f['floor']['p50_ms'], ' ms')}), "
                                 f"p95 {f['ratio_p95']:.2f}x; confirmed p50 {fmt(f['confirmed']['p50_ms'], ' ms')}",
                     "ok": f["ratio_p50"] <= 1.5 and f["ratio_p95"] <= 1.5})
    heights = r.get("board_heights")
    if heights:
        tallest = max(v["buttons"] for by_state in heights.values() for v in by_state.values())
        rows.append({"figure": "Board, lowest button at 360x640", "target": "<= 640 px",
                     "measured": f"{tallest:.0f} px (all variants and states)", "ok": tallest <= 640})
    e = r["engine"]
    rows.append({"figure": "Engine: card parsing", "target": "(report)", "measured": fmt(e["card_parse"]["per_s"], " cards/s", 0), "ok": None})
    rows.append({"figure": "Engine: Envido, all 9,880 hands", "target": "(report)", "measured": fmt(e["envido_hands"]["per_s"], " hands/s", 0), "ok": None})
    rows.append({"figure": "Engine: replay 300-action match", "target": "(report)", "measured": fmt(e["replay_300"]["per_s"], " matches/s", 0), "ok": None})
    return rows


if __name__ == "__main__":
    sys.exit(main())
