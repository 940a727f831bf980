"""Repeats of one offline-match upload, sent at the same moment, store each tap once (issue 30,
item 3; ``POST /api/offline-matches``, :mod:`scorer.app.offline_matches`).

A phone that started a match with no scorekeeper uploads it whole; without an answer it sends
it again, maybe longer (it played on meanwhile), maybe from two tabs at once. Here 2, 10 and 20
copies of each upload go at the same instant to two real ``truco serve`` processes on one
database (a SQLite file, and PostgreSQL): first the match's first taps (one copy creates it, the
others find it), then 20 rounds each adding two taps. After every round each tap is stored
exactly once, in its place, with its own key; every answer says so. Once the repeat path
applied the new taps without their keys and, after another copy's STALE answer, went on with the
next tap at the newer version: 10 extra actions over 20 rounds of two copies.
"""

from __future__ import annotations

import random
import threading
import uuid

import pytest

from live_server import Client, Server, plain_action, stored
from scorer.app import store
from scorer.core.match import Match, normalize_action

VARIANT = "argentino-30"
#: Taps of the first upload, and rounds of two more taps each.
FIRST, ROUNDS = 4, 20


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def servers(request, tmp_path_factory):
    """Two ``truco serve`` processes on one database, with one instance secret (the offline
    match's id and key are derived from it): ``(ports, database)``."""
    folder = tmp_path_factory.mktemp("offline-upload-races")
    db = str(folder / "races.sqlite3") if request.param == "sqlite" else request.getfixturevalue("postgres").create_database()
    secret = ("--secret-file", str(folder / "truco.secret"))
    pair = [Server(db, args=secret), Server(db, args=secret)]
    yield [s.port for s in pair], db
    for s in pair:
        s.stop()


def played_taps(seed: int, count: int) -> list[dict]:
    """``count`` taps of one match as a phone plays it offline: each a legal action (an Undo now
    and then) on the board the tap before made, with its own key and that board's version."""
    rng, match, taps = random.Random(seed), Match(VARIANT), []
    while len(taps) < count:
        legal = [a for a in match.state()["legal_actions"] if a["type"] not in ("adjust", "declare_points")]
        action = {"type": "undo"} if (rng.random() < 0.1 and match.log) or not legal else plain_action(rng.choice(legal))
        version = match.version
        match.apply(action)
        taps.append({"tap_key": str(uuid.uuid4()), "version": version, "action": action})
    return taps


def all_at_once(ports: list[int], body: dict) -> list[tuple[int, dict]]:
    """``body`` posted once to each port of ``ports``, every post released at the same instant;
    the answers ``(status, JSON)`` in order (a post that got no answer raises here)."""
    barrier, answers = threading.Barrier(len(ports)), [None] * len(ports)

    def post(i: int) -> None:
        client = Client(ports[i], timeout=60)
        try:
            barrier.wait(timeout=30)
            answers[i] = client.request("POST", "/api/offline-matches", body)[:2]
        except Exception as e:  # noqa: BLE001 - reported by the check below
            answers[i] = ("no answer", repr(e))
        finally:
            client.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(ports))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=90)
    assert not any(t.is_alive() for t in threads)
    return answers


def stored_keys(db: str, match_id: str) -> list[tuple[int, str]]:
    """``[(seq, tap_key)]`` the database recorded for the match."""
    conn = store.connect(db)
    try:
        return [tuple(r) for r in conn.execute("SELECT seq, tap_key FROM tap WHERE match_id = :id ORDER BY seq",
                                               {"id": match_id})]
    finally:
        conn.close()


@pytest.mark.parametrize("copies", [2, 10, 20])
def test_copies_of_one_upload_sent_at_once_store_each_tap_once(servers, copies):
    ports, db = servers
    taps = played_taps(seed=copies, count=FIRST + 2 * ROUNDS)
    body = {"offline_id": f"races-{copies}-{uuid.uuid4().hex}", "variant": VARIANT, "options": {},
            "names": ["Nosotros", "Ellos"], "mano": 0}
    spread = [ports[i % 2] for i in range(copies)]  # half the copies on each server process
    first = all_at_once(spread, {**body, "taps": taps[:FIRST]})
    assert sorted(status for status, _ in first) == [200] * (copies - 1) + [201], first
    match_id = first[0][1]["id"]
    assert {answer["id"] for _, answer in first} == {match_id}
    for n in range(FIRST + 2, FIRST + 2 * ROUNDS + 1, 2):
        answers = all_at_once(spread, {**body, "taps": taps[:n]})
        assert {status for status, _ in answers} == {200}, answers
        assert sum(a["applied"] for _, a in answers) == 2, answers  # the two new taps, once
        assert all(a["applied"] + a["repeated"] == n and a["version"] == n for _, a in answers), answers
        assert len(stored(db, match_id)) == n
    log = stored(db, match_id)
    assert [log[seq] for seq in sorted(log)] == [normalize_action(t["action"]) for t in taps]
    assert stored_keys(db, match_id) == [(seq, t["tap_key"]) for seq, t in enumerate(taps)]
