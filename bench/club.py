"""Club figures (issue 32; docs/club.md, docs/performance.md): a club of 200 players with
2,000 finished games (pairs, partners drawn at random, seeded), the season table and a
player's page read from a freshly started ``truco serve``.

The club is built in this process through the club's own import
(:func:`scorer.app.club_records.import_club`: every game replayed by the engine, its facts
written as a finished club game writes them), from 60 random legal games of the default variant reused
in turn (random calls, answers, Envido, tricks and mazo: real call statistics), each game
between two pairs of the 200 players, 20 a night ten minutes apart, one night a week for 100 weeks. Then:

- **Cold**: ``GET /club/<id>`` (the season table) and ``GET /club/<id>/player/<n>`` (the
  player's page; its chart ``.../rating.svg`` too), each as the first request of a freshly
  started server, 3 restarts, the median; three ways: every game rated again (the kept tables
  dropped first, as after an Undo of an old game), after one more game (a club match played to
  its end through the match service just before: the kept season goes on with it), and with the
  season kept (the club unchanged since it was last read). Target: under 200 ms.
- **Warm**: the same requests 10 more times each, median.
- **Core**: :func:`scorer.core.club.play_season` of the 2,000 games in this process (the
  openskill updates and the table), median of 5.

``python -m bench.club`` prints the figures (JSON on the last line); ``python -m bench --only
club`` does the same.
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
from scorer.core.variants import default_variant

PLAYERS, GAMES, DISTINCT = 200, 2000, 60
#: The variant of the default match (the registry's, as every bench names it).
VARIANT = default_variant().id
TARGET_MS = 200
START = 1_730_484_000.0  # 2024-11-01 18:00 UTC: the 100 weekly nights end before the bench runs


def random_game(seed: int) -> list[dict[str, Any]]:
    """The actions of a random legal match played to its end (no undo, no corrections)."""
    from scorer.core.match import Match

    rng = random.Random(seed)
    m = Match(VARIANT, {}, 0)
    while m.winner is None:
        legal = [a for a in m.legal_actions() if a["type"] not in ("undo", "adjust")]
        choice = {k: v for k, v in rng.choice(legal).items() if k not in ("points", "points_side")}
        if choice["type"] == "declare_points":
            counts = [n for low, high in m.state()["hand"]["counts"] for n in range(low, high + 1)]
            choice = {"type": "envido_points", "points": [rng.choice(counts), rng.choice(counts)]}
        m.apply(choice)
    return m.actions


def export_data() -> dict[str, Any]:
    """A club export of :data:`PLAYERS` players and :data:`GAMES` games (seeded)."""
    from scorer.core.match import Match

    rng = random.Random(32)
    pool = []
    for seed in range(DISTINCT):
        actions = random_game(seed)
        pool.append((actions, Match.replay(VARIANT, {}, 0, actions).winner))
    games = []
    for i in range(GAMES):
        a, b, c, d = rng.sample(range(1, PLAYERS + 1), 4)
        actions, winner = pool[i % DISTINCT]
        games.append({"sides": [[a, b], [c, d]], "winner": winner, "ended": START + (i // 20) * 7 * 86400 + (i % 20) * 600,
                      "variant": VARIANT, "options": {}, "mano": 0, "actions": actions})
    return {"format": "truco-scorer-club/1", "name": "Clube do Bench",
            "players": [{"player": p, "name": f"Jogador {p:03d}", "nickname": f"J{p}"} for p in range(1, PLAYERS + 1)],
            "seasons": [], "games": games}


def build(db_path: str) -> tuple[str, float]:
    """The club stored in ``db_path``: ``(club id, seconds it took)``."""
    from scorer.app import club_records, store
    from scorer.app.match_service import MatchService

    data = export_data()
    db = store.connect(db_path)
    try:
        store.init_db(db)
        t0 = time.perf_counter()
        row, _key = club_records.import_club(db, MatchService(), data, max_actions=5000)
        return row.id, time.perf_counter() - t0
    finally:
        db.close()


def core_figure(db_path: str, cid: str) -> float:
    """The season played in this process (ms, median of 5)."""
    from scorer.app import club_service, store

    db = store.connect(db_path)
    try:
        club = club_service.load(db, cid)
        games = club_service.games(db, cid)
        from scorer.core.club import play_season

        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            play_season(games, club.players)
            runs.append(time.perf_counter() - t0)
        return round(statistics.median(runs) * 1000, 1)
    finally:
        db.close()


def forget_tables(db_path: str) -> None:
    """Drop the stored season tables: the next read plays the season again, as the first read
    after a game ends does."""
    from scorer.app import store

    db = store.connect(db_path)
    try:
        with store.write(db):
            db.execute("DELETE FROM club_table")
    finally:
        db.close()


def one_more_game(db_path: str, cid: str, seed: int) -> None:
    """A club match of four of the players played to its end through the match service, as a
    table plays it: its end writes the game's facts (the club's listener)."""
    from functools import partial

    from scorer.app import club_service, store
    from scorer.app.match_service import MatchService

    matches = MatchService()
    matches.listeners.append(partial(club_service.on_action, matches=matches))
    db = store.connect(db_path)
    try:
        club = club_service.load(db, cid)
        a, b, c, d = random.Random(seed).sample(sorted(club.players), 4)
        row = club_service.start_match(db, matches, club, [[a, b], [c, d]], variant=VARIANT, options={})
        for version, action in enumerate(random_game(seed)):
            matches.act(db, row.id, action, version)
    finally:
        db.close()


def run() -> dict[str, Any]:
    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    folder = Path(tempfile.mkdtemp(prefix="truco-bench-club-"))
    db = str(folder / "club.sqlite3")
    modes = ("played", "one_more", "stored")
    try:
        cid, built_s = build(db)
        paths = {"season_table": f"/club/{cid}", "player_page": f"/club/{cid}/player/7",
                 "rating_chart": f"/club/{cid}/player/7/rating.svg"}
        cold: dict[tuple[str, str], list[float]] = {(k, m): [] for k in paths for m in modes}
        warm: dict[str, list[float]] = {k: [] for k in paths}
        sizes: dict[str, int] = {}
        for _ in range(3):
            for name, path in paths.items():
                for mode in modes:
                    if mode == "played":
                        forget_tables(db)
                    elif mode == "one_more":  # the kept tables are current: the reads below made them
                        one_more_game(db, cid, seed=len(cold[(name, mode)]) * 10 + len(paths))
                    srv = server.start(server_cores, db=db)
                    try:
                        client = Client(srv.base)
                        status, raw, secs = client.request("GET", path)
                        assert status == 200, (path, status)
                        cold[(name, mode)].append(secs)
                        sizes[name] = len(raw)
                        if mode == "stored" and not warm[name]:
                            for _ in range(10):
                                warm[name].append(client.request("GET", path)[2])
                    finally:
                        srv.stop()
        core_ms = core_figure(db, cid)
        load = os.getloadavg()[0]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out: dict[str, Any] = {"players": PLAYERS, "games": GAMES, "built_s": round(built_s, 1), "core_season_ms": core_ms,
                           "target_ms": TARGET_MS, "load_average": round(load, 1)}
    for name in paths:
        for mode in modes:
            out[f"{name}_cold_{mode}_ms"] = round(statistics.median(cold[(name, mode)]) * 1000, 1)
            out[f"{name}_cold_{mode}_runs_ms"] = [round(c * 1000, 1) for c in cold[(name, mode)]]
        out[f"{name}_warm_ms"] = round(statistics.median(warm[name]) * 1000, 1)
        out[f"{name}_bytes"] = sizes[name]
    return out


def main() -> int:
    r = run()
    print(f"club of {r['players']} players, {r['games']} games (pairs; built through the import in {r['built_s']} s;"
          f" load average {r['load_average']})")
    ok = all(r[f"{n}_cold_stored_ms"] < TARGET_MS for n in ("season_table", "player_page"))
    for name in ("season_table", "player_page", "rating_chart"):
        print(f"{name}: cold (fresh server), season stored {r[f'{name}_cold_stored_ms']} ms"
              f" (runs {r[f'{name}_cold_stored_runs_ms']}); after one more game {r[f'{name}_cold_one_more_ms']} ms"
              f" (runs {r[f'{name}_cold_one_more_runs_ms']}); every game rated again"
              f" {r[f'{name}_cold_played_ms']} ms (runs {r[f'{name}_cold_played_runs_ms']});"
              f" warm {r[f'{name}_warm_ms']} ms; {r[f'{name}_bytes']} bytes")
    print(f"core: the season of {r['games']} games played in this process: {r['core_season_ms']} ms")
    print(f"target < {TARGET_MS} ms cold for the table and the player page: {'ok' if ok else 'MISS'}")
    print("BENCH_CLUB " + json.dumps(r))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
