"""``kill -9`` a real ``truco serve`` mid-traffic, restart it on the same database:
every action that got a success response is still there, the file passes
``PRAGMA integrity_check``, and the match goes on."""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading

from live_server import Client, Server, plain_action
from scorer.core.match import Match, normalize_action

KILLS = 5
DRIVERS = 3


def stored(db, match_id):
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT seq, body FROM action WHERE match_id = ? ORDER BY seq", (match_id,))
        return {seq: json.loads(body) for seq, body in rows}
    finally:
        conn.close()


def drive(port, match, accepted, progress, rng):
    """Post legal actions to one match until the server dies; log each 200 in ``accepted``."""
    c = Client(port, timeout=10)
    path = f"/api/matches/{match['id']}/actions"
    headers = {"X-Edit-Key": match["edit_key"]}
    try:
        status, state, _ = c.request("GET", f"/api/matches/{match['id']}")
        assert status == 200
        while True:
            legal = [a for a in state["legal_actions"] if a["type"] not in ("adjust", "declare_points")]
            action = plain_action(rng.choice(legal)) if legal else {"type": "undo"}
            status, body, _ = c.request("POST", path, {"action": action, "version": state["version"]}, headers)
            assert status == 200, body  # one client per match: never stale, never illegal
            with progress:
                accepted[match["id"]].append((state["version"], normalize_action(action)))
                progress.notify_all()
            state = body
    except (OSError, http.client.HTTPException):  # killed under us: reset, refused, or cut mid-answer
        pass
    finally:
        c.close()


def test_kill_9_loses_no_acknowledged_action(tmp_path):
    rng = random.Random(5)
    db = tmp_path / "crash.sqlite3"
    server = Server(db)
    matches = []
    c = Client(server.port)
    for variant in ("argentino-30", "paulista", "truco-15")[:DRIVERS]:
        status, m, _ = c.request("POST", "/api/matches", {"variant": variant})
        assert status == 201
        matches.append(m)
    c.close()
    accepted = {m["id"]: [] for m in matches}
    progress = threading.Condition()
    total = 0
    try:
        for kill in range(KILLS + 1):
            threads = [threading.Thread(target=drive, args=(server.port, m, accepted, progress, random.Random(rng.random())))
                       for m in matches]
            for t in threads:
                t.start()
            target = total + rng.randint(5, 60)
            with progress:
                assert progress.wait_for(lambda: sum(map(len, accepted.values())) >= target, timeout=60)
            if kill == KILLS:
                server.stop()
            else:
                server.kill()  # SIGKILL while the drivers have requests in flight
            for t in threads:
                t.join(timeout=30)
            assert not any(t.is_alive() for t in threads)
            total = sum(map(len, accepted.values()))

            conn = sqlite3.connect(db)
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            conn.close()
            server = Server(db)  # restart on the same file; WAL recovery happens here
            for m in matches:
                log = stored(db, m["id"])
                for version, action in accepted[m["id"]]:
                    assert log.get(version) == action, (m["id"], version)
                # At most one more: the action whose answer the kill swallowed.
                assert len(log) - len(accepted[m["id"]]) in (0, 1)
                assert sorted(log) == list(range(len(log)))
                c = Client(server.port)
                status, state, _ = c.request("GET", f"/api/matches/{m['id']}")
                c.close()
                assert status == 200 and state["version"] == len(log)
                replayed = Match.replay(m["state"]["variant"], state["options"], 0, [log[i] for i in range(len(log))])
                assert replayed.state()["score"] == state["score"]
                accepted[m["id"]] = [(v, log[v]) for v in range(len(log))]
        print(f"\ncrashes: {KILLS} kill -9 survived, {total} acknowledged actions, 0 lost")
    finally:
        server.stop()
