"""Venezuelan truco through the JSON API (issue 20 item 2): the variant, its options and counts
in ``GET /api/variants``, a whole match posted action by action, a Falta refused with a 422 in
the user's language, and the Envido calculator with the vira. Values: docs/rules.md §Truco venezolano
(STEEMIT-VE, BUENASTAREAS-VE, OOC-VE)."""

from __future__ import annotations

import json
from pathlib import Path

MATCHES = Path(__file__).resolve().parents[1] / "matches"
ES = {"Accept-Language": "es"}


def test_variants_lists_venezolano_with_its_options_and_counts(client):
    data = {v["id"]: v for v in client.get("/api/variants", headers=ES).get_json()}
    venezolano = data["venezolano"]
    assert venezolano["title"] == "Truco venezolano" and venezolano["target"] == 24
    # Its Falta is an option (what the leader lacks, one convention): no falta nor falta_adds_stake
    # (docs/rules.md §Venezuelan options).
    assert [o["key"] for o in venezolano["options"]] == ["target", "flor_per_player", "flor_vs_flor", "falta_envido"]
    assert venezolano["calls"] == ["truco", "retruco", "vale_nueve", "vale_juego", "envido", "falta_envido", "flor",
                                   "flor_envida"]
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
