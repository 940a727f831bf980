"""Venezuelan truco (``venezolano``): its ladder, Envido, Flor, target and cards, as rule tables.

Expected values from the public sources (docs/rules.md §Truco venezolano): the steemit post "El truco
venezolano" (STEEMIT-VE) and buenastareas "Como jugar al truco (Venezuela)" (BUENASTAREAS-VE) give
truco 3 / refused 1, retruco 6 / 3, vale nueve 9 / 6, vale juego the game / 9, Envido 2 / 1,
"quiero y envido" 4 / 2, Flor 3, a game to 24 (or 12), the perico (11 of the vira's suit) and the
perica (10) on top of the Argentine order, the 12 standing in for either when it is the vira;
the oocities rules page (OOC-VE) and the issue give the perico 30 and the perica 29 for Envido.
Where they are silent (Falta Envido, Contraflor, two piezas) the choices are the project's,
stated in docs/rules.md §Truco venezolano.
"""

import pytest

from scorer.core.calculators import compare_json, envido_json
from scorer.core.card_order import card_order, compare
from scorer.core.cards import Card
from scorer.core.envido_points import envido_points, possible_counts
from scorer.core.errors import CardError, RuleError
from scorer.core.variants import get_variant
from tests.engine_notation import play

V = "venezolano"

# The whole match tests/matches/venezolano_vale_juego_ends_game.jsonl (expected.json: 17-24, side 1
# wins), hand by hand from the values below: 1) truco refused, +1 side 0 (1-0); 2) Envido and
# "quiero y envido" accepted, 37 beats 33, +4 side 1; vale nueve refused, +6 side 0 (7-4); 3) Flor
# unanswered +3 side 0, the hand with no call won by side 1, +1 (10-5); 4) truco accepted, Envido
# refused +1 side 1, retruco accepted and won by side 0, +6 (16-6); 5) no call, won 2-1 by side 0,
# +1 (17-6); 6) vale juego accepted and won by side 1: the game (17-24).

LADDER = [
    # script, expected score (STEEMIT-VE; BUENASTAREAS-VE)
    ("w0", [1, 0]),                                                   # a hand with no call: 1
    ("0:truco 1:no_quiero", [1, 0]),                                  # truco refused: 1
    ("0:truco 1:quiero w1", [0, 3]),                                  # truco: 3
    ("0:truco 1:retruco 0:no_quiero", [0, 3]),                        # retruco refused: 3
    ("0:truco 1:retruco 0:quiero w0", [6, 0]),                        # retruco: 6
    ("0:truco 1:retruco 0:vale_nueve 1:no_quiero", [6, 0]),           # vale nueve refused: 6
    ("0:truco 1:retruco 0:vale_nueve 1:quiero w1", [0, 9]),           # vale nueve: 9
    ("0:truco 1:retruco 0:vale_nueve 1:vale_juego 0:no_quiero", [0, 9]),  # vale juego refused: 9
]


@pytest.mark.parametrize(("script", "expected"), LADDER)
def test_ladder(script, expected):
    assert list(play(V, script).score) == expected


@pytest.mark.parametrize(("before", "target"), [("", 24), ("a0+20 a1+23", 24)])
def test_vale_juego_accepted_is_the_game(before, target):
    """Vale juego is worth "the whole game" (STEEMIT-VE): its winner reaches the target at once."""
    match = play(V, f"{before} 0:truco 1:retruco 0:vale_nueve 1:vale_juego 0:quiero w0".strip())
    assert match.winner == 0 and match.score[0] == target


def test_vale_juego_in_a_game_to_12():
    match = play(V, "0:truco 1:retruco 0:vale_nueve 1:vale_juego 0:quiero w1", options={"target": 12})
    assert (match.winner, list(match.score)) == (1, [0, 12])


def test_target_24_or_12():
    spec = {s.key: s for s in get_variant(V).option_specs}["target"]
    assert (get_variant(V).target, spec.choices) == (24, (24, 12))
    assert play(V, "a0+23 w0").winner == 0
    assert play(V, "a0+11 w0", options={"target": 12}).winner == 0


ENVIDO = [
    # script, expected score (STEEMIT-VE: envido 2 / 1, "quiero y envido" 4 / 2)
    ("0:envido 1:no_quiero", [1, 0]),
    ("0:envido 1:quiero ep30-31", [0, 2]),
    ("0:envido 1:envido 0:no_quiero", [0, 2]),
    ("0:envido 1:envido 0:quiero ep33-21", [4, 0]),
    ("0:flor 1:no_flor", [3, 0]),                                     # Flor 3
]


@pytest.mark.parametrize(("script", "expected"), ENVIDO)
def test_envido_and_flor(script, expected):
    assert list(play(V, script).score) == expected


@pytest.mark.parametrize(
    ("script", "call", "code"),
    [
        ("", "0:falta_envido", "no_such_call"),         # no Falta Envido (sources name none)
        ("", "0:real_envido", "no_such_call"),
        ("0:envido", "1:falta_envido", "no_such_call"),
        ("0:envido 1:envido", "0:envido", "bad_raise"),  # "quiero y envido" is the last raise
        ("0:flor", "1:contraflor", "no_such_call"),      # no Contraflor (sources name none)
        ("", "0:vale_cuatro", "no_such_call"),
    ],
)
def test_calls_the_variant_leaves_out(script, call, code):
    with pytest.raises(RuleError) as caught:
        play(V, f"{script} {call}".strip())
    assert caught.value.code == code


def test_legal_calls_are_the_variants():
    calls = {a["call"] for a in play(V, "").legal_actions() if a["type"] == "call"}
    assert calls == {"truco", "envido", "flor"}


# --- cards: perico and perica -----------------------------------------------------------------

def c(code: str) -> Card:
    return Card(int(code[:-1]), code[-1])


@pytest.mark.parametrize(
    ("vira", "perico", "perica"),
    [
        ("7o", "11o", "10o"),    # the 11 and the 10 of the vira's suit
        ("11c", "12c", "10c"),   # the vira is the 11: the 12 is the perico
        ("10e", "11e", "12e"),   # the vira is the 10: the 12 is the perica
    ],
)
def test_perico_and_perica_top_the_order(vira, perico, perica):
    order = card_order(V, vira=c(vira))
    assert [level[0].code for level in order[:2]] == [perico, perica]
    # then the Argentine order: 1 espada, 1 basto, 7 espada, 7 oro (docs/rules.md §Truco venezolano)
    assert [level[0].code for level in order[2:6]] == ["1e", "1b", "7e", "7o"]


@pytest.mark.parametrize(
    ("first", "second", "vira", "winner"),
    [
        ("11o", "1e", "4o", "first"),   # perico beats the 1 de espadas
        ("10o", "1e", "4o", "first"),   # perica too
        ("11o", "10o", "4o", "first"),  # perico beats perica
        ("11e", "1e", "4o", "second"),  # an 11 of another suit is an ordinary 11
        ("12c", "1e", "11c", "first"),  # the 12 stands in for the perico turned up
    ],
)
def test_compare(first, second, vira, winner):
    assert compare(c(first), c(second), V, vira=c(vira)) == winner


def test_vira_needs_its_suit_and_no_muestra():
    with pytest.raises(CardError) as caught:
        card_order(V, vira=7)
    assert caught.value.code == "vira_required"
    with pytest.raises(CardError) as caught:
        card_order(V, vira=c("7o"), muestra=c("4o"))
    assert caught.value.code == "muestra_not_used"


ENVIDO_POINTS = [
    # hand, vira, envido, flor (OOC-VE; docs/rules.md §Truco venezolano: perico + 7 of its suit = 37)
    ("11o 7b 1e", "4o", 37, None),         # perico 30 + the best other card 7
    ("10o 5b 2c", "4o", 34, None),         # perica 29 + 5
    ("7c 6c 1e", "4o", 33, None),          # no pieza: 20 + 7 + 6
    ("12o 3b 2c", "11o", 33, None),        # the 12 stands in for the perico: 30 + 3
    ("11o 10o 5b", "4o", None, 44),        # two piezas: a Flor, 30 + 9 + 5
    ("11o 6c 5c", "4o", None, 41),         # one pieza and two of a suit: a Flor, 30 + 6 + 5
]


@pytest.mark.parametrize(("hand", "vira", "envido", "flor"), ENVIDO_POINTS)
def test_envido_points_with_perico_and_perica(hand, vira, envido, flor):
    pieces = get_variant(V).cards.piezas
    result = envido_points([c(x) for x in hand.split()], muestra=c(vira), pieces=pieces, flor=True)
    assert (result.points, result.flor_points) == (envido, flor)
    assert (envido or flor) in (possible_counts("envido", pieces=pieces) | possible_counts("flor", pieces=pieces))


def test_envido_calculator_reads_the_variant():
    data = envido_json("11o 7b 1e", variant=V, vira="4o", lang="es")
    assert (data["points"], data["piezas"], data["flor"]) == (37, ["11o"], False)
    assert compare_json("11o", "1e", variant=V, vira="4o")["winner"] == "first"


def test_declared_points_accept_the_perico_counts():
    # 37 (perico + 7) is a count a Venezuelan hand can declare; 38 is not an Envido.
    assert list(play(V, "0:envido 1:quiero ep37-30").score) == [2, 0]
    with pytest.raises(RuleError):
        play(V, "0:envido 1:quiero ep38-30")


def test_options_the_variant_has():
    """Its Falta is an option worth what the leader lacks, so no ``falta`` nor ``falta_adds_stake``;
    its chain already has the second Envido, so no ``envido_repeat``; Flor is always in play, so
    ``flor_per_player`` and ``flor_vs_flor`` (docs/rules.md §Truco venezolano, §Venezuelan options)."""
    assert [s.key for s in get_variant(V).option_specs] == ["target", "flor_per_player", "flor_vs_flor", "falta_envido"]


@pytest.mark.parametrize(
    ("options", "script", "expected"),
    [
        ({"flor_per_player": True}, "0:flor 0:flor 1:no_flor", [6, 0]),   # 3 for each Flor
        ({}, "0:flor 1:no_flor", [3, 0]),
    ],
)
def test_one_flor_per_player(options, script, expected):
    assert list(play(V, script, options=options).score) == expected


def test_one_flor_a_side_by_default():
    with pytest.raises(RuleError):
        play(V, "0:flor 0:flor")


# --- the Venezuelan options (issue 33; docs/rules.md §Venezuelan options) -------------------------

FLOR_VS_FLOR = [
    # options, script, expected score, source
    ({}, "0:flor 1:flor ep33-30", [3, 0]),               # per_flor (default): the better Flor alone, 3 (BUENASTAREAS-VE)
    ({}, "0:flor 1:flor ep30-33", [0, 3]),
    ({}, "0:flor 1:quiero ew1", [0, 3]),                 # "con flor quiero" is compared the same way
    ({"flor_per_player": True}, "0:flor 0:flor 1:flor ew0", [6, 0]),  # two allied Flores against one: 6 (GH-GIAMPIGA test)
    ({"flor_per_player": True}, "0:flor 0:flor 1:flor ew1", [0, 3]),  # the lone Flor wins: its 3
    ({"flor_vs_flor": "compared"}, "0:flor 1:flor ew0", [4, 0]),      # the Argentine 4 (docs/rules.md §Flor values)
    ({"flor_vs_flor": "compared", "flor_per_player": True}, "0:flor 0:flor 1:flor ew1", [0, 7]),  # 4 + 3 (§One Flor per player)
    ({}, "0:flor 1:no_flor", [3, 0]),                    # unanswered: 3, as before (STEEMIT-VE)
]


@pytest.mark.parametrize(("options", "script", "expected"), FLOR_VS_FLOR)
def test_flor_against_flor(options, script, expected):
    assert list(play(V, script, options=options).score) == expected


def test_a_match_stored_before_the_option_keeps_the_compared_flor():
    stored = {"target": 24, "flor_per_player": False}   # what a venezolano match stored before issue 33
    options = get_variant(V).options_before(stored)
    assert options["flor_vs_flor"] == "compared" and "falta_envido" not in options
    assert list(play(V, "0:flor 1:flor ew0", options=options).score) == [4, 0]


FALTA = [
    # script, expected score: the Falta is what the leader lacks for the game (GH-GIAMPIGA test
    # "Envido, Quiero y Envido, N más y Falta": at 3-5 to 24 it is worth 19; at 23-9, 1)
    ("a0+3 a1+5 0:falta_envido 1:quiero ep33-30", [22, 5]),
    ("a0+3 a1+5 0:falta_envido 1:quiero ep30-33", [3, 24]),
    ("a0+23 a1+9 1:falta_envido 0:quiero ep20-33", [23, 10]),
    ("0:falta_envido 1:no_quiero", [1, 0]),                          # refused alone: 1
    ("0:envido 1:envido 0:falta_envido 1:no_quiero", [4, 0]),         # refused: what was bet before it, 4
]


@pytest.mark.parametrize(("script", "expected"), FALTA)
def test_the_falta_envido_option(script, expected):
    assert list(play(V, script, options={"falta_envido": True}).score) == expected


FLOR_ENVIDA = [
    # options, script, expected score: "mi flor envida" adds 2 to the Flor exchange; refused, it pays
    # what was bet before it (GH-GIAMPIGA RULES.md: "La apuesta inicial incluye 3 de Flor; envidarla
    # suma 2. Si se rechaza un aumento, se paga lo ya apostado.")
    ({}, "0:flor 1:flor_envida 0:quiero ew1", [0, 5]),                    # 3 + 2
    ({}, "0:flor 1:flor_envida 0:quiero ep30-38", [0, 5]),
    ({}, "0:flor 1:flor_envida 0:no_quiero", [0, 3]),                     # the Flor's 3
    ({}, "0:flor 1:flor_envida 0:flor_envida 1:quiero ew0", [7, 0]),      # 3 + 2 + 2
    ({}, "0:flor 1:flor_envida 0:flor_envida 1:no_quiero", [5, 0]),       # 3 + 2 bet before
    ({"flor_vs_flor": "compared"}, "0:flor 1:flor_envida 0:quiero ew1", [0, 6]),  # 4 + 2
    ({"flor_per_player": True}, "0:flor 0:flor 1:flor_envida 0:quiero ew0", [8, 0]),  # two Flores, 6, + 2
]


@pytest.mark.parametrize(("options", "script", "expected"), FLOR_ENVIDA)
def test_mi_flor_envida(options, script, expected):
    assert list(play(V, script, options=options).score) == expected


@pytest.mark.parametrize(("script", "call", "code"), [
    ("", "0:flor_envida", "no_flor_pending"),                 # it answers a Flor
    ("0:flor", "0:flor_envida", "own_call"),                  # not its own
    ("0:flor 1:flor_envida", "1:flor_envida", "own_call"),
])
def test_mi_flor_envida_answers_the_other_sides_flor(script, call, code):
    with pytest.raises(RuleError) as caught:
        play(V, f"{script} {call}".strip())
    assert caught.value.code == code


# --- the open Envido raise, "N más" (docs/rules.md §Open Envido raises) ----------------------------

OPEN_RAISES = [
    # options, script, expected score. BUENASTAREAS-VE: "se puede devolver el envido sumando cuantos
    # puntos se desee"; GH-GIAMPIGA's test "Envido, Quiero y Envido, N más y Falta": Envido 2, "quiero y
    # envido" 4 (refused 2), 3 más 7, then the Falta (19 at 3-5 to 24) refused pays the 7 bet before it.
    ({}, "0:envido 1:envido_mas+3 0:quiero ew1", [0, 5]),                       # 2 + 3
    ({}, "0:envido 1:envido_mas+3 0:no_quiero", [0, 2]),                        # refused: the Envido's 2
    ({}, "0:envido 1:envido 0:envido_mas+3 1:quiero ew0", [7, 0]),              # 4 + 3 (GH-GIAMPIGA: 7)
    ({}, "0:envido 1:envido 0:envido_mas+3 1:no_quiero", [4, 0]),               # refused: the 4 before it
    ({}, "0:envido 1:envido_mas+1 0:envido_mas+5 1:no_quiero", [3, 0]),         # again and again: 2 + 1 stood
    ({}, "0:envido 1:envido_mas+1 0:envido_mas+5 1:quiero ep33-30", [8, 0]),    # 2 + 1 + 5
    ({}, "0:envido 1:envido_mas+22 0:quiero ew1", [0, 24]),                     # up to the game: 2 + 22 = 24
    ({"falta_envido": True}, "a0+3 a1+5 0:envido 1:envido 0:envido_mas+3 1:falta_envido 0:no_quiero", [3, 12]),
    ({"falta_envido": True}, "a0+3 a1+5 0:envido 1:envido 0:envido_mas+3 1:falta_envido 0:quiero ep30-33",
     [3, 24]),                                                                  # the Falta, 19, replaces the 7
    ({}, "0:envido 1:envido_mas+3 0:flor 1:no_flor", [3, 0]),                   # a Flor cancels it (§Flor cancels Envido)
]


@pytest.mark.parametrize(("options", "script", "expected"), OPEN_RAISES)
def test_open_envido_raises(options, script, expected):
    assert list(play(V, script, options=options).score) == expected


@pytest.mark.parametrize(("options", "script", "call", "code"), [
    # docs/rules.md §Open Envido raises: at least 1, at most what takes the side furthest behind to the
    # target; it answers the other side's Envido; after it, N más again or the Falta, which must raise it.
    ({}, "0:envido", "1:envido_mas+23", "bad_amount"),            # 2 + 23 passes the 24 the game leaves
    ({}, "a0+20 a1+23 0:envido", "1:envido_mas+3", "bad_amount"),  # 24 - 20 - 2: 2 at most
    ({}, "a0+22 a1+23 0:envido", "1:envido_mas+1", "top_reached"),  # 2 already takes 22 to 24
    ({}, "0:envido", "1:envido_mas+0", "bad_amount"),
    ({}, "0:envido", "1:envido_mas", "bad_amount"),                # no amount
    ({}, "", "0:envido_mas+3", "bad_raise"),                       # no Envido to raise
    ({}, "0:envido", "0:envido_mas+3", "own_call"),
    ({}, "0:envido 1:envido_mas+3", "0:envido", "bad_raise"),      # after it: N más or the Falta
    ({"falta_envido": True}, "a1+20 0:envido 1:envido_mas+5", "0:falta_envido", "bad_raise"),  # Falta 4 < 7
    ({}, "0:envido", "1:truco+3", "bad_amount"),                   # an amount is the open raise's only
])
def test_open_envido_raise_bounds(options, script, call, code):
    with pytest.raises(RuleError) as caught:
        play(V, f"{script} {call}".strip(), options=options)
    assert caught.value.code == code


def test_open_raises_are_venezuelan_only():
    with pytest.raises(RuleError) as caught:
        play("argentino-30", "0:envido 1:envido_mas+3")
    assert caught.value.code == "no_such_call"


def test_legal_actions_offer_every_amount_with_its_stake():
    """After an Envido at 0-0, side 1 may raise by 1 to 22 (2 + 22 = 24); each offer's points are the
    chain's worth if accepted (2 + N)."""
    offers = [a for a in play(V, "0:envido").legal_actions() if a.get("call") == "envido_mas"]
    assert [(a["side"], a["amount"], a["points"]) for a in offers] == [(1, n, 2 + n) for n in range(1, 23)]
    assert not [a for a in play(V, "0:envido 1:envido_mas+3").legal_actions() if a.get("call") == "envido"]
