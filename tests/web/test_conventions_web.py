"""The table conventions of issue 20 at the edges: the start page shows each option only for
the variants it applies to, with its one line in pt, es and en; ``GET /api/variants`` lists
them; a match created with one (form or JSON API) scores by it. Expected points: docs/rules.md
(the section named beside each case), worked by hand."""

from __future__ import annotations

import pytest

from scorer.web import create_app
from tests.web_client import EN, ES, HX, PT, act, new_match, version_of

NEW_OPTIONS = ("falta_adds_stake", "flor_per_player", "envido_repeat")


@pytest.fixture
def client(migrated_db_url):
    return create_app({"TESTING": True, "DATABASE": migrated_db_url}).test_client()


@pytest.mark.parametrize(
    ("variant", "present", "absent"),
    [
        ("argentino-30", ["falta_adds_stake", "flor_per_player"], ["envido_repeat"]),
        ("uruguaio", ["falta_adds_stake", "flor_per_player", "envido_repeat"], []),
        ("truco-15", ["falta", "falta_adds_stake"], ["flor_per_player", "envido_repeat"]),
        ("gauderio", ["falta", "falta_adds_stake", "flor_per_player"], ["envido_repeat"]),
        ("paulista", [], ["falta", *NEW_OPTIONS]),
        ("mineiro", [], ["falta", *NEW_OPTIONS]),
        ("truc", [], ["falta", *NEW_OPTIONS]),
    ],
)
def test_each_option_only_where_it_applies(client, variant, present, absent):
    html = client.get(f"/options?variant={variant}", headers=HX).get_data(as_text=True)
    for key in present:
        assert f'name="{key}"' in html
    for key in absent:
        assert f'name="{key}"' not in html


@pytest.mark.parametrize(
    ("headers", "texts"),
    [
        (PT, ["Uma Flor por jogador (mesas de 4 ou 6)", "cada uma sem resposta paga 3",
              "O Envido pode ser cantado de novo", "Cada Envido soma 2, nunca além da Falta",
              "A Falta Envido soma o Envido aceito antes dela", "pagam 2 + a Falta",
              "o que falta ao vencedor para sair das malas", "o que falta ao perdedor para o jogo"]),
        (ES, ["Una Flor por jugador (mesas de 4 o 6)", "cada una sin respuesta paga 3",
              "El Envido se puede cantar una y otra vez", "Cada Envido suma 2, nunca más que la Falta",
              "La Falta Envido suma el Envido querido antes", "pagan 2 + la Falta",
              "lo que le falta al ganador para salir de las malas", "lo que le falta al perdedor para el partido"]),
        (EN, ["One Flor per player (tables of 4 or 6)", "each one unanswered pays 3",
              "Envido may be called again and again", "Each Envido adds 2, never past the Falta",
              "Falta Envido adds the Envido accepted before it", "pays 2 + the Falta",
              "what the winner lacks to end the malas", "what the loser lacks for the game"]),
    ],
)
def test_options_and_their_lines_in_each_language(client, headers, texts):
    html = client.get("/options?variant=uruguaio", headers={**HX, **headers}).get_data(as_text=True)
    for text in texts:
        assert text in html
    assert html.count('class="option-help"') == 4  # falta and the three yes/no conventions


def test_api_variants_lists_the_options_with_their_line(client):
    data = {v["id"]: v for v in client.get("/api/variants", headers=EN).get_json()}
    options = {o["key"]: o for o in data["uruguaio"]["options"]}
    assert options["falta"]["choices"] == ["malas_wins_game", "leader_stage", "whole_game", "winner_stage", "loser_lacks"]
    assert options["envido_repeat"] == {
        "key": "envido_repeat", "label": "Envido may be called again and again",
        "help": "Each Envido adds 2, never past the Falta; refused, it pays what was accepted before.",
        "choices": [False, True], "default": False,
    }
    assert options["mazo_primera"]["default"] is False  # docs/rules.md §Folding in the first trick
    assert {o["key"] for o in data["argentino-30"]["options"]} >= {"falta_adds_stake", "flor_per_player"}
    assert "winner_stage" in {c for o in data["argentino-30"]["options"] if o["key"] == "falta" for c in o["choices"]}
    assert [o["choices"] for o in data["truco-15"]["options"] if o["key"] == "falta"] == [["target_minus_leader", "loser_lacks"]]
    assert not any(o["key"] in NEW_OPTIONS for o in data["paulista"]["options"])


def api_match(client, variant, options):
    r = client.post("/api/matches", json={"variant": variant, "options": options, "names": ["Nós", "Eles"], "mano": 0})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def api_play(client, match, actions):
    state = match["state"]
    for action in actions:
        r = client.post(f"/api/matches/{match['id']}/actions", json={"action": action, "version": state["version"]},
                        headers={"X-Edit-Key": match["edit_key"]})
        assert r.status_code == 200, r.get_json()
        state = r.get_json()
    return state


def call(side, name):
    return {"type": "call", "side": side, "call": name}


API_CASES = [
    # variant, options, actions, expected score, docs/rules.md section
    ("argentino-30", {"flor": True, "flor_per_player": True},
     [call(0, "flor"), call(0, "flor"), {"type": "no_flor", "side": 1}], [6, 0]),  # §One Flor per player
    ("uruguaio", {"envido_repeat": True},
     [call(0, "envido"), call(1, "envido"), call(0, "envido"), {"type": "quiero", "side": 1},
      {"type": "envido_winner", "side": 1}], [0, 6]),  # §Repeated Envido
    ("argentino-30", {"falta_adds_stake": True},
     [call(0, "envido"), call(1, "falta_envido"), {"type": "quiero", "side": 0},
      {"type": "envido_winner", "side": 0}], [17, 0]),  # §Falta adds the stake: 2 + 15
    ("argentino-30", {"falta": "winner_stage"},
     [{"type": "adjust", "side": 0, "delta": 14}, call(0, "falta_envido"), {"type": "quiero", "side": 1},
      {"type": "envido_winner", "side": 1}], [14, 15]),  # §Falta Envido, D: 15 - 0
    ("argentino-30", {"falta": "loser_lacks"},
     [{"type": "adjust", "side": 0, "delta": 12}, {"type": "adjust", "side": 1, "delta": 9}, call(0, "falta_envido"),
      {"type": "quiero", "side": 1}, {"type": "envido_winner", "side": 1}], [12, 27]),  # §Falta Envido, E: 30 - 12
    ("uruguaio", {}, [{"type": "mazo", "side": 0}], [0, 1]),  # §Folding in the first trick
]


@pytest.mark.parametrize(("variant", "options", "actions", "expected"), API_CASES)
def test_json_api_scores_by_the_option(client, variant, options, actions, expected):
    match = api_match(client, variant, options)
    assert {k: match["state"]["options"][k] for k in options} == options
    assert api_play(client, match, actions)["score"] == expected


def test_json_api_refuses_an_option_where_it_does_not_apply(client):
    r = client.post("/api/matches", json={"variant": "argentino-30", "options": {"envido_repeat": True}})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "bad_option"


def test_the_form_creates_a_flor_per_player_match(client):
    path, match_id, _key = new_match(client, "uruguaio", flor_per_player="True")
    for action in (call(1, "flor"), call(1, "flor"), {"type": "no_flor", "side": 0}):
        html = client.get(path, headers=PT).get_data(as_text=True)
        assert act(client, path, action, version_of(html), headers=PT).status_code in (200, 303)
    state = client.get(f"/api/matches/{match_id}").get_json()
    assert state["options"]["flor_per_player"] is True
    assert state["score"] == [0, 6]  # docs/rules.md §One Flor per player: 3 each


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", "Envido haría valer el Envido 4, más que la Falta Envido (2)"),
        ("pt-BR", "mais que a Falta Envido (2)"),
        ("en", "more than the Falta Envido's 2"),
    ],
)
def test_an_envido_past_the_falta_is_refused_naming_the_falta_in_the_tables_language(client, lang, words):
    """docs/rules.md §Repeated Envido: at 28-0 (Falta 2) a second Envido (4) is refused, and the
    message names the Falta (issue 33: it said "Envido cannot answer Envido")."""
    match = api_match(client, "uruguaio", {"envido_repeat": True})
    api_play(client, match, [{"type": "adjust", "side": 0, "delta": 28}, call(0, "envido")])
    state = client.get(f"/api/matches/{match['id']}").get_json()
    r = client.post(f"/api/matches/{match['id']}/actions", json={"action": call(1, "envido"), "version": state["version"]},
                    headers={"Accept-Language": lang, "X-Edit-Key": match["edit_key"]})
    error = r.get_json()["error"]
    assert r.status_code == 422 and error["code"] == "bad_raise"
    assert words in error["message"] and "falta_envido" in error["allowed"], error["message"]
    assert client.get(f"/api/matches/{match['id']}").get_json()["version"] == state["version"]  # nothing changed


def test_a_seated_two_against_two_table_sings_at_most_two_flores_a_side(client):
    """docs/rules.md §One Flor per player: with the seats given (2 v 2) a third Flor of a side is
    refused, also after the match is read back from the store (issue 33 item 5)."""
    r = client.post("/api/matches", json={"variant": "argentino-30", "options": {"flor": True, "flor_per_player": True},
                                          "players": [["Ana", "Bia"], ["Caio", "Duda"]], "mano": 0})
    assert r.status_code == 201, r.get_json()
    match = r.get_json()
    state = api_play(client, match, [call(0, "flor"), call(0, "flor")])
    r = client.post(f"/api/matches/{match['id']}/actions", json={"action": call(0, "flor"), "version": state["version"]},
                    headers={"X-Edit-Key": match["edit_key"]})
    assert r.status_code == 422, r.get_json()
    assert api_play(client, {**match, "state": state}, [{"type": "no_flor", "side": 1}])["score"] == [6, 0]
