"""A variant is data (issue 20 item 3): a throwaway variant built here, from this test alone -- a
new ladder with new call ids, one step worth the game, its own piezas, its own table words, no
Falta Envido and no Contraflor -- is registered in a fixture, played through the engine, the
calculators, the pages (Flask test client) and the CLI (click's CliRunner), then unregistered.
No production file knows it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scorer.cli.main import cli
from scorer.core.calculators import compare_json, envido_json
from scorer.core.card_rules import ARGENTINE_ORDER, CardRules, PiezaRules
from scorer.core.errors import RuleError
from scorer.core.match import Match
from scorer.core.schema import call_ids
from scorer.core.variants import (
    GAME, VARIANTS, EnvidoRules, FlorRules, OptionSpec, TableWords, TrucoStep, Variant, register, unregister,
)
from tests.web_client import EN, act, new_match, version_of

ID = "test-fictional"
PIEZAS = PiezaRules(ranks=(3, 6), points=(40, 35), stand_in=12, turned_up="vira")
WORDS = TableWords(
    shouts={"grito": "Grito!", "regrito": "Regrito!", "todo": "Todo!", "envido": "Envido!", "flor": "Flor!"},
    calls={"grito": "Grito", "regrito": "Regrito", "todo": "Todo", "envido": "Envido", "flor": "Flor"},
    answers={"quiero": "Sí", "no_quiero": "No", "mazo": "Me voy", "no_flor": "Sin flor"},
    flor_answers={},
    accepted="aceptado",
    refused="rechazado",
    tie="empate",
)


@pytest.fixture
def fictional():
    """The throwaway variant, registered for one test."""
    variant = register(Variant(
        id=ID,
        title="Fictional truco",
        description="A variant made up by a test.",
        target=20,
        ends_at_once=True,
        truco_ladder=(TrucoStep("grito", 2, 1), TrucoStep("regrito", 5, 2), TrucoStep("todo", GAME, 5)),
        envido=EnvidoRules({("envido",): 3}, pieces=PIEZAS, falta=False),
        flor=FlorRules(uncontested=5, pieces=PIEZAS, raises=()),
        cards=CardRules(ARGENTINE_ORDER, piezas=PIEZAS),
        table_words=WORDS,
        option_specs=(OptionSpec("target", (20, 10), 20, "Points to win"),),
    ))
    yield variant
    unregister(ID)
    assert ID not in VARIANTS


def test_the_engine_plays_it(fictional):
    assert {"grito", "regrito", "todo"} <= set(call_ids())
    match = Match.replay(ID, {}, 0, [
        {"type": "call", "side": 0, "call": "grito"}, {"type": "no_quiero", "side": 1},          # 1
        {"type": "call", "side": 1, "call": "envido"}, {"type": "quiero", "side": 0},
        {"type": "envido_points", "points": [46, 20]},                                          # 3 (40 + 6 is a count)
        {"type": "call", "side": 0, "call": "grito"}, {"type": "call", "side": 1, "call": "regrito"},
        {"type": "no_quiero", "side": 0},                                                        # 2
        {"type": "call", "side": 1, "call": "flor"}, {"type": "no_flor", "side": 0},             # 5
        {"type": "call", "side": 0, "call": "grito"}, {"type": "call", "side": 1, "call": "regrito"},
        {"type": "call", "side": 0, "call": "todo"}, {"type": "quiero", "side": 1},
        {"type": "trick", "winner": 0}, {"type": "trick", "winner": 0},                          # the game
    ])
    assert (list(match.score), match.winner) == ([20, 7], 0)
    with pytest.raises(RuleError) as caught:
        Match.replay(ID, {}, 0, [{"type": "call", "side": 0, "call": "falta_envido"}])
    assert caught.value.code == "no_such_call"
    with pytest.raises(RuleError) as caught:
        Match.replay(ID, {}, 0, [{"type": "call", "side": 0, "call": "truco"}])
    assert caught.value.code == "no_such_call"


def test_the_calculators_use_its_piezas(fictional):
    # Vira 5 de oros: the 3 de oros is the best card, the 6 the second; 3 de oros counts 40.
    assert compare_json("3o", "1e", variant=ID, vira="5o")["winner"] == "first"
    assert compare_json("6o", "3e", variant=ID, vira="5o")["winner"] == "first"
    assert compare_json("12o", "1e", variant=ID, vira="3o")["winner"] == "first"  # the 12 stands in
    data = envido_json("3o 7b 1e", variant=ID, vira="5o", lang="en")
    assert (data["points"], data["piezas"]) == (47, ["3o"])
    assert [35, 47] in data["possible"]["envido"]  # a pieza (35 or 40) + the best other card


def test_the_pages_show_and_play_it(fictional, client):
    start = client.get("/", headers=EN).get_data(as_text=True)
    assert f'value="{ID}"' in start and "Fictional truco" in start
    path, _id, _key = new_match(client, variant=ID)
    board = client.get(path, headers=EN).get_data(as_text=True)
    assert "Grito!" in board and "Falta" not in board
    r = act(client, path, {"type": "call", "side": 0, "call": "grito"}, version_of(board), headers=EN)
    assert r.status_code in (200, 303)
    board = client.get(path, headers=EN).get_data(as_text=True)
    assert "Regrito!" in board
    api = client.get("/api/variants", headers=EN).get_json()
    assert ID in [v["id"] for v in api]
    r = client.get("/api/envido", query_string={"cards": "3o 7b 1e", "variant": ID, "vira": "5o"})
    assert r.status_code == 200 and r.get_json()["points"] == 47


def test_the_cli_replays_it(fictional, tmp_path):
    actions = tmp_path / "actions.jsonl"
    actions.write_text("\n".join(json.dumps(a) for a in [
        {"type": "call", "side": 0, "call": "grito"}, {"type": "call", "side": 1, "call": "regrito"},
        {"type": "call", "side": 0, "call": "todo"}, {"type": "quiero", "side": 1},
        {"type": "trick", "winner": 1}, {"type": "trick", "winner": 1},
    ]))
    result = CliRunner().invoke(cli, ["replay", "--variant", ID, "--option", "target=10", str(actions)])
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert (state["score"], state["winner"]) == ([0, 10], 1)
    result = CliRunner().invoke(cli, ["compare", "3o", "1e", "--variant", ID, "--vira", "5o", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["winner"] == "first", result.output
    result = CliRunner().invoke(cli, ["envido", "3o", "7b", "1e", "--variant", ID, "--vira", "5o", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["points"] == 47, result.output
