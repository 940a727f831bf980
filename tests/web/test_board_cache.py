"""scorer/web/hosting/board_cache.py: a poll's new board rendered once for the phones of a table,
the same answer as a fresh render but for the time it was shown."""

from __future__ import annotations

import json
import re

import pytest

from scorer.web import create_app

HX = {"HX-Request": "true"}
NOW = re.compile(r'(data-now|name="shown" value)="[0-9.]+"')


def pair(tmp_path):
    """One database served with and without the cache: ``(plain, cached, app)``."""
    base = {"TESTING": True, "DATABASE": tmp_path / "b.sqlite3", "GHOST_TAP_SECONDS": 0}
    cached = create_app(base)
    return create_app({**base, "BOARD_CACHE_SIZE": 0}).test_client(), cached.test_client(), cached


def tap(client, path, version, action=None):
    form = {"action": json.dumps(action or {"type": "hand_winner", "side": 0}), "version": str(version)}
    assert client.post(path + "/actions", data=form, headers=HX).status_code == 200


def new_match(client) -> str:
    made = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    return f"/m/{made['id']}/{made['edit_key']}"


def same(a, b) -> bool:
    """Equal answers once the time each was shown is blanked."""
    return (a.status_code, NOW.sub("", a.get_data(as_text=True)), a.headers.get("Vary")) == (
        b.status_code, NOW.sub("", b.get_data(as_text=True)), b.headers.get("Vary"))


@pytest.mark.parametrize("change", [
    None,
    lambda c, p: tap(c, p, 1),  # a new action: a new version
    lambda c, p: c.post("/api/matches/" + p.split("/")[2] + "/names", json={"names": ["Ana", "Bia"]},
                        headers={"X-Edit-Key": p.split("/")[3]}),  # renamed: the same version, a new tag
])
@pytest.mark.parametrize("language", ["pt-BR", "es", "en"])
def test_a_kept_board_is_the_board_a_fresh_render_gives(tmp_path, monkeypatch, change, language):
    import itertools
    import types

    from scorer.web.hosting import board_cache

    clock = itertools.count(2_000_000_000)
    monkeypatch.setattr(board_cache, "time", types.SimpleNamespace(time=lambda: float(next(clock))))
    plain, cached, app = pair(tmp_path)
    path = new_match(plain)
    tap(plain, path, 0)
    if change is not None:
        cached.get(path + "/board?version=0&rematch=0", headers={**HX, "Accept-Language": language})  # kept
        change(plain, path)
    headers = {**HX, "Accept-Language": language}
    answers = [cached.get(path + "/board?version=0&rematch=0", headers=headers) for _ in range(3)]
    fresh = plain.get(path + "/board?version=0&rematch=0", headers=headers)
    assert all(same(a, fresh) for a in answers)
    assert app.extensions["truco_board_cache"].hits >= 2  # the second and third phones: kept
    kept = [a.get_data(as_text=True) for a in answers[1:]]
    # Each kept answer says when it was shown, everywhere the guard reads it.
    assert 'data-now="2000000000.000"' in kept[0] and 'data-now="2000000001.000"' in kept[1]
    assert 'name="shown" value="2000000001.000"' in kept[1] and "2000000000.000" not in kept[1]


def test_a_finished_board_is_rendered_every_time(tmp_path):
    _plain, cached, app = pair(tmp_path)
    path = new_match(cached)
    tap(cached, path, 0, {"type": "adjust", "side": 0, "delta": 12})  # 12 points: the match ends
    assert cached.get("/api/matches/" + path.split("/")[2]).get_json()["winner"] == 0
    for _ in range(3):
        assert cached.get(path + "/board?version=0&rematch=0", headers=HX).status_code == 200
    assert app.extensions["truco_board_cache"].hits == 0


def test_the_language_and_the_key_are_part_of_what_is_kept(tmp_path):
    _plain, cached, _app = pair(tmp_path)
    path = new_match(cached)
    tap(cached, path, 0)
    pt = cached.get(path + "/board?version=0", headers={**HX, "Accept-Language": "pt-BR"}).get_data(as_text=True)
    en = cached.get(path + "/board?version=0", headers={**HX, "Accept-Language": "en"}).get_data(as_text=True)
    assert NOW.sub("", pt) != NOW.sub("", en)
    wrong = cached.get(path[:-3] + "xyz/board?version=0", headers=HX)
    assert wrong.status_code == 403  # the key is checked before anything is kept or given


def test_a_taps_own_board_is_kept_for_the_other_phones(tmp_path):
    """The board a tap answers with is the one the table's other phones poll for next: they
    all get it kept (no new render), the same as a fresh render."""
    plain, cached, app = pair(tmp_path)
    path = new_match(cached)
    tap(cached, path, 0)
    answers = [cached.get(path + "/board?version=0&rematch=0", headers=HX) for _ in range(3)]
    fresh = plain.get(path + "/board?version=0&rematch=0", headers=HX)
    assert all(same(a, fresh) for a in answers)
    cache = app.extensions["truco_board_cache"]
    assert (cache.hits, cache.misses) == (3, 0)


@pytest.mark.parametrize("answer", [
    {"version": "0", "action": json.dumps({"type": "adjust", "side": 0, "delta": 12})},  # the game ends
    {"version": "7", "action": json.dumps({"type": "hand_winner", "side": 0})},  # stale: 409
])
def test_a_taps_board_that_may_not_be_kept_is_not(tmp_path, answer):
    _plain, cached, app = pair(tmp_path)
    path = new_match(cached)
    cached.post(path + "/actions", data=answer, headers=HX)
    assert app.extensions["truco_board_cache"].items == {}


def test_a_taps_kept_board_is_never_given_once_another_server_moved_the_match(tmp_path):
    """Two app processes on one database: the board one kept from its own tap is not given
    after the other recorded a tap; each poll reads the stored version first."""
    _plain, here, app = pair(tmp_path)
    there = create_app({"TESTING": True, "DATABASE": tmp_path / "b.sqlite3", "GHOST_TAP_SECONDS": 0}).test_client()
    path = new_match(here)
    tap(here, path, 0)  # kept here at version 1
    tap(there, path, 1, {"type": "hand_winner", "side": 1})  # version 2, on the other server
    for shown in (0, 1):
        answer = here.get(path + f"/board?version={shown}&rematch=0", headers=HX)
        assert answer.status_code == 200 and 'data-version="2"' in answer.get_data(as_text=True)
    assert here.get(path + "/board?version=2&rematch=0", headers=HX).status_code == 204
    assert app.extensions["truco_board_cache"].hits == 1  # the second poll: version 2, kept by the first


def test_phones_that_ask_at_once_get_one_rendering(tmp_path):
    """Pushed phones ask for the new board together (issue 34): the first renders it, the
    others wait for that rendering and get it kept, the same board."""
    import threading

    from flask import make_response

    from scorer.app import store
    from scorer.web.db import get_db
    from scorer.web.hosting import board_cache

    _plain, cached, app = pair(tmp_path)
    path = new_match(cached)
    match_id, key = path.split("/")[2:4]
    cache = app.extensions["truco_board_cache"]
    waiter_arrived, renders = threading.Event(), []
    claim = cache.rendering

    def rendering(wanted):  # the waiter's claim lets the renderer finish
        underway = claim(wanted)
        if underway is not None:
            waiter_arrived.set()
        return underway

    cache.rendering = rendering

    def render(row, key):
        renders.append(row.version)
        assert waiter_arrived.wait(30), "the second phone never asked"
        return make_response(f'<div data-version="{row.version}" data-now="1.000"></div>', 200)

    answers: list[str] = []

    def phone():
        with app.test_request_context(path + "/board?version=0", headers=HX):
            row = store.get_match(get_db(), match_id)
            answers.append(board_cache.poll_board(row, key, render).get_data(as_text=True))

    phones = [threading.Thread(target=phone) for _ in range(2)]
    for one in phones:
        one.start()
    for one in phones:
        one.join(60)
    assert renders == [0] and len(answers) == 2
    assert all(a.startswith('<div data-version="0" data-now="') for a in answers)
    assert cache.underway == {}
