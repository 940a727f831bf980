"""Issue 13 item 10: the smaller holes (the API's series and players are in
tests/web/test_names_and_polls.py; the wide card token in tests/core/test_cards_any_language.py)."""

import json
import re
import select
import socket

import pytest

from tests.live_server import Server
from tests.web_client import EN, PT, act, new_match


def test_no_reload_while_envido_points_are_typed(client):
    """Without JavaScript the board reloads every 5 s; not while the points are typed."""
    path, _id, _key = new_match(client, "truco-15")
    assert 'http-equiv="refresh"' in client.get(path, headers=EN).get_data(as_text=True)
    act(client, path, {"type": "call", "side": 0, "call": "envido"}, 0)
    act(client, path, {"type": "quiero", "side": 1}, 1)
    html = client.get(path, headers=EN).get_data(as_text=True)
    assert 'name="points0"' in html  # the form to type the points is shown
    assert 'http-equiv="refresh"' not in html
    act(client, path, {"type": "envido_winner", "side": 0}, 2)
    assert 'http-equiv="refresh"' in client.get(path, headers=EN).get_data(as_text=True)


def test_the_offline_note_says_a_tap_waits_on_the_phone_and_is_sent_once_answered(client):
    """Issue 24 replaced "a tap made now is not recorded and not sent again" (what this test
    asserted before) by the pending taps: the note says the new rule."""
    path, _id, _key = new_match(client, "truco-15")
    html = client.get(path, headers=PT).get_data(as_text=True)
    note = re.search(r'<p id="offline".*?</p>', html, re.S).group(0)
    assert "Tentando de novo" not in note
    assert "espera neste celular" in note and "é enviado assim que o marcador responder" in note
    assert "não é enviado de novo" not in note


def test_a_finished_game_shows_its_own_game_number_after_the_revanche(client):
    path, _id, _key = new_match(client, "paulista", best_of="3")
    act(client, path, {"type": "adjust", "side": 0, "delta": 12}, 0)
    assert "game 1" in client.get(path, headers=EN).get_data(as_text=True)
    new_path = client.post(path + "/revanche").headers["Location"]
    old = client.get(path, headers=EN).get_data(as_text=True)
    series = re.search(r'<p class="series" id="series">(.*?)</p>', old, re.S).group(1)
    assert "game 1" in series and "game 2" not in series
    act(client, new_path, {"type": "adjust", "side": 1, "delta": 12}, 0)
    old = client.get(path, headers=EN).get_data(as_text=True)
    series = re.search(r'<p class="series" id="series">(.*?)</p>', old, re.S).group(1)
    assert "game 1" in series
    assert '<b id="series0">1</b> × <b id="series1">0</b>' in series  # the tally as of game 1
    new = client.get(new_path, headers=EN).get_data(as_text=True)
    assert "game 2" in re.search(r'<p class="series" id="series">(.*?)</p>', new, re.S).group(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("holes") / "t.sqlite3")
    yield s
    s.stop()


def raw_request(port, data):
    """Send ``data`` in pieces, stopping once the server answers (it may answer and close
    before the whole request is sent), then read the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        for start in range(0, len(data), 16_384):
            if select.select([sock], [], [], 0)[0]:
                break
            try:
                sock.sendall(data[start:start + 16_384])
            except (BrokenPipeError, ConnectionResetError):
                break
        out = b""
        try:
            while chunk := sock.recv(65536):
                out += chunk
        except ConnectionResetError:
            pass
    head, _, body = out.partition(b"\r\n\r\n")
    return head.decode("latin-1"), body


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /api/variants HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\nConnection: close\r\n\r\n",
        b"GET /api/variants?" + b"a" * 300_000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ],
)
def test_oversized_requests_are_answered_in_json(server, request_bytes):
    head, body = raw_request(server.port, request_bytes)
    assert head.startswith("HTTP/1.") and " 431 " in head.split("\r\n")[0]
    assert "application/json" in head.lower()
    error = json.loads(body)["error"]
    assert error["code"] == "too_large" and error["message"]


def test_an_oversized_body_is_json_too(server):
    body = b'{"x":"' + b"a" * 100_000 + b'"}'
    head, answer = raw_request(server.port, b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                               b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
    assert " 413 " in head.split("\r\n")[0]
    assert json.loads(answer)["error"]["code"] == "too_large"
