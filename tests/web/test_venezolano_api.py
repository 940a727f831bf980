"""Venezuelan truco through the JSON API (issue 20 item 2): the variant, its options and counts
in ``GET /api/variants``, a whole match posted action by action, a Falta refused with a 422 in
the user's language, and the Envido calculator with the vira. Values: docs/rules.md §Truco venezolano
(STEEMIT-VE, BUENASTAREAS-VE, OOC-VE)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

MATCHES = Path(__file__).resolve().parents[1] / "matches"
ES = {"Accept-Language": "es"}


def test_variants_lists_venezolano_with_its_options_and_counts(client):
    data = {v["id"]: v for v in client.get("/api/variants", headers=ES).get_json()}
    venezolano = data["venezolano"]
    assert venezolano["title"] == "Truco venezolano" and venezolano["target"] == 24
    # Its Falta is an option (what the leader lacks, one convention): no falta nor falta_adds_stake
    # (docs/rules.md §Venezuelan options).
    assert [o["key"] for o in venezolano["options"]] == ["target", "flor_per_player", "flor_vs_flor", "falta_envido"]
    # "N más", the open Envido raise, is a call of the variant (docs/rules.md §Open Envido raises).
    assert venezolano["calls"] == ["truco", "retruco", "vale_nueve", "vale_juego", "envido", "envido_mas",
                                   "falta_envido", "flor", "flor_envida"]
    assert json.dumps(venezolano).count("37")  # perico 30 + 7 is a count an Envido may declare


def test_a_whole_match_through_the_api(client):
    r = client.post("/api/matches", json={"variant": "venezolano", "names": ["Ana", "Beto"], "mano": 0})
    assert r.status_code == 201, r.get_json()
    match = r.get_json()
    version = match["state"]["version"]
    lines = (MATCHES / "venezolano_vale_juego_ends_game.jsonl").read_text().splitlines()
    for line in lines:
        r = client.post(f"/api/matches/{match['id']}/actions", json={"action": json.loads(line), "version": version},
                        headers={"X-Edit-Key": match["edit_key"]})
        assert r.status_code == 200, r.get_json()
        version = r.get_json()["version"]
    state = client.get(f"/api/matches/{match['id']}").get_json()
    assert (state["score"], state["winner"]) == ([17, 24], 1)


def test_no_falta_envido_is_a_clear_422(client):
    match = client.post("/api/matches", json={"variant": "venezolano"}).get_json()
    r = client.post(f"/api/matches/{match['id']}/actions",
                    json={"action": {"type": "call", "side": 0, "call": "falta_envido"}, "version": 0},
                    headers={"X-Edit-Key": match["edit_key"], **ES})
    body = r.get_json()
    assert r.status_code == 422 and body["error"]["code"] == "no_such_call"
    assert "falta_envido" not in body["error"]["allowed"] and "truco" in body["error"]["allowed"]


def test_envido_calculator_with_the_vira(client):
    r = client.get("/api/envido", query_string={"cards": "11o 7b 1e", "variant": "venezolano", "vira": "4o"})
    assert r.status_code == 200 and (r.get_json()["points"], r.get_json()["piezas"]) == (37, ["11o"])
    r = client.get("/api/envido", query_string={"cards": "11o 7b 1e", "variant": "venezolano", "vira": "4"},
                   headers=ES)
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "missing_suit"  # the vira needs its suit


def _venezolano_with_envido(client):
    """A venezolano match where side 0 called Envido: (match, version)."""
    match = client.post("/api/matches", json={"variant": "venezolano"}).get_json()
    r = client.post(f"/api/matches/{match['id']}/actions",
                    json={"action": {"type": "call", "side": 0, "call": "envido"}, "version": 0},
                    headers={"X-Edit-Key": match["edit_key"]})
    assert r.status_code == 200
    return match, r.get_json()["version"]


def test_an_open_raise_through_the_api(client):
    """Envido, then "tres más" accepted and won: 2 + 3 = 5 (docs/rules.md §Open Envido raises)."""
    match, version = _venezolano_with_envido(client)
    for action in ({"type": "call", "side": 1, "call": "envido_mas", "amount": 3}, {"type": "quiero", "side": 0},
                   {"type": "envido_winner", "side": 1}):
        r = client.post(f"/api/matches/{match['id']}/actions", json={"action": action, "version": version},
                        headers={"X-Edit-Key": match["edit_key"], **ES})
        assert r.status_code == 200, r.get_json()
        version = r.get_json()["version"]
    state = client.get(f"/api/matches/{match['id']}", headers=ES).get_json()
    assert state["score"] == [0, 5]
    assert state["log"][1]["action"] == {"type": "call", "side": 1, "call": "envido_mas", "amount": 3}
    assert state["log"][1]["text"].endswith("¡Tres más!")
    assert state["log"][-1]["text"].startswith("Envido, tres más: querido, +5 ")
    # Found by trying it as a player: the answer's line said "0 más querido"; it names the raise.
    assert state["log"][2]["text"].startswith("Tres más querido por "), state["log"][2]["text"]


@pytest.mark.parametrize("before", [[], [{"type": "call", "side": 0, "call": "envido"}],
                                    [{"type": "call", "side": 0, "call": "envido"},
                                     {"type": "call", "side": 1, "call": "envido_mas", "amount": 3}]])
def test_a_falta_envido_waiting_for_its_answer_keeps_the_match_readable(client, before):
    """Found by trying to break it: with the Falta Envido option, a Falta called (alone, over an
    Envido, over an open raise) was recorded and then every read of the match answered 500 (the
    legal actions asked how far a chain ending in the Falta could still be raised). Nothing is
    raised over a Falta (docs/rules.md §Open Envido raises): the match reads, its board offers the
    answers and no "N más", and the refusal pays what stood before the Falta."""
    match = client.post("/api/matches", json={"variant": "venezolano", "options": {"falta_envido": True}}).get_json()
    version, key = 0, {"X-Edit-Key": match["edit_key"]}
    side = 1 if len(before) % 2 else 0
    for action in [*before, {"type": "call", "side": side, "call": "falta_envido"}]:
        r = client.post(f"/api/matches/{match['id']}/actions", json={"action": action, "version": version}, headers=key)
        assert r.status_code == 200, r.get_json()
        version = r.get_json()["version"]
    state = client.get(f"/api/matches/{match['id']}")
    assert state.status_code == 200
    assert not [a for a in state.get_json()["legal_actions"] if a.get("call") == "envido_mas"]
    assert client.get(f"/m/{match['id']}/{match['edit_key']}").status_code == 200
    assert client.get(f"/w/{match['id']}").status_code == 200
    r = client.post(f"/api/matches/{match['id']}/actions", headers=key,
                    json={"action": {"type": "no_quiero", "side": 1 - side}, "version": version})
    assert r.status_code == 200 and r.get_json()["score"][side] == [1, 2, 5][len(before)], r.get_json()


@pytest.mark.parametrize(("amount", "message"), [
    # docs/rules.md §Open Envido raises: a whole number from 1 to what takes the side furthest behind
    # to the target (24 - 0 - 2 = 22 after an Envido at 0-0).
    (0, "Un aumento del Envido es un número entero de puntos, 1 o más."),
    (-3, "Un aumento del Envido es un número entero de puntos, 1 o más."),
    ("3", "Un aumento del Envido es un número entero de puntos, 1 o más."),
    (2.5, "Un aumento del Envido es un número entero de puntos, 1 o más."),
    (True, "Un aumento del Envido es un número entero de puntos, 1 o más."),
    (None, "Un aumento del Envido es un número entero de puntos, 1 o más."),
    (10**9, "Un aumento del Envido es un número entero de puntos, 1 o más."),
    (23, "23 más es demasiado: el Envido se puede subir 22 como mucho, hasta lo que le falta para el juego "
         "al equipo que va más atrás."),
])
def test_a_bad_amount_is_refused_in_the_users_language_and_changes_nothing(client, amount, message):
    match, version = _venezolano_with_envido(client)
    before = client.get(f"/api/matches/{match['id']}").get_json()
    r = client.post(f"/api/matches/{match['id']}/actions",
                    json={"action": {"type": "call", "side": 1, "call": "envido_mas", "amount": amount},
                          "version": version},
                    headers={"X-Edit-Key": match["edit_key"], **ES})
    body = r.get_json()
    assert (r.status_code, body["error"]["code"], body["error"]["message"]) == (422, "bad_amount", message)
    assert client.get(f"/api/matches/{match['id']}").get_json() == before


def test_an_amount_on_another_call_is_refused(client):
    match, version = _venezolano_with_envido(client)
    r = client.post(f"/api/matches/{match['id']}/actions",
                    json={"action": {"type": "call", "side": 1, "call": "envido", "amount": 3}, "version": version},
                    headers={"X-Edit-Key": match["edit_key"], **ES})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "bad_amount"
    assert "Envido" in r.get_json()["error"]["message"]
