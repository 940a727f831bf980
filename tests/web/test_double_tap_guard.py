"""A finger's double tap must record one action, even when its second tap lands on the board
the first one brought (found by trying to break the app: a new page without JavaScript, a
swapped board with it). Every button carries ``shown``, the server's clock when it rendered
the board; a tap less than ``GHOST_TAP_SECONDS`` after that is refused (409) with a message."""

import re
import time
import types

import pytest

from scorer.web import board, create_app, matches
from tests.web_client import HX, act, new_match


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "web.sqlite3", "GHOST_TAP_SECONDS": 0.35}).test_client()


@pytest.fixture
def frozen(monkeypatch):
    """The scoreboard views' clock, stopped at the present: a board rendered and a tap taken
    in the same test are 0 s apart, however long the machine takes between them (a busy
    machine once took more than the guard's 0.35 s between the page and the tap)."""
    now = round(time.time(), 3)  # to the millisecond, as the pages write it
    stopped = types.SimpleNamespace(time=lambda: now)
    monkeypatch.setattr(matches, "time", stopped)  # the tap's arrival
    monkeypatch.setattr(board, "time", stopped)  # the board's ``shown`` stamp
    return now


def shown_of(html: str) -> str:
    return re.search(r'name="shown" value="([0-9.]+)"', html).group(1)


def test_every_action_button_says_when_its_board_was_shown(client):
    path, _id, _key = new_match(client)
    before = time.time()
    html = client.get(path).get_data(as_text=True)
    after = time.time()
    stamps = set(re.findall(r'name="shown" value="([0-9.]+)"', html))
    assert len(stamps) == 1
    assert round(before, 3) - 0.001 <= float(stamps.pop()) <= round(after, 3) + 0.001


@pytest.mark.parametrize("headers", [{}, HX])
def test_a_tap_right_after_the_board_was_shown_is_not_recorded(client, frozen, headers):
    path, match_id, _key = new_match(client)
    shown = shown_of(client.get(path).get_data(as_text=True))
    response = act(client, path, {"type": "hand_winner", "side": 0}, 0, headers=headers, shown=shown)
    assert response.status_code == 409
    assert "not recorded" in response.get_data(as_text=True) or "não foi registrado" in response.get_data(as_text=True)
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 0


def test_the_second_tap_of_a_double_tap_without_javascript_is_not_recorded(client, frozen):
    """Tap, the page reloads with the new board, and the same finger taps again at once."""
    path, match_id, _key = new_match(client)
    first = act(client, path, {"type": "hand_winner", "side": 0}, 0, shown=f"{frozen - 2:.3f}")
    assert first.status_code == 303
    reloaded = client.get(first.headers["Location"]).get_data(as_text=True)
    second = act(client, path, {"type": "hand_winner", "side": 0}, 1, shown=shown_of(reloaded))
    assert second.status_code == 409
    state = client.get(f"/api/matches/{match_id}").get_json()
    assert state["version"] == 1 and state["score"] == [1, 0]


@pytest.mark.parametrize("shown", [None, "", "garbage", 1.0])  # a number: seconds before the tap
def test_a_tap_on_a_board_shown_a_while_ago_or_without_a_stamp_is_recorded(client, frozen, shown):
    path, match_id, _key = new_match(client)
    if isinstance(shown, float):
        shown = f"{frozen - shown:.3f}"
    extra = {} if shown is None else {"shown": shown}
    assert act(client, path, {"type": "hand_winner", "side": 0}, 0, **extra).status_code == 303
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 1


def test_the_guard_can_be_turned_off(tmp_path):
    client = create_app({"TESTING": True, "DATABASE": tmp_path / "w.sqlite3", "GHOST_TAP_SECONDS": 0}).test_client()
    path, match_id, _key = new_match(client)
    act(client, path, {"type": "hand_winner", "side": 0}, 0, shown=f"{time.time():.3f}")
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 1
