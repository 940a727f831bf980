"""Statistics figures (issue 22 item 4): the evening in numbers of a 31-match night.

A 32-team ``argentino-30`` knockout (with Flor: 31 matches) is played to the end through the
JSON API against one ``truco serve`` on 127.0.0.1, each match a random legal game (seeded;
calls, answers, Envido and Flor with typed points, tricks, mazo; no corrections), then:

- **Cold**: ``GET /api/tournaments/<id>/stats`` as the first request of a freshly started
  server on that database (every match read and replayed from the database), 3 restarts,
  the median. Target: under 200 ms.
- **Warm**: the same request 20 more times (the matches in the server's cache), median.
- **Engine**: the statistics of the 31 logs alone (:func:`scorer.core.stats.log_stats`), and
  replay plus statistics, in this process, median of 20.

``python -m bench.stats`` prints the figures (JSON on the last line); ``python -m bench --only
stats`` does the same.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import server
from bench.client import Client
from bench.states import LONG_MATCH

TEAMS = 32
VARIANT, OPTIONS = LONG_MATCH, {"flor": True}  # Argentine, malas and buenas, with Flor
TARGET_MS = 200


def random_game(seed: int) -> list[dict[str, Any]]:
    """The actions of a random legal match played to its end (no undo, no corrections)."""
    from scorer.core.match import Match

    rng = random.Random(seed)
    m = Match(VARIANT, OPTIONS, seed % 2)
    while m.winner is None:
        legal = [a for a in m.legal_actions() if a["type"] not in ("undo", "adjust")]
        choice = {k: v for k, v in rng.choice(legal).items() if k not in ("points", "points_side")}
        if choice["type"] == "declare_points":
            counts = [n for low, high in m.state()["hand"]["counts"] for n in range(low, high + 1)]
            choice = {"type": "envido_points", "points": [rng.choice(counts), rng.choice(counts)]}
        m.apply(choice)
    return m.actions


def _json(client: Client, method: str, path: str, body: Any = None, headers: dict | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    status, raw, _ = client.request(method, path, data, {"Content-Type": "application/json", **(headers or {})})
    return status, json.loads(raw)


def play_night(client: Client) -> tuple[str, int]:
    """Create the knockout and play every match; ``(tournament id, actions posted)``."""
    status, t = _json(client, "POST", "/api/tournaments", {"name": "Noite", "variant": VARIANT, "options": OPTIONS,
                                                           "teams": [f"Dupla {i:02d}" for i in range(TEAMS)],
                                                           "format": "knockout"})
    assert status == 201, t
    organizer = {"X-Organizer-Key": t["organizer_key"]}
    posted, seed, done = 0, 0, set()
    while True:
        _, state = _json(client, "GET", f"/api/tournaments/{t['id']}", headers=organizer)
        if state["champion"] is not None:
            return t["id"], posted
        todo = [m for r in state["rounds"] for m in r["matches"] if m.get("edit_url") and m["slot"] not in done
                and m.get("result") is None and None not in m["teams"]]
        assert todo, "no match to play and no champion"
        for m in todo:
            match_id, key = m["edit_url"].split("/")[-2:]
            for version, action in enumerate(random_game(seed)):
                status, body = _json(client, "POST", f"/api/matches/{match_id}/actions",
                                     {"action": action, "version": version}, {"X-Edit-Key": key})
                assert status == 200, body
                posted += 1
            seed += 1
            done.add(m["slot"])


def engine_figures(client: Client, tid: str) -> dict[str, float]:
    """Statistics of the night's logs in this process (ms, median of 20)."""
    from scorer.core.match import Match
    from scorer.core.stats import log_stats, match_stats

    _, export = _json(client, "GET", f"/api/tournaments/{tid}/export")
    games = [g["actions"] for s in export["slots"] for g in s["games"]]
    matches = [Match.replay(VARIANT, OPTIONS, 0, actions) for actions in games]
    logs = [(m.log, m.variant, m.target, m.winner) for m in matches]
    only, replayed = [], []
    for _ in range(20):
        t0 = time.perf_counter()
        for log in logs:
            log_stats(*log)
        only.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for actions in games:
            match_stats(Match.replay(VARIANT, OPTIONS, 0, actions))
        replayed.append(time.perf_counter() - t0)
    return {"games": len(games), "actions": sum(map(len, games)),
            "log_stats_ms": round(statistics.median(only) * 1000, 2),
            "replay_and_stats_ms": round(statistics.median(replayed) * 1000, 2)}


def run() -> dict[str, Any]:
    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    folder = Path(tempfile.mkdtemp(prefix="truco-bench-stats-"))
    db = str(folder / "night.sqlite3")
    try:
        srv = server.start(server_cores, db=db)
        try:
            client = Client(srv.base)
            t0 = time.perf_counter()
            tid, posted = play_night(client)
            played_s = time.perf_counter() - t0
            engine = engine_figures(client, tid)
            path = f"/api/tournaments/{tid}/stats"
            warm = []
            for _ in range(21):
                status, _raw, secs = client.request("GET", path)
                assert status == 200
                warm.append(secs)
        finally:
            srv.stop()
        cold = []
        for _ in range(3):
            srv = server.start(server_cores, db=db)
            try:
                status, raw, secs = Client(srv.base).request("GET", path)
                assert status == 200 and len(json.loads(raw)["teams"]) == TEAMS
                cold.append(secs)
            finally:
                srv.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"teams": TEAMS, "actions_posted": posted, "played_s": round(played_s, 1), **engine,
            "http_cold_ms": round(statistics.median(cold) * 1000, 1), "http_cold_runs_ms": [round(c * 1000, 1) for c in cold],
            "http_warm_ms": round(statistics.median(warm[1:]) * 1000, 1), "target_ms": TARGET_MS}


def main() -> int:
    r = run()
    ok = "ok" if r["http_cold_ms"] < TARGET_MS else "MISS"
    print(f"{r['games']}-match night ({r['teams']}-team knockout, {VARIANT} with Flor, {r['actions']} actions;"
          f" played in {r['played_s']} s)")
    print(f"GET /api/tournaments/<id>/stats, cold (fresh server): {r['http_cold_ms']} ms"
          f" (runs {r['http_cold_runs_ms']}); target < {TARGET_MS} ms: {ok}")
    print(f"same, warm (matches cached): {r['http_warm_ms']} ms")
    print(f"engine: statistics of the {r['games']} logs {r['log_stats_ms']} ms;"
          f" replay and statistics {r['replay_and_stats_ms']} ms")
    print("BENCH_STATS " + json.dumps(r))
    return 0 if ok == "ok" else 1


if __name__ == "__main__":
    sys.exit(main())
