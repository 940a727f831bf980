"""A variant is data in one registry (issue 10): a throwaway variant, built in this test from
parts that already exist, plays a hand through the engine, the calculators, the seats and the
web, and no other module has to learn its name.

The throwaway variant: the Argentine ladder and Envido chains (docs/rules.md §Argentine ladder,
§Envido chains), Mineiro's fixed manilhas over 3 2 A K J Q 7 6 5 4 (docs/rules.md §Fixed manilhas), a
target of 20 split in malas and buenas (docs/rules.md §Malas and buenas) and pica-pica at six players. The
expected numbers below follow from those parts: an accepted Truco makes the hand worth 2, an
accepted Envido pays 2, the zap (4 de paus) beats a 3, the malas are the first 10 tentos.
"""

from __future__ import annotations

import re

import pytest

from scorer.core import calculators
from scorer.core.card_order import card_order, compare
from scorer.core.card_rules import MINEIRO_MANILHAS, PLAIN_ORDER, CardRules
from scorer.core.cards import Card
from scorer.core.errors import CardError
from scorer.core.match import Match
from scorer.core.seats import hand_seats
from scorer.core.variants import (
    ARGENTINE_ENVIDO_CHAINS,
    ARGENTINE_LADDER,
    VARIANTS,
    EnvidoRules,
    OptionSpec,
    Variant,
    register,
    unregister,
)
from tests.web_client import act, new_match

HAND = [
    {"type": "call", "side": 0, "call": "envido"},
    {"type": "quiero", "side": 1},
    {"type": "envido_points", "points": [30, 27]},
    {"type": "call", "side": 1, "call": "truco"},
    {"type": "quiero", "side": 0},
    {"type": "trick", "winner": 1},
    {"type": "trick", "winner": 1},
]
"""Envido to side 0 (30 to 27: +2), then the Truco accepted and two tricks to side 1 (+2)."""


@pytest.fixture
def throwaway():
    variant = register(Variant(
        id="truco-de-teste",
        title="Truco de teste",
        description="A variant made of existing parts, for a test.",
        target=20,
        ends_at_once=True,
        truco_ladder=ARGENTINE_LADDER,
        envido=EnvidoRules(ARGENTINE_ENVIDO_CHAINS),
        malas_buenas=True,
        cards=CardRules(PLAIN_ORDER, fixed_manilhas=MINEIRO_MANILHAS),
        pica_pica=True,
        option_specs=(OptionSpec("target", (20, 30), 20, "Points to win"),),
    ))
    yield variant
    unregister(variant.id)
    assert variant.id not in VARIANTS


def test_the_engine_plays_a_hand_of_it(throwaway):
    match = Match(throwaway.id)
    legal = []
    for action in HAND:
        legal.append({a["type"] for a in match.legal_actions()})
        match.apply(action)
    assert "declare_points" in legal[2]
    state = match.state()
    assert state["score"] == [2, 2]
    assert state["stages"] == [{"stage": "malas", "points": 2}, {"stage": "malas", "points": 2}]
    assert state["hand"]["number"] == 2 and state["hand"]["mano"] == 1


def test_the_calculators_and_seats_know_its_cards(throwaway):
    assert compare(Card(4, "b"), Card(3, "e"), throwaway.id) == "first"
    assert card_order(throwaway.id)[:5] == ((Card(4, "b"),), (Card(7, "c"),), (Card(1, "e"),), (Card(7, "o"),),
                                             (Card(3, "e"), Card(3, "b"), Card(3, "c"), Card(3, "o")))
    assert calculators.manilha_json(None, variant=throwaway.id)["manilhas"] == ["4b", "7c", "1e", "7o"]
    assert calculators.compare_json("zap", "3e", variant=throwaway.id)["winner"] == "first"
    assert throwaway.id in calculators.manilha_variants()
    with pytest.raises(CardError) as info:
        card_order(throwaway.id, vira=5)
    assert info.value.code == "vira_not_used"
    six = [["A1", "A2", "A3"], ["B1", "B2", "B3"]]
    assert hand_seats(six, 0, 2, variant=throwaway.id, score=[0, 0], target=20).round == "pica-pica"


def test_the_web_offers_it_and_scores_it(client, throwaway):
    assert throwaway.id in {v["id"] for v in client.get("/api/variants").get_json()}
    assert f'value="{throwaway.id}"' in client.get("/").get_data(as_text=True)
    path, match_id, _key = new_match(client, throwaway.id)
    for version, action in enumerate(HAND):
        if action["type"] == "envido_points":  # the board offers the points form, up to 33 (docs/rules.md §Envido count)
            assert re.search(r'name="points0"[^>]*max="33"', client.get(path).get_data(as_text=True))
        assert act(client, path, action, version).status_code == 303
    state = client.get(f"/api/matches/{match_id}").get_json()
    assert state["variant"] == throwaway.id and state["score"] == [2, 2]
    html = client.get(path).get_data(as_text=True)
    assert re.search(r'id="score0"[^>]*>2<', html) and re.search(r'id="score1"[^>]*>2<', html)
    page = client.get(f"/manilha?variant={throwaway.id}").get_data(as_text=True)
    assert f'value="{throwaway.id}" checked' in page and "Truco de teste" in page
    assert client.get(f"/api/manilha?variant={throwaway.id}").get_json()["manilhas"] == ["4b", "7c", "1e", "7o"]
