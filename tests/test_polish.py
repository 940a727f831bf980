"""What a first-time user tripped over: pages without JavaScript, words shown to people,
answers to a Flor, the Revanche seen from another phone, the Envido answer's place,
and the translation catalogs (Flask test client; the layout checks are in
tests/browser/test_polish_layout.py)."""

from __future__ import annotations

import json
import re

import pytest

from scorer.web import create_app

HX = {"HX-Request": "true"}
PT = {"Accept-Language": "pt-BR,pt;q=0.9"}
ES = {"Accept-Language": "es-AR,es;q=0.9"}
EN = {"Accept-Language": "en-US,en;q=0.9"}


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "web.sqlite3"})


@pytest.fixture
def client(app):
    return app.test_client()


def new_match(client, variant="paulista", **fields):
    data = {"variant": variant, "name0": "Nós", "name1": "Eles", "mano": "0", **fields}
    r = client.post("/matches", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)
    path = r.headers["Location"]
    _, _, match_id, key = path.split("/")
    return path, match_id, key


def act(client, path, action, version):
    r = client.post(path + "/actions", data={"action": json.dumps(action), "version": str(version)})
    assert r.status_code in (200, 303), r.get_data(as_text=True)


def finish(client, path, side=0, version=0):
    act(client, path, {"type": "adjust", "side": side, "delta": 12}, version)


# -- 7. the Revanche seen from the other phone ---------------------------------------------


def test_the_finished_scoreboard_links_to_the_revanche_once_another_phone_started_it(client):
    path, match_id, _key = new_match(client)
    finish(client, path)
    before = client.get(path, headers=PT).get_data(as_text=True)
    assert 'id="revanche"' in before and 'id="go-rematch"' not in before
    new_path = client.post(path + "/revanche").headers["Location"]  # phone A
    # Phone B, still on the finished match: its poll brings the link, and so does a reload.
    fragment = client.get(path + "/board?version=1&rematch=0", headers={**HX, **PT}).get_data(as_text=True)
    page = client.get(path, headers=PT).get_data(as_text=True)
    for html in (fragment, page):
        assert f'id="go-rematch" href="{new_path}"' in html
        assert "Ir para a Revanche" in html
        assert 'id="revanche"' not in html
    # Phone B follows it and lands on the same Revanche, which it can record on.
    r = client.get(new_path, headers=PT)
    assert r.status_code == 200 and 'id="game-over"' not in r.get_data(as_text=True)
