"""Applying kept taps after a conflict (issue 30, items 2 and 5; :mod:`scorer.app.tap_upload`):
a tap is applied only in the hand it was made in, an Undo in a later chunk may take back the last
tap of the chunk before, and a tap made on the match's version is never moved onto another
phone's action. Posted as the phone posts them (``POST /m/<id>/<key>/taps``)."""

from __future__ import annotations

import threading

import pytest

from scorer.app import store, tap_upload
from scorer.web import create_app
from tests.web_client import EN, ES, HX, PT, act, new_match


def won(side: int) -> dict:
    return {"type": "hand_winner", "side": side}


def truco(side: int) -> dict:
    return {"type": "call", "side": side, "call": "truco"}


def no_quiero(side: int) -> dict:
    return {"type": "no_quiero", "side": side}


ADJUST0 = {"type": "adjust", "side": 0, "delta": 1}  # a correction: the hand goes on
UNDO = {"type": "undo"}
VARIANTS = ["argentino-30", "paulista"]
NAMES = {"name0": "Nosotros", "name1": "Ellos"}


@pytest.fixture
def app(migrated_db_url):
    return create_app({"TESTING": True, "DATABASE": migrated_db_url, "GHOST_TAP_SECONDS": 0})


@pytest.fixture
def client(app):
    return app.test_client()


def stored(app, match_id):
    db = store.connect(app.config["DATABASE"])
    try:
        return store.get_actions(db, match_id)
    finally:
        db.close()


def k(n: int) -> str:
    return f"phone-a-tap-{n:03d}"


def kept(*taps, with_hand=True):
    """Phone A's kept taps from ``(action, version, hand)``, keys ``k(1)``..., with the hand the
    board showed or (``with_hand`` False, as a phone that does not say it) without."""
    return [{"tap_key": k(n), "version": v, "action": a, "made_at": 1, "offline": True,
             **({"hand": h} if with_hand else {})} for n, (a, v, h) in enumerate(taps, start=1)]


def to_hand_3(client, variant):
    """A new match whose hands 1 and 2 are over (version 2, hand 3)."""
    path, match_id, _key = new_match(client, variant, **NAMES)
    for version, action in enumerate([won(0), won(1)]):
        assert act(client, path, action, version, headers=HX).status_code == 200
    return path, match_id


#: ``(phone B's taps in hand 3, phone A's taps kept offline in hand 3 as (action, version, hand),
#: what applying them refuses (by code), what is stored after hands 1 and 2)``.
SCENARIOS = {
    # The measurement: A, offline in hand 3, records "¡Truco!" (Ellos) and "No quiero" (Nosotros);
    # B records "Ganó la mano (Nosotros)". Apply put both of A's taps into hand 4.
    "measured": ([won(0)], [(truco(1), 2, 3), (no_quiero(0), 3, 3)],
                 ["hand_over", "hand_over"], [won(0)]),
    # B corrected the score and hand 3 goes on: A's taps are judged there, and recorded.
    "hand_goes_on": ([ADJUST0], [(truco(1), 2, 3), (no_quiero(0), 3, 3)],
                     [], [ADJUST0, truco(1), no_quiero(0)]),
    # A played on into hand 4 after its "No quiero": that tap is applied, in hand 4, where it was made.
    "next_hand_applies": ([won(0)], [(truco(1), 2, 3), (no_quiero(0), 3, 3), (won(1), 4, 4)],
                          ["hand_over", "hand_over"], [won(0), won(1)]),
}


@pytest.mark.parametrize("with_hand", [True, False], ids=["hand_given", "hand_from_version"])
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_apply_records_a_tap_only_in_the_hand_it_was_made_in(app, client, variant, scenario, with_hand):
    other, taps, refused, after = SCENARIOS[scenario]
    path, match_id = to_hand_3(client, variant)
    for version, action in enumerate(other, start=2):  # phone B, online
        assert act(client, path, action, version, headers=HX).status_code == 200
    body = {"taps": kept(*taps, with_hand=with_hand)}
    conflict = client.post(path + "/taps", json=body)
    assert conflict.status_code == 409 and conflict.get_json()["pending"] == len(taps)
    answer = client.post(path + "/taps", json={**body, "apply": True}, headers=EN).get_json()
    assert [r["code"] for r in answer["refused"]] == refused
    assert answer["applied"] == len(taps) - len(refused)
    for r in answer["refused"]:
        assert r["error"] == "Made in hand 3, which has ended on the scoreboard: not applied."
    assert stored(app, match_id) == [won(0), won(1), *after]


@pytest.mark.parametrize("headers, message", [
    (PT, "Feito na mão 3, que já terminou no placar: não foi aplicado."),
    (ES, "Hecho en la mano 3, que ya terminó en el tanteador: no se aplicó."),
    (EN, "Made in hand 3, which has ended on the scoreboard: not applied."),
])
def test_a_tap_made_in_a_hand_that_has_ended_is_said_in_the_users_language(client, headers, message):
    path, _match_id = to_hand_3(client, "argentino-30")
    act(client, path, won(0), 2, headers=HX)
    answer = client.post(path + "/taps", json={"taps": kept((truco(1), 2, 3)), "apply": True}, headers=headers)
    assert answer.get_json()["refused"] == [{"tap_key": k(1), "code": "hand_over", "error": message}]


@pytest.mark.parametrize("with_hand", [True, False], ids=["hand_given", "hand_from_version"])
def test_an_undo_in_a_later_chunk_takes_back_the_last_tap_of_the_chunk_before(app, client, with_hand):
    """The phone sends its kept taps in chunks; a later chunk starts with the last tap of the
    chunk before (recorded: ``repeated``). Applied, the Undo that follows takes back that tap,
    this phone's own: once refused with ``undo_not_mine``."""
    path, match_id, _key = new_match(client, "paulista")
    act(client, path, ADJUST0, 0, headers=HX)  # another phone, while A was offline: hand 1 goes on
    taps = kept((truco(0), 0, 1), ({"type": "quiero", "side": 1}, 1, 1), (won(0), 2, 1), (UNDO, 3, 2),
                with_hand=with_hand)
    assert client.post(path + "/taps", json={"taps": taps[:3]}).status_code == 409
    first = client.post(path + "/taps", json={"taps": taps[:3], "apply": True}).get_json()
    assert (first["applied"], first["refused"]) == (3, [])
    second = client.post(path + "/taps", json={"taps": taps[2:], "apply": True}).get_json()
    assert (second["applied"], second["repeated"], second["refused"]) == (1, 1, [])
    assert stored(app, match_id) == [ADJUST0, truco(0), {"type": "quiero", "side": 1}, won(0), UNDO]


def test_an_applied_undo_still_never_takes_back_another_phones_action(app, client):
    path, match_id, _key = new_match(client, "paulista")
    act(client, path, ADJUST0, 0, headers=HX)
    first = client.post(path + "/taps", json={"taps": kept((won(0), 0, 1)), "apply": True}).get_json()
    assert first["applied"] == 1
    # The next chunk: the last tap (recorded), an Undo of it, then an Undo that would take back
    # the other phone's correction.
    taps = kept((won(0), 0, 1), (UNDO, 1, 2), (UNDO, 2, 1))
    second = client.post(path + "/taps", json={"taps": taps, "apply": True}).get_json()
    assert (second["applied"], second["repeated"]) == (1, 1)
    assert [(r["tap_key"], r["code"]) for r in second["refused"]] == [(k(3), "undo_not_mine")]
    assert stored(app, match_id) == [ADJUST0, won(0), UNDO]


def test_a_tap_made_on_the_version_is_never_moved_onto_another_phones_action(migrated_db_url, monkeypatch):
    """Without apply, the taps go on from the match's version, one after the other. If another
    server process stores an action between two of them (its own lock does not hold this one's),
    the rest is a conflict for the player (409), never recorded after that action."""
    apps = [create_app({"TESTING": True, "DATABASE": migrated_db_url, "GHOST_TAP_SECONDS": 0}) for _ in range(2)]
    a, b = (x.test_client() for x in apps)
    path, match_id, _key = new_match(a, "paulista")
    real, calls = tap_upload._record, []

    def other_process_acts_between(*args):
        if len(calls) == 1:  # after A's first tap: phone B, on the other process
            done = threading.Thread(target=lambda: calls.append(act(b, path, ADJUST0, 1, headers=HX).status_code))
            done.start()
            done.join(timeout=30)
        calls.append("tap")
        return real(*args)

    monkeypatch.setattr(tap_upload, "_record", other_process_acts_between)
    taps = kept((truco(0), 0, 1), ({"type": "quiero", "side": 1}, 1, 1), (won(0), 2, 1))
    answer = a.post(path + "/taps", json={"taps": taps})
    assert calls[:3] == ["tap", 200, "tap"]
    assert answer.status_code == 409 and answer.get_json()["pending"] == 2
    assert stored(apps[0], match_id) == [truco(0), ADJUST0]
