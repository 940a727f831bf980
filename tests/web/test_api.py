"""The JSON API with the Flask test client."""

from __future__ import annotations

import pytest

from scorer.core.variants import VARIANTS
from scorer.cli import cards_cli
from scorer.web import create_app


@pytest.fixture
def client(migrated_db_url):
    """On both backends: a SQLite file and PostgreSQL (issue 12)."""
    return create_app({"TESTING": True, "DATABASE": migrated_db_url}).test_client()


def create(client, **body):
    body = {"variant": "paulista", "options": {"all_pardas": "mano"}, "names": ["Nós", "Eles"], "mano": 0, **body}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def post(client, match, action, version, key=None):
    headers = {"X-Edit-Key": match["edit_key"] if key is None else key}
    return client.post(f"/api/matches/{match['id']}/actions", json={"action": action, "version": version}, headers=headers)


def test_create_answers_201_with_links_and_state(client, monkeypatch):
    # A machine with no other address than loopback: the request's own name stays (issue #14).
    monkeypatch.setattr("scorer.app.addresses.lan_addresses", lambda: [])
    m = create(client)
    assert set(m) >= {"id", "edit_key", "edit_url", "watch_url", "state"}
    assert m["edit_url"] == f"http://localhost/m/{m['id']}/{m['edit_key']}"
    assert m["watch_url"] == f"http://localhost/w/{m['id']}"
    state = m["state"]
    assert state["id"] == m["id"] and state["version"] == 0
    assert state["variant"] == "paulista" and state["options"] == {"all_pardas": "mano"}
    assert state["score"] == [0, 0] and state["names"] == ["Nós", "Eles"]


def test_create_defaults_names_in_the_users_language(client):
    r = client.post("/api/matches", json={"variant": "truco-15"}, headers={"Accept-Language": "es"})
    assert r.status_code == 201 and r.get_json()["state"]["names"] == ["Nosotros", "Ellos"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "poker"}, "bad_variant"),
        ({"variant": "paulista", "options": {"flor": True}}, "bad_option"),
        ({"variant": "paulista", "mano": 3}, "bad_side"),
        ({"variant": "paulista", "options": []}, "unprocessable"),
        ({"variant": "paulista", "names": ["only one"]}, "unprocessable"),
    ],
)
def test_create_refuses_bad_settings_with_422(client, body, code):
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] == code


def test_create_refuses_non_json(client):
    r = client.post("/api/matches", data="nope", content_type="application/json")
    assert r.status_code == 422 and r.get_json()["error"]["message"]


def test_get_state_and_404(client):
    m = create(client)
    r = client.get(f"/api/matches/{m['id']}")
    assert r.status_code == 200 and r.get_json()["version"] == 0
    r = client.get("/api/matches/nope")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"


def test_action_applies_and_answers_the_new_state(client):
    m = create(client)
    r = post(client, m, {"type": "call", "side": 0, "call": "truco"}, 0)
    assert r.status_code == 200
    state = r.get_json()
    assert state["version"] == 1 and state["hand"]["pending"] == {"call": "truco", "side": 0}
    r = post(client, m, {"type": "no_quiero", "side": 1}, 1)
    assert r.get_json()["score"] == [1, 0]
    assert client.get(f"/api/matches/{m['id']}").get_json()["version"] == 2


@pytest.mark.parametrize("key", ["", "wrong", None])
def test_action_needs_the_edit_key(client, key):
    m = create(client)
    headers = {} if key is None else {"X-Edit-Key": key}
    r = client.post(f"/api/matches/{m['id']}/actions", json={"action": {"type": "undo"}, "version": 0}, headers=headers)
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "forbidden"


def test_stale_version_is_409_with_the_current_state(client):
    m = create(client)
    post(client, m, {"type": "hand_winner", "side": 0}, 0)
    r = post(client, m, {"type": "hand_winner", "side": 1}, 0)
    assert r.status_code == 409
    body = r.get_json()
    assert body["error"]["code"] == "stale_version" and body["state"]["version"] == 1
    assert body["state"]["score"] == [1, 0]


def test_repeated_request_records_once(client):
    m = create(client)
    action = {"type": "hand_winner", "side": 0}
    assert post(client, m, action, 0).status_code == 200
    r = post(client, m, action, 0)
    # A retry (or another phone with the same tap) is told it was already recorded, and
    # gets the state, so every client can tell which request counted.
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "already_recorded"
    assert r.get_json()["state"]["version"] == 1 and r.get_json()["state"]["score"] == [1, 0]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"action": {"type": "quiero", "side": 1}, "version": 0}, "no_pending_call"),
        ({"action": {"type": "fold"}, "version": 0}, "bad_action"),
        ({"action": "truco", "version": 0}, "bad_action"),
        ({"action": {"type": "undo"}}, "unprocessable"),
        ({"action": {"type": "undo"}, "version": "0"}, "unprocessable"),
        ([1, 2], "unprocessable"),
    ],
)
def test_illegal_or_malformed_action_is_422(client, body, code):
    m = create(client)
    r = client.post(f"/api/matches/{m['id']}/actions", json=body, headers={"X-Edit-Key": m["edit_key"]})
    assert r.status_code == 422
    err = r.get_json()["error"]
    assert err["message"] and (code == "unprocessable" or err["code"] != "")
    if code not in ("unprocessable", "no_pending_call"):
        assert err["code"] == code


def test_engine_errors_are_translated(client):
    m = create(client)
    r = client.post(
        f"/api/matches/{m['id']}/actions",
        json={"action": {"type": "undo"}, "version": 0},
        headers={"X-Edit-Key": m["edit_key"], "Accept-Language": "pt-BR"},
    )
    assert r.status_code == 422 and r.get_json()["error"]["message"] == "Não há nada para desfazer."


def test_action_on_unknown_match_is_404(client):
    r = client.post("/api/matches/nope/actions", json={"action": {"type": "undo"}, "version": 0}, headers={"X-Edit-Key": "k"})
    assert r.status_code == 404


def test_variants(client):
    data = client.get("/api/variants", headers={"Accept-Language": "en"}).get_json()
    ids = [v["id"] for v in data]
    assert ids == list(VARIANTS)
    paulista = data[ids.index("paulista")]
    assert [o["key"] for o in paulista["options"]] == ["all_pardas"]
    assert paulista["description"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("cards=7o 6o 5c", cards_cli.envido_json("7o 6o 5c", lang="pt")),
        ("cards=7o 6o 5o&flor=1", cards_cli.envido_json("7o 6o 5o", flor=True, lang="pt")),
    ],
)
def test_envido_json_is_the_clis(client, query, expected):
    r = client.get("/api/envido?" + query, headers={"Accept-Language": "pt-BR"})
    assert r.status_code == 200 and r.get_json() == expected


def test_manilha_json_is_the_clis(client):
    r = client.get("/api/manilha?vira=3&deck=limpo", headers={"Accept-Language": "pt-BR"})
    assert r.get_json() == cards_cli.manilha_json("3", deck="limpo", lang="pt")
    r = client.get("/api/manilha?variant=mineiro&vira=", headers={"Accept-Language": "pt-BR"})
    assert r.status_code in (200, 422)


@pytest.mark.parametrize("url", ["/api/envido?cards=8o 1e 2e", "/api/envido?cards=", "/api/manilha?vira=zz"])
def test_bad_cards_are_422(client, url):
    r = client.get(url)
    assert r.status_code == 422 and r.get_json()["error"]["message"]


def test_api_method_not_allowed_is_json(client):
    r = client.get("/api/matches")
    assert r.status_code == 405 and r.get_json()["error"]["code"] == "method_not_allowed"


def test_edit_url_from_a_loopback_host_uses_the_lan_address(client, monkeypatch):
    """Issue #14: a phone cannot open ``localhost``; the API's links name the machine's LAN address."""
    monkeypatch.setattr("scorer.app.addresses.lan_addresses", lambda: ["192.168.1.23", "10.0.0.5"])
    m = client.post("/api/matches", json={"variant": "paulista"}, headers={"Host": "localhost:8000"}).get_json()
    assert m["edit_url"] == f"http://192.168.1.23:8000/m/{m['id']}/{m['edit_key']}"
    assert m["watch_url"] == f"http://192.168.1.23:8000/w/{m['id']}"
