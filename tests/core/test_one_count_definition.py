"""Issue 13 item 1: the calculator and the match agree on what is possible.

For every three-card hand (and, with a muestra, every muestra), whatever Envido or Flor
count the calculator reports, a match of each variant accepts; and every count a match
accepts is reported for some hand. The right values come from the rule texts:

* docs/rules.md §Envido count: Envido 0-7 (highest single card) or 20-33 (20 + a suited pair).
* docs/rules.md §Flor count: Flor 20 + three of a suit, 20-38; a hand with a Flor in play sings its
  Flor, not Envido.
* docs/rules.md §Envido count with a muestra: with a muestra a pieza is worth 27-30; Envido = pieza + best other card
  (27-37); two piezas, or one pieza and two of a suit, make a Flor (20-47; 47 at most).
"""

from functools import lru_cache
from itertools import combinations

import pytest

from scorer.cli.cards_cli import envido_json
from scorer.core.cards import DECK
from scorer.core.envido_points import envido_points, possible_counts
from scorer.core.errors import RuleError
from scorer.core.match import Match

ALL_HANDS = list(combinations(DECK, 3))

# Written from the rule texts above, not from running the code.
ENVIDO_PLAIN = {*range(0, 8), *range(20, 34)}
ENVIDO_MUESTRA = {*range(0, 8), *range(20, 38)}
FLOR_PLAIN = set(range(20, 39))
FLOR_MUESTRA = set(range(20, 48))


@lru_cache(maxsize=None)
def reported(*, flor: bool, muestra: bool) -> tuple[frozenset[int], frozenset[int]]:
    """Every Envido and Flor count the calculator reports over all hands (and muestras)."""
    envido, flores = set(), set()
    muestras = DECK if muestra else [None]
    for shown in muestras:
        for cards in ALL_HANDS:
            if shown is not None and shown in cards:
                continue
            result = envido_points(cards, flor=flor, muestra=shown)
            if result.points is not None:
                envido.add(result.points)
            if result.flor_points is not None:
                flores.add(result.flor_points)
    return frozenset(envido), frozenset(flores)


@pytest.fixture(scope="module")
def muestra_counts():
    return reported(flor=True, muestra=True)


def test_the_rule_texts_ranges_are_the_definition():
    assert possible_counts("envido") == ENVIDO_PLAIN
    assert possible_counts("envido", muestra=True) == ENVIDO_MUESTRA
    assert possible_counts("flor") == FLOR_PLAIN
    assert possible_counts("flor", muestra=True) == FLOR_MUESTRA


def test_every_hand_without_muestra_reports_exactly_the_possible_counts():
    envido, flores = reported(flor=False, muestra=False)
    assert envido == ENVIDO_PLAIN and not flores
    envido, flores = reported(flor=True, muestra=False)
    assert envido == ENVIDO_PLAIN  # 7 + 6 suited with a third card of another suit: 33
    assert flores == FLOR_PLAIN


def test_every_hand_and_muestra_reports_exactly_the_possible_counts(muestra_counts):
    envido, flores = muestra_counts
    assert envido == ENVIDO_MUESTRA
    assert flores == FLOR_MUESTRA


def awaiting(variant, options, flor):
    """A match waiting for the Envido (or Flor) comparison's points."""
    script = (
        [{"type": "call", "side": 0, "call": "flor"}, {"type": "call", "side": 1, "call": "flor"}]
        if flor and variant != "gauderio"
        else [{"type": "call", "side": 0, "call": "flor"}, {"type": "call", "side": 1, "call": "contraflor"}]
        if flor
        else [{"type": "call", "side": 0, "call": "envido"}, {"type": "quiero", "side": 1}]
    )
    return Match.replay(variant, options, 0, script)


def accepted(variant, options, flor):
    out = set()
    for number in range(-1, 60):
        match = awaiting(variant, options, flor)
        try:
            match.apply({"type": "envido_points", "points": [number, number]})
        except RuleError as error:
            assert error.code == "bad_points"
            continue
        out.add(number)
    return out


VARIANT_CASES = [
    # variant, options, muestra, flor in play
    ("truco-15", {}, False, False),
    ("argentino-30", {}, False, False),
    ("argentino-30", {"flor": True}, False, True),
    ("gauderio", {}, False, True),
    ("uruguaio", {}, True, True),
]


@pytest.mark.parametrize(("variant", "options", "muestra", "flor"), VARIANT_CASES)
def test_the_match_accepts_exactly_what_the_calculator_reports(variant, options, muestra, flor, muestra_counts):
    envido, flores = muestra_counts if muestra else reported(flor=flor, muestra=False)
    assert accepted(variant, options, False) == envido
    if flor:
        assert accepted(variant, options, True) == flores


def test_the_issue_example_two_piezas_are_a_flor():
    """`truco envido 2o 4o 7c --muestra 6o`: docs/rules.md §Envido count with a muestra, a Flor of 46, no Envido 39."""
    data = envido_json("2o 4o 7c", muestra="6o")
    assert data["points"] is None
    assert data["flor_points"] == 46
    match = awaiting("uruguaio", {}, True)
    match.apply({"type": "envido_points", "points": [46, 30]})
    assert list(match.score) == [4, 0]  # flor vs flor compared: 4 to the better (docs/rules.md §Flor values)
    assert data["possible"] == {"envido": [[0, 7], [20, 37]], "flor": [[20, 47]]}


@pytest.mark.parametrize(
    ("variant", "options", "script", "counts"),
    [
        ("truco-15", {}, "0:envido 1:quiero", [[0, 7], [20, 33]]),
        ("uruguaio", {}, "0:envido 1:quiero", [[0, 7], [20, 37]]),
        ("uruguaio", {}, "0:flor 1:flor", [[20, 47]]),
        ("argentino-30", {"flor": True}, "0:flor 1:flor", [[20, 38]]),
        ("truco-15", {}, "0:envido", None),
    ],
)
def test_the_state_says_which_counts_are_accepted(variant, options, script, counts):
    from tests.engine_notation import play

    assert play(variant, script, options=options).state()["hand"]["counts"] == counts


def test_the_board_points_form_takes_its_limits_from_the_definition(client):
    from tests.web_client import act, new_match

    path, _id, _key = new_match(client, "truco-15")
    act(client, path, {"type": "call", "side": 0, "call": "envido"}, 0)
    act(client, path, {"type": "quiero", "side": 1}, 1)
    html = client.get(path).get_data(as_text=True)
    assert 'name="points0" min="0" max="33"' in html


def test_the_api_lists_each_variants_counts(client):
    variants = {v["id"]: v["counts"] for v in client.get("/api/variants").get_json()}
    assert variants["truco-15"] == {"envido": [[0, 7], [20, 33]], "flor": None}
    assert variants["uruguaio"] == {"envido": [[0, 7], [20, 37]], "flor": [[20, 47]]}
    assert variants["gauderio"] == {"envido": [[0, 7], [20, 33]], "flor": [[20, 38]]}
    assert variants["paulista"] == {"envido": None, "flor": None}
