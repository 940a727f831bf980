"""Races against a real ``truco serve``: nothing lost, nothing counted twice.

Eight clients post actions to one match for a few seconds, each on the version it last
saw; then the stored log must replay to the server's state, hold every accepted action
once at the version it was accepted on, and every refusal must have been a 409. On
both backends: a SQLite file and PostgreSQL.
"""

from __future__ import annotations

import threading

import pytest

import live_server
from live_server import Client, Server, race
from scorer.core.match import Match

CLIENTS = 8
SECONDS = 3.0


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    if request.param == "sqlite":
        db = tmp_path_factory.mktemp("races") / "races.sqlite3"
    else:
        db = request.getfixturevalue("postgres").create_database()
    s = Server(db)
    s.db = db
    yield s
    s.stop()


def create(port, variant, **body):
    c = Client(port)
    status, data, _ = c.request("POST", "/api/matches", {"variant": variant, **body})
    c.close()
    assert status == 201, data
    return data


def stored(db, match_id):
    return sorted(live_server.stored(db, match_id).items())


def test_eight_clients_racing_lose_and_double_nothing(server):
    match = create(server.port, "argentino-30", options={"flor": True})
    accepted, refused, other = race([server.port], match, CLIENTS, SECONDS)
    assert other == []  # every refusal was a 409

    c = Client(server.port)
    status, final, _ = c.request("GET", f"/api/matches/{match['id']}")
    c.close()
    log = stored(server.db, match["id"])
    accepted.sort(key=lambda va: va[0])
    # Every accepted action is in the log once, at the version it was accepted on.
    assert [v for v, _a in accepted] == list(range(len(accepted)))
    assert log == accepted
    assert final["version"] == len(log)
    # The stored log replays to exactly the state the server reports.
    replayed = Match.replay("argentino-30", final["options"], 0, [a for _v, a in log]).state(names=tuple(final["names"]))
    for key in ("score", "winner", "hand", "legal_actions", "stages"):
        assert replayed[key] == final[key], key
    assert set(refused) <= {"stale_version", "already_recorded"}
    print(f"\nraces: {len(accepted) + len(refused)} actions posted by {CLIENTS} clients, "
          f"{len(accepted)} accepted, {len(refused)} refused with 409, 0 lost")


@pytest.mark.parametrize("sides", [(0, 0), (0, 1)], ids=["same-hand-winner", "opposite-hand-winners"])
def test_two_clients_racing_one_hand_winner_apply_exactly_one(server, sides):
    match = create(server.port, "paulista")
    path = f"/api/matches/{match['id']}/actions"
    headers = {"X-Edit-Key": match["edit_key"]}
    clients = [Client(server.port), Client(server.port)]
    for version in range(10):
        gate = threading.Barrier(2)
        results = [None, None]

        def post(i, version=version, gate=gate, results=results):
            gate.wait(timeout=10)
            body = {"action": {"type": "hand_winner", "side": sides[i]}, "version": version}
            results[i] = clients[i].request("POST", path, body, headers)[:2]

        threads = [threading.Thread(target=post, args=(i,)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        statuses = sorted(r[0] for r in results)
        assert statuses == [200, 409], results
        loser = next(r[1] for r in results if r[0] == 409)
        assert loser["error"]["code"] == ("already_recorded" if sides[0] == sides[1] else "stale_version")
        assert loser["state"]["version"] == version + 1
    for c in clients:
        c.close()
    log = stored(server.db, match["id"])
    assert [seq for seq, _a in log] == list(range(10))
