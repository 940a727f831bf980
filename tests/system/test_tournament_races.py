"""Tables finishing at the same moment on a real ``truco serve`` (issue 11): the bracket
advances once, each slot gets one match with the right teams, nothing is counted twice.

Every round of a 16-team knockout ends with all its tables posting their last point at
once (a barrier), while another client keeps reading the tournament (each read also
advances it) and the organizer reopens and replays one match in the middle.
"""

from __future__ import annotations

import sqlite3
import threading

import pytest
import requests

from live_server import Server


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "races.sqlite3", threads=8, ghost_tap_ms=0)
    yield srv, tmp_path / "races.sqlite3"
    srv.stop()


def all_matches(state):
    return [m for stage in [{"rounds": state["rounds"]}] + state["stages"] for r in stage["rounds"]
            for m in r["matches"]]


def finish_at_once(url, ready):
    """Each ready match's table posts +15 for side 0 at the same moment."""
    barrier = threading.Barrier(len(ready))
    errors = []

    def table(m):
        match_id, key = m["id"], m["edit_url"].rsplit("/", 1)[1]
        with requests.Session() as s:
            version = s.get(f"{url}/api/matches/{match_id}").json()["version"]
            barrier.wait()
            r = s.post(f"{url}/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                       json={"action": {"type": "adjust", "side": 0, "delta": 15}, "version": version})
            if r.status_code != 200:
                errors.append(r.text)

    threads = [threading.Thread(target=table, args=(m,)) for m in ready]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors


def test_simultaneous_finishes_advance_once(server):
    srv, path = server
    url = srv.url
    s = requests.Session()
    t = s.post(f"{url}/api/tournaments", json={"variant": "truco-15", "teams": [f"T{i}" for i in range(16)]}).json()
    org = {"X-Organizer-Key": t["organizer_key"]}
    stop = threading.Event()

    def reader():
        with requests.Session() as r:
            while not stop.is_set():
                assert r.get(f"{url}/api/tournaments/{t['id']}").status_code == 200

    watcher = threading.Thread(target=reader)
    watcher.start()
    rounds = 0
    reopened = False
    try:
        while True:
            state = s.get(f"{url}/api/tournaments/{t['id']}", headers=org).json()
            ready = [m for m in all_matches(state) if m["status"] == "ready"]
            if not ready:
                break
            if not all(m["edit_url"] for m in ready):
                continue  # another request (the reader) is creating a table's match right now: look again
            finish_at_once(url, ready)
            rounds += 1
            if rounds == 2 and not reopened:  # the organizer reopens a round-1 match mid-way
                r = s.post(f"{url}/api/tournaments/{t['id']}/corrections", headers=org,
                           json={"kind": "walkover", "slot": "main:1:1", "absent": 0, "confirmed": True})
                assert r.status_code == 200, r.text
                # round 2 was played; the quarterfinal it fed was ready: both are undone
                assert r.json()["undone"] == ["main:2:1", "main:3:1"]
                reopened = True
    finally:
        stop.set()
        watcher.join()
    state = s.get(f"{url}/api/tournaments/{t['id']}", headers=org).json()
    assert state["champion"] is not None and rounds >= 4
    export = s.get(f"{url}/api/tournaments/{t['id']}/export").json()
    assert all(slot["result"] is not None for slot in export["slots"])
    for slot in export["slots"]:  # every slot's games are between its own two teams
        names = [state["teams"][i] for i in slot["teams"]]
        assert slot["games"] and all(g["names"] == names for g in slot["games"])
    kinds = [a["kind"] for a in export["audit"]]
    # 15 results from the tables, plus main:2:1 played again after the walkover undid it
    assert (kinds.count("result"), kinds.count("walkover"), kinds.count("reopen")) == (16, 1, 1)
    db = sqlite3.connect(path)
    linked = db.execute("SELECT COUNT(DISTINCT match_id), COUNT(*) FROM tournament_slot WHERE tournament_id = ?",
                        (t["id"],)).fetchone()
    db.close()
    assert linked == (15, 15)
    print(f"\nraces: {rounds} rounds finished at once by up to 8 tables, reads meanwhile; 15 slots, 15 linked matches")
