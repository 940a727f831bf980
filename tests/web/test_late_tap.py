"""A tap the page gave up on is never recorded later (found by trying to break the app: a
scorekeeper frozen for ten seconds took the tap its page had already called "not
recorded"). With JavaScript every tap carries ``sent``, the server's clock when it left as
the page reckons it; a tap more than ``LATE_TAP_SECONDS`` old when the server takes it is
refused (409) with a message, and changes nothing."""

import math
import time

import pytest

from scorer.web import create_app, forms
from tests.web_client import HX, act, new_match


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "web.sqlite3", "GHOST_TAP_SECONDS": 0}).test_client()


@pytest.fixture
def frozen(monkeypatch):
    """The server's clock (the scoreboard views' and the store's), stopped at the present: a
    tap's age is what the test says, however long the machine takes to answer it."""
    import types

    from scorer.app.store import actions
    from scorer.web import matches

    now = round(time.time(), 3)  # to the millisecond, as the pages write it
    clock = types.SimpleNamespace(time=lambda: now)
    monkeypatch.setattr(matches, "time", clock)
    monkeypatch.setattr(actions, "time", clock)
    return now


def test_the_server_refuses_a_tap_before_the_page_stops_waiting():
    # The page waits TAP_TIMEOUT_SECONDS; the server leaves one of them for the way back.
    assert forms.TAP_TIMEOUT_SECONDS == 8.0 and forms.LATE_TAP_SECONDS == 7.0


@pytest.mark.parametrize(
    ("sent", "late"),
    [
        (None, None),  # no JavaScript, or the JSON API: the browser waits as long as it takes
        ("", None),
        ("garbage", None),
        ("nan", None),
        ("inf", None),
        ("-inf", None),
        ("993.0", None),  # 7 s old: still in time
        ("994.0", None),  # from "the future" (a page's reckoning a little ahead): in time
        ("1001.0", None),
        ("992.9", pytest.approx(7.1)),  # over 7 s: refused
        ("990.0", 10.0),
        ("0", 1000.0),
    ],
)
def test_late_tap_reads_sent_against_the_servers_clock(sent, late):
    form = {} if sent is None else {"sent": sent}
    assert forms.late_tap(form, now=1000.0) == late


@pytest.mark.parametrize("headers", [{}, HX])
def test_a_tap_that_arrives_after_its_page_gave_up_is_not_recorded(client, frozen, headers):
    path, match_id, _key = new_match(client)
    response = act(client, path, {"type": "hand_winner", "side": 0}, 0, headers=headers, sent=f"{frozen - 10:.3f}")
    assert response.status_code == 409
    text = response.get_data(as_text=True)
    assert "não foi registrado" in text and "10 segundos" in text, text
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 0


def test_a_tap_in_time_is_recorded(client, frozen):
    path, match_id, _key = new_match(client)
    assert act(client, path, {"type": "hand_winner", "side": 0}, 0, sent=f"{frozen - 1:.3f}").status_code == 303
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 1


def test_every_board_says_when_the_server_rendered_it(client):
    path, _id, _key = new_match(client)
    before = time.time()
    html = client.get(path).get_data(as_text=True)
    after = time.time()
    now = float(html.split('data-now="', 1)[1].split('"', 1)[0])
    assert math.isfinite(now) and round(before, 3) - 0.001 <= now <= round(after, 3) + 0.001
    assert '"defaultTimeout": 8000' in html


def test_a_tap_whose_write_waited_too_long_on_the_database_is_not_recorded(client, frozen, monkeypatch):
    """In time when it arrived (1 s old), but its write got the database's lock 8 s later
    (another writer held it): checked again under the lock, refused, nothing stored; the
    next tap is recorded."""
    import types

    from scorer.app.store import actions

    path, match_id, _key = new_match(client)
    in_time = actions.time
    slow = types.SimpleNamespace(time=lambda: frozen + 8)  # the store's clock once it has the lock
    monkeypatch.setattr(actions, "time", slow)
    response = act(client, path, {"type": "hand_winner", "side": 0}, 0, headers=HX, sent=f"{frozen - 1:.3f}")
    assert response.status_code == 409
    assert "não foi registrado" in response.get_data(as_text=True)
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 0
    monkeypatch.setattr(actions, "time", in_time)
    assert act(client, path, {"type": "hand_winner", "side": 0}, 0, sent=f"{frozen:.3f}").status_code == 303
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 1
