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
bytes, streams held by nginx, bench/push.py, ``bench/results_push.json``); ``--only push-capacity``
(tables held with every phone's stream open and a tap every 20 s a table, up to 10,000 tables and
40,000 streams, bench/push_capacity.py, ``bench/results_push_capacity.json``).
"""

from __future__ import annotations

import argparse
import sys

from bench.capacity import measure_capacity, run_loadgen
from bench.clock import Clock, say

#: ``--only``'s choices, each a part of the bench with a module of its own.
ONLY = ["browser", "db", "tournament", "phones", "hosting", "stats", "offline", "taps", "push", "push-capacity", "heavy",
        "club"]


def main(argv: list[str] | None = None) -> int:
    """Read the options (see the module's docstring) and run the bench, or the part ``--only`` names."""
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="shorter runs (numbers less stable)")
    ap.add_argument("--budget", type=float, default=170.0, help="seconds for the whole run (max 180)")
    ap.add_argument("--only", choices=ONLY,
                    help="only these figures (db: SQLite vs PostgreSQL, 1 and 2 processes, written to "
                         "bench/results_db.json; tournament: a 64-team knockout); results.json is not written")
    ap.add_argument("--reference", metavar="PATH",
                    help="with --only hosting or heavy: also run the laptop's and the hosted server's code from this "
                         "checkout of another commit (git worktree add --detach PATH COMMIT), alternately with "
                         "this one's, so the two compare on the same machine in the same minutes")
    args = ap.parse_args(argv)
    if args.only:
        return only(args)
    from bench import whole

    return whole.main(args.quick, args.budget)


def only(args) -> int:
    """``--only``: the part of the bench it names, from its own module."""
    if args.only == "browser":
        from bench.browser_run import main_browser_only

        return main_browser_only(args)
    if args.only == "db":
        from bench.db_run import main_db_only

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
    if args.only == "push-capacity":  # issue 34: bench/push_capacity.py
        from bench import push_capacity

        clock = Clock(1800.0)
        return push_capacity.main(args.quick, lambda text: say(clock, text))
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
    from bench import tournament  # "tournament", issue 11: bench/tournament.py

    return tournament.main()


if __name__ == "__main__":
    sys.exit(main())
