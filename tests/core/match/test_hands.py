"""Tricks, pardas, the mano, special hands at 11 (or 10) and the end of the game.

Expected numbers: docs/rules.md §Pardas, §Special hands (§Mão de onze, §Mão de dez, §The Catalan 11)
and §Reaching the target, from the rule texts of each variant as that file cites them.
"""

import pytest

from scorer.core.errors import RuleError
from scorer.core.match import decide_hand
from tests.engine_notation import play

P = None  # parda

DECIDE_CASES = [
    # tricks, mano, all_pardas, (decided, winner)
    ([0], 0, "mano", (False, None)),
    ([0, 0], 1, "mano", (True, 0)),  # two clear wins
    ([1, P], 0, "mano", (True, 1)),  # a win and a parda
    ([P, 1], 0, "mano", (True, 1)),  # a parda and a win
    ([0, 1], 0, "mano", (False, None)),  # 1-1: the third decides
    ([0, 1, 1], 0, "mano", (True, 1)),
    ([1, 0, P], 0, "mano", (True, 1)),  # 1-1 then parda: winner of the first trick
    ([P, P], 0, "mano", (False, None)),
    ([P, P, 0], 1, "mano", (True, 0)),
    ([P, P, P], 1, "mano", (True, 1)),  # all pardas: the mano (docs/rules.md §Pardas)
    ([P, P, P], 1, "nobody", (True, None)),  # docs/rules.md §Pardas: the hand is void
]


@pytest.mark.parametrize(("tricks", "mano", "all_pardas", "expected"), DECIDE_CASES)
def test_decide_hand(tricks, mano, all_pardas, expected):
    assert decide_hand(tricks, mano=mano, all_pardas=all_pardas) == expected


@pytest.mark.parametrize(
    ("variant", "options", "mano", "script", "expected"),
    [
        ("truco-15", {}, 1, "tp tp tp", [0, 1]),
        ("gauderio", {}, 0, "tp tp tp", [1, 0]),  # docs/rules.md §Pardas: quem iniciou a mão
        ("truc", {}, 0, "tp tp tp", [1, 0]),
        ("paulista", {}, 0, "tp tp tp", [0, 0]),  # docs/rules.md §Pardas: ninguém marca pontos
        ("paulista", {}, 0, "wn", [0, 0]),
        ("paulista", {"all_pardas": "mano"}, 1, "tp tp tp", [0, 1]),
        ("mineiro", {}, 0, "0:truco 1:quiero tp tp tp", [0, 0]),
        ("truco-15", {}, 0, "0:truco 1:quiero t1 tp", [0, 2]),
    ],
)
def test_tricks_end_the_hand(variant, options, mano, script, expected):
    match = play(variant, script, options=options, mano=mano)
    assert list(match.score) == expected
    assert match.state()["hand"]["number"] == 2


def test_nobody_as_hand_winner_needs_the_nobody_rule():
    with pytest.raises(RuleError):
        play("truco-15", "wn")


def test_the_mano_alternates_every_hand():
    states = [play("truco-15", script, mano=1).state()["hand"]["mano"] for script in ("", "w0", "w0 w1", "w0 w1 0:mazo")]
    assert states == [1, 0, 1, 0]


SPECIAL_CASES = [
    # variant, setup score, script, expected score, expected winner
    ("paulista", "a0+11 a1+7", "s0:run", [11, 8], None),  # docs/rules.md §Mão de onze
    ("paulista", "a0+11 a1+7", "s0:play w0", [12, 7], 0),
    ("paulista", "a0+11 a1+7", "s0:play w1", [11, 10], None),
    ("paulista", "a0+7 a1+11", "s1:play t1 t1", [7, 12], 1),
    ("paulista", "a0+11 a1+11", "w1", [11, 12], 1),  # mão de ferro: worth 1 (row 52)
    ("mineiro", "a0+10 a1+6", "s0:run", [10, 8], None),  # row 53
    ("mineiro", "a0+10 a1+6", "s0:play w0", [12, 6], 0),
    ("mineiro", "a0+10 a1+6", "s0:play w1", [10, 10], None),
    ("mineiro", "a0+10 a1+6 s0:play w1", "w0", [12, 10], 0),  # then mão de ferro worth 2
    ("truc", "a0+11 a1+7", "s0:play w0", [12, 7], 0),  # docs/rules.md §The Catalan 11: worth 3, no betting
    ("truc", "a0+11 a1+7", "s0:run", [11, 8], None),
    ("truc", "a0+11 a1+11", "w0", [12, 11], 0),
]


@pytest.mark.parametrize(("variant", "setup", "script", "expected", "winner"), SPECIAL_CASES)
def test_special_hands(variant, setup, script, expected, winner):
    match = play(variant, f"{setup} {script}")
    assert list(match.score) == expected
    assert match.winner == winner


@pytest.mark.parametrize(
    ("variant", "setup", "special", "side", "value"),
    [
        ("paulista", "a0+11 a1+7", "mao_de_onze", 0, 3),
        ("paulista", "a0+11 a1+11", "mao_de_ferro", None, 1),
        ("mineiro", "a0+3 a1+10", "mao_de_dez", 1, 4),
        ("mineiro", "a0+10 a1+10", "mao_de_ferro", None, 2),
        ("truc", "a0+11", "mao_de_onze", 0, 3),
        ("truc", "a0+11 a1+11", "mao_de_ferro", None, 1),
    ],
)
def test_special_hand_state(variant, setup, special, side, value):
    match = play(variant, setup)
    hand = match.state()["hand"]
    assert (hand["special"], hand["special_side"]) == (special, side)
    if side is not None:
        assert hand["awaiting"] == "special_hand"
        match.apply({"type": "special_hand", "side": side, "decision": "play"})
    assert match.state()["hand"]["value"] == value


@pytest.mark.parametrize(
    ("variant", "script", "code"),
    [
        ("paulista", "a0+11 a1+7 w0", "special_hand_first"),
        ("paulista", "a0+11 a1+7 s1:play", "not_your_decision"),
        ("paulista", "a0+11 a1+7 s0:play 0:truco", "no_betting"),  # docs/rules.md §Mão de onze: ninguém pode pedir truco
        ("paulista", "a0+11 a1+7 s0:play 1:truco", "no_betting"),
        ("paulista", "a0+11 a1+11 0:truco", "no_betting"),
        ("mineiro", "a0+10 a1+10 1:truco", "no_betting"),
        ("truc", "a0+11 a1+11 0:truc", "no_betting"),
        ("paulista", "s0:play", "no_special_hand"),
    ],
)
def test_special_hand_errors(variant, script, code):
    with pytest.raises(RuleError) as caught:
        play(variant, script)
    assert caught.value.code == code


def test_game_ends_at_once_and_shows_the_capped_score():
    """docs/rules.md §Reaching the target: Paulista 10-4, truco accepted and won by the 10 side -> 12."""
    match = play("paulista", "a0+10 a1+4 0:truco 1:quiero w0")
    assert list(match.score) == [12, 4] and match.winner == 0


def test_first_to_arrive_wins_argentino():
    """docs/rules.md §Reaching the target (first to arrive): 28-27, the envido side reaches 30 first."""
    match = play("argentino-30", "a0+28 a1+27 0:envido 1:quiero ew0")
    assert list(match.score) == [30, 27] and match.winner == 0


def test_gauderio_checks_the_target_at_the_end_of_the_hand():
    """docs/rules.md §Reaching the target (Gaudério): "Caso ambos os times passem do total ... ganha aquele que obtiver a pontuação
    mais alta"; equal totals play another hand (issue #2)."""
    match = play("gauderio", "a0+10 a1+11 0:envido 1:quiero ew0")
    assert list(match.score) == [12, 11] and match.winner is None  # the hand goes on
    match.apply({"type": "call", "side": 1, "call": "truco"})
    match.apply({"type": "quiero", "side": 0})
    match.apply({"type": "hand_winner", "side": 1})
    assert list(match.score) == [12, 13] and match.winner == 1
    tied = play("gauderio", "a0+10 a1+10 0:envido 1:quiero ew0 0:truco 1:quiero w1")
    assert list(tied.score) == [12, 12] and tied.winner is None
    tied.apply({"type": "hand_winner", "side": 0})
    assert list(tied.score) == [13, 12] and tied.winner == 0


def test_gauderio_one_side_passing_wins():
    match = play("gauderio", "a0+11 w0", options={"target": 12})
    assert match.winner == 0 and list(match.score) == [12, 0]


def test_malas_and_buenas_standing():
    stages = play("argentino-30", "a0+14 a1+17").state()["stages"]
    assert stages == [{"stage": "malas", "points": 14}, {"stage": "buenas", "points": 2}]
    assert play("truco-15", "").state()["stages"] is None
