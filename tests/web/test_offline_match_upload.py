"""A match started offline, uploaded again and again (issue 30, item 3; ``POST
/api/offline-matches``, :mod:`scorer.app.offline_matches`): every tap's key is recorded, the first
upload's too; tap ``i`` is stored as action ``i`` or not at all; bad taps are a 422 in the user's
language that stores nothing. The same uploads at the same instant against real servers:
``tests/system/test_offline_upload_races.py``."""

from __future__ import annotations

import json
import threading
import uuid

import pytest

from scorer.app import offline_matches, store
from scorer.web import create_app

TRUCO0 = {"type": "call", "side": 0, "call": "truco"}
QUIERO1 = {"type": "quiero", "side": 1}
WON0, WON1 = {"type": "hand_winner", "side": 0}, {"type": "hand_winner", "side": 1}
PLAYED = [TRUCO0, QUIERO1, WON0, WON1, {"type": "undo"}, WON0]


@pytest.fixture
def app(migrated_db_url):
    return create_app({"TESTING": True, "DATABASE": migrated_db_url})


@pytest.fixture
def client(app):
    return app.test_client()


def key(n: int) -> str:
    return f"offline-tap-{n:04d}"


def body(offline_id: str, actions: list[dict], keys=key) -> dict:
    return {"offline_id": offline_id, "variant": "truco-15", "options": {}, "names": ["Nós", "Eles"], "mano": 0,
            "taps": [{"tap_key": keys(i), "version": i, "action": a} for i, a in enumerate(actions)]}


def recorded(app, match_id: str) -> tuple[list[dict], list[tuple[int, str]]]:
    """``(actions, [(seq, tap key)])`` as the database holds them."""
    db = store.connect(app.config["DATABASE"])
    try:
        keys = db.execute("SELECT seq, tap_key FROM tap WHERE match_id = :id ORDER BY seq", {"id": match_id})
        return store.get_actions(db, match_id), [tuple(r) for r in keys]
    finally:
        db.close()


def test_the_first_upload_records_every_taps_key_and_a_repeat_finds_them(app, client):
    oid = str(uuid.uuid4())
    first = client.post("/api/offline-matches", json=body(oid, PLAYED[:3]))
    assert first.status_code == 201
    match_id = first.get_json()["id"]
    assert recorded(app, match_id) == (PLAYED[:3], [(i, key(i)) for i in range(3)])
    more = client.post("/api/offline-matches", json=body(oid, PLAYED)).get_json()
    assert (more["applied"], more["repeated"], more["version"]) == (3, 3, 6)
    assert recorded(app, match_id) == (PLAYED, [(i, key(i)) for i in range(6)])
    # The same taps once more, and an older, shorter copy: nothing recorded.
    for n in (6, 2):
        again = client.post("/api/offline-matches", json=body(oid, PLAYED[:n])).get_json()
        assert (again["applied"], again["repeated"], again["version"]) == (0, n, 6)
    assert recorded(app, match_id) == (PLAYED, [(i, key(i)) for i in range(6)])
    # A single tap sent again with one of those keys (the board's own page) is a repeat too.
    page = client.post(f"/api/matches/{match_id}/taps", json={"taps": [{"tap_key": key(5), "version": 5,
                                                                        "action": WON0}]},
                       headers={"X-Edit-Key": more["edit_key"]}).get_json()
    assert (page["applied"], page["repeated"]) == (0, 1)


def test_taps_without_keys_are_still_stored_once_by_their_place(app, client):
    oid = str(uuid.uuid4())
    no_key = body(oid, PLAYED[:2], keys=lambda i: None)
    match_id = client.post("/api/offline-matches", json=no_key).get_json()["id"]
    for _ in range(2):
        answer = client.post("/api/offline-matches", json=body(oid, PLAYED[:4], keys=lambda i: None)).get_json()
    assert (answer["applied"], answer["repeated"]) == (0, 4)
    assert recorded(app, match_id) == (PLAYED[:4], [])


def test_a_repeat_whose_new_tap_the_rules_refuse_records_none_of_its_new_taps(app, client):
    oid = str(uuid.uuid4())
    match_id = client.post("/api/offline-matches", json=body(oid, PLAYED[:2])).get_json()["id"]
    bad = body(oid, [*PLAYED[:3], QUIERO1], keys=key)  # a Quiero with no call waiting
    r = client.post("/api/offline-matches", json=bad, headers={"Accept-Language": "en"})
    assert r.status_code == 422 and "No call is waiting" in r.get_json()["error"]["message"]
    assert recorded(app, match_id) == (PLAYED[:2], [(0, key(0)), (1, key(1))])


def test_a_match_that_moved_on_meanwhile_keeps_the_taps_before_the_place_they_part(app, client, monkeypatch):
    """Between reading the stored match and writing a new tap, another writer (the phone's
    other tab, on the match's own board) stored an action at that place: the upload stops
    there with ``offline_mismatch`` and never writes its tap at a later version."""
    oid = str(uuid.uuid4())
    made = client.post("/api/offline-matches", json=body(oid, PLAYED[:2])).get_json()
    real = offline_matches._check_same

    def another_tab_plays_first(row, stored, taps):
        real(row, stored, taps)
        r = client.post(f"/api/matches/{made['id']}/actions", json={"action": WON0, "version": 3},
                        headers={"X-Edit-Key": made["edit_key"]})
        assert r.status_code == 200

    client.post("/api/offline-matches", json=body(oid, PLAYED[:3]))  # the third tap, WON0, at place 2
    monkeypatch.setattr(offline_matches, "_check_same", another_tab_plays_first)
    r = client.post("/api/offline-matches", json=body(oid, PLAYED[:5]), headers={"Accept-Language": "en"})
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert error["code"] == "offline_mismatch" and "went different ways at tap 4" in error["message"]
    assert recorded(app, made["id"])[0] == [*PLAYED[:3], WON0]  # the phone's tap 4 (WON1) and 5 (undo): not stored


def test_copies_sent_at_once_to_two_apps_store_each_tap_once(migrated_db_url):
    """Two app processes (each its own cache and locks) on one database, four copies of each
    upload at once, each longer than the last."""
    apps = [create_app({"TESTING": True, "DATABASE": migrated_db_url}) for _ in range(2)]
    oid = str(uuid.uuid4())
    for n in range(1, len(PLAYED) + 1):
        go, answers = threading.Barrier(4), []

        def send(c, n=n, go=go, answers=answers):
            go.wait(timeout=10)
            r = c.post("/api/offline-matches", json=body(oid, PLAYED[:n]))
            answers.append((r.status_code, r.get_json()))

        threads = [threading.Thread(target=send, args=(apps[i % 2].test_client(),)) for i in range(4)]
        [t.start() for t in threads]
        [t.join(timeout=30) for t in threads]
        assert sorted(s for s, _ in answers) == ([200] * 3 + [201] if n == 1 else [200] * 4), answers
        assert sum(a["applied"] for _, a in answers) == 1, answers  # the new tap, once
    actions, keys = recorded(apps[0], answers[0][1]["id"])
    assert actions == PLAYED and keys == [(i, key(i)) for i in range(len(PLAYED))]


GOOD = {"tap_key": key(0), "version": 0, "action": WON0}


@pytest.mark.parametrize("taps, lang, words", [
    ([{**GOOD, "tap_key": "short"}], "en", "Tap number 1 has a bad tap_key"),
    ([GOOD, {**GOOD, "tap_key": 7}], "en", "Tap number 2 has a bad tap_key"),
    ([GOOD, {**GOOD, "tap_key": "çãoçãoçãoção"}], "es", "El toque número 2"),
    ([GOOD, {**GOOD, "action": WON1}], "en", "Tap number 2 has the key of an earlier tap"),
    ([GOOD, {**GOOD, "tap_key": key(1)}, GOOD], "pt_BR", "O toque número 3"),
])
def test_a_bad_tap_key_is_a_translated_422_that_stores_nothing(app, client, taps, lang, words):
    oid = str(uuid.uuid4())
    r = client.post("/api/offline-matches", data=json.dumps({**body(oid, []), "taps": taps}),
                    headers={"Accept-Language": lang, "Content-Type": "application/json"})
    assert r.status_code == 422, r.get_json()
    assert words in r.get_json()["error"]["message"]
    assert client.post("/api/offline-matches", json=body(oid, [])).status_code == 201  # nothing was stored before
