"""The table conventions offered as options (issue 20 item 1): ``falta=winner_stage`` and
``falta=loser_lacks``, ``falta_adds_stake``, ``flor_per_player``, ``envido_repeat``, and the
Uruguayan fold before the Envido.

Every expected number is written from the rule text cited beside its row (docs/rules.md
quotes them, with their public addresses), never from running the engine. Scores are
"side 0 - side 1"; ``a0+12`` sets the score with a correction before the Envido.
"""

import pytest

from scorer.core.errors import RuleError
from scorer.core.match import Match
from tests.engine_notation import play

FLOR = {"flor": True}
D = {"falta": "winner_stage"}
E = {"falta": "loser_lacks"}

FALTA_CASES = [
    # variant, options, script, expected score, source
    # D, "stage of the winner": leader in the malas -> 15 - W; otherwise 30 - L.
    ("argentino-30", D, "a0+14 0:falta_envido 1:quiero ew1", [14, 15]),  # issue 20: to 30 at 14-0, the side on 0 gets 15
    ("argentino-30", D, "a0+12 a1+9 0:falta_envido 1:quiero ew0", [15, 9]),  # rules §Falta Envido example 12-9, leader wins: 3
    ("argentino-30", D, "a0+12 a1+9 0:falta_envido 1:quiero ew1", [12, 15]),  # same, trailing side wins: 6
    ("argentino-30", D, "a0+14 a1+14 0:falta_envido 1:quiero ew0", [15, 14]),  # 14-14: 1
    ("argentino-30", D, "a0+20 a1+17 0:falta_envido 1:quiero ew0", [30, 17]),  # 20-17, leader wins: 10
    ("argentino-30", D, "a0+20 a1+17 0:falta_envido 1:quiero ew1", [20, 27]),  # 20-17, trailing wins: 10
    ("argentino-30", D, "a0+16 a1+3 0:falta_envido 1:quiero ew1", [16, 17]),  # 16-3, trailing wins: 14
    ("argentino-30", D, "a0+5 a1+22 0:falta_envido 1:quiero ew0", [13, 22]),  # 5-22, the 5 side wins: 8
    ("argentino-30", {**D, "target": 40}, "0:falta_envido 1:quiero ew0", [20, 0]),  # gotruco: malas = half the target
    ("uruguaio", D, "a0+14 0:falta_envido 1:quiero ew1", [14, 15]),  # the Uruguayan engine computes D
    ("argentino-30", D, "a0+14 0:falta_envido 1:no_quiero", [15, 0]),  # refused Falta: 1, whatever the convention
    # D for Contraflor al resto: the same rule (rules §Contraflor al resto).
    ("argentino-30", {**D, **FLOR}, "a0+14 0:flor 1:contraflor_al_resto 0:quiero ew1", [14, 15]),
    # E, "what the loser lacks": F = T - Lo.
    ("argentino-30", E, "a0+12 a1+9 0:falta_envido 1:quiero ew0", [30, 9]),  # 12-9, leader wins: 21 (capped at 30)
    ("argentino-30", E, "a0+12 a1+9 0:falta_envido 1:quiero ew1", [12, 27]),  # trailing wins: 18
    ("argentino-30", E, "a0+14 a1+14 0:falta_envido 1:quiero ew1", [14, 30]),  # 14-14: 16, the game
    ("argentino-30", E, "a0+20 a1+17 0:falta_envido 1:quiero ew0", [30, 17]),  # 20-17, leader wins: 13 (capped)
    ("argentino-30", E, "a0+20 a1+17 0:falta_envido 1:quiero ew1", [20, 27]),  # trailing wins: 10
    ("argentino-30", E, "a0+16 a1+3 0:falta_envido 1:quiero ew1", [16, 17]),  # 16-3, trailing wins: 14
    ("argentino-30", {**E, **FLOR}, "a0+12 a1+9 0:flor 1:contraflor_al_resto 0:quiero ew1", [12, 27]),
    ("uruguaio", E, "a0+12 a1+9 0:falta_envido 1:quiero ew1", [12, 27]),
    ("truco-15", E, "a0+9 a1+4 0:falta_envido 1:quiero ew1", [9, 10]),  # to 15, 9-4, trailing wins: 15 - 9 = 6
    ("truco-15", E, "a0+9 a1+4 0:falta_envido 1:quiero ew0", [15, 4]),  # leader wins: 15 - 4 = 11 (capped)
    ("gauderio", E, "a0+5 a1+3 0:falta_envido 1:quiero ew1", [5, 10]),  # to 12, 5-3, the 3 side wins: 12 - 5 = 7
]


@pytest.mark.parametrize(("variant", "options", "script", "expected"), FALTA_CASES)
def test_falta_conventions(variant, options, script, expected):
    assert list(play(variant, script, options=options).score) == expected


ADDS = {"falta_adds_stake": True}

ADDS_CASES = [
    # rules §Falta adds the stake: the Uruguayan engine adds the accepted Envido to F; the
    # Argentine engines replace it (the default). argentino-30 at 0-0, leader_stage: F = 15.
    ("argentino-30", {}, "0:envido 1:falta_envido 0:quiero ew0", [15, 0]),  # replaces: F
    ("argentino-30", ADDS, "0:envido 1:falta_envido 0:quiero ew0", [17, 0]),  # adds: 2 + F
    ("argentino-30", ADDS, "0:envido 1:envido 0:falta_envido 1:quiero ew1", [0, 19]),  # E-E-F: 4 + F
    ("argentino-30", ADDS, "0:real_envido 1:falta_envido 0:quiero ew1", [0, 18]),  # R-F: 3 + F
    ("argentino-30", ADDS, "0:falta_envido 1:quiero ew1", [0, 15]),  # Falta alone: nothing before it
    ("argentino-30", ADDS, "0:envido 1:falta_envido 0:no_quiero", [0, 2]),  # refusals unchanged (E-F refused 2)
    ("truco-15", ADDS, "a0+5 a1+3 0:envido 1:falta_envido 0:quiero ew1", [5, 15]),  # 2 + (15 - 5) = 12 -> 15
    ("uruguaio", {**ADDS, "falta": "leader_stage"}, "0:envido 1:falta_envido 0:quiero ew1", [0, 17]),
    ("gauderio", ADDS, "a0+8 a1+2 0:envido 1:falta_envido 0:quiero ew1", [8, 8]),  # 2 + (12 - 8)
    # Contraflor al resto is a Flor stake, not an Envido: it still pays the Falta alone.
    ("argentino-30", {**ADDS, **FLOR}, "0:flor 1:contraflor_al_resto 0:quiero ew1", [0, 15]),
]


@pytest.mark.parametrize(("variant", "options", "script", "expected"), ADDS_CASES)
def test_falta_adds_the_earlier_stake(variant, options, script, expected):
    assert list(play(variant, script, options=options).score) == expected


REPEAT = {"envido_repeat": True}

REPEAT_CASES = [
    # rules §Repeated Envido: Envido again and again, +2 each; Real Envido adds 3; refused
    # pays what was accepted before; never past the Falta. uruguaio at 0-0: the Falta is 30.
    ("0:envido 1:envido 0:envido 1:quiero ew0", [6, 0]),
    ("0:envido 1:envido 0:envido 1:envido 0:quiero ew1", [0, 8]),
    ("0:envido 1:envido 0:envido 1:no_quiero", [4, 0]),  # refused: the 4 accepted before
    ("0:envido 1:envido 0:envido 1:real_envido 0:quiero ew0", [9, 0]),  # 6 + 3
    ("0:envido 1:envido 0:envido 1:real_envido 0:no_quiero", [0, 6]),
    ("0:envido 1:envido 0:envido 1:falta_envido 0:no_quiero", [0, 6]),
    ("0:envido 1:quiero ew0", [2, 0]),  # one Envido is still 2
    ("a0+26 0:envido 1:envido 0:quiero ew0", [30, 0]),  # 4, exactly the Falta (30 - 26)
    # The cap holds for the whole chain from its first raise on (issue 33: only the third and
    # later Envidos were capped); in buenas the Falta is 30 - L (malas_wins_game).
    ("a0+25 0:envido 1:real_envido 0:quiero ew1", [25, 5]),  # Envido + Real Envido 5, exactly the Falta 5
    ("a0+28 0:envido 1:falta_envido 0:quiero ew1", [28, 2]),  # at 28-0 the Falta (2) is the raise left
    ("a0+29 0:envido 1:quiero ew1", [29, 2]),  # a lone Envido is a call, not a raise: 2, as without the option
]


@pytest.mark.parametrize(("script", "expected"), REPEAT_CASES)
def test_repeated_envido(script, expected):
    assert list(play("uruguaio", script, options=REPEAT).score) == expected


@pytest.mark.parametrize(
    ("options", "script"),
    [
        ({}, "0:envido 1:envido 0:envido"),  # without the option: two Envidos at most (rules §Envido)
        (REPEAT, "a0+26 0:envido 1:envido 0:envido"),  # 6 would pass the Falta, 4
        (REPEAT, "0:envido 1:real_envido 0:envido"),  # no Envido after the Real Envido
        (REPEAT, "a0+28 0:envido 1:envido"),  # issue 33: 4 passes the Falta, 2 (30 - 28)
        (REPEAT, "a0+26 0:envido 1:envido 0:real_envido"),  # issue 33: 7 passes the Falta, 4
        (REPEAT, "a0+26 0:envido 1:real_envido"),  # a table chain too: 5 passes 4
    ],
)
def test_repeated_envido_refused(options, script):
    with pytest.raises(RuleError) as caught:
        play("uruguaio", script, options=options)
    assert caught.value.code == "bad_raise"


@pytest.mark.parametrize(
    ("script", "value", "falta"),
    [
        ("a0+28 0:envido 1:envido", 4, 2),  # issue 33's two examples (Falta = 30 - L in buenas)
        ("a0+26 0:envido 1:envido 0:real_envido", 7, 4),
    ],
)
def test_an_envido_past_the_falta_is_refused_naming_the_falta(script, value, falta):
    """The refusal says the chain's value and the Falta's (it once said "Envido cannot answer
    Envido"), and points at the Falta Envido as the raise left."""
    with pytest.raises(RuleError) as caught:
        play("uruguaio", script, options=REPEAT)
    assert (caught.value.params["value"], caught.value.params["falta"]) == (value, falta)
    assert "falta_envido" in caught.value.allowed


PER_PLAYER = {"flor_per_player": True}
FLOR_PP = {**FLOR, **PER_PLAYER}

PER_PLAYER_CASES = [
    # rules §One Flor per player: 3 for each Flor sung (issue 20: two Flores of one side,
    # unanswered, 6; pagat-style summary "3 points per flor"); the stated choice for the rest:
    # each further Flor of a side adds 3 to whatever the exchange pays, to whoever takes it.
    ("argentino-30", FLOR_PP, "0:flor 0:flor 1:no_flor", [6, 0]),
    ("argentino-30", FLOR_PP, "0:flor 0:flor 0:flor 1:no_flor", [9, 0]),  # a table of 6
    ("argentino-30", FLOR_PP, "0:flor 1:no_flor", [3, 0]),  # one Flor: 3, as always
    ("argentino-30", FLOR_PP, "0:flor 0:flor 1:no_quiero", [6, 0]),  # con flor me achico: 3 + 3
    ("argentino-30", FLOR_PP, "0:flor 1:flor 1:flor ew0", [7, 0]),  # compared 4 + 3
    ("argentino-30", FLOR_PP, "0:flor 1:flor 0:flor 1:flor ep38-30", [10, 0]),  # 4 + 3 + 3
    ("argentino-30", FLOR_PP, "0:flor 0:flor 1:contraflor 0:quiero ew1", [0, 9]),  # 6 + 3
    ("argentino-30", FLOR_PP, "0:flor 0:flor 1:contraflor 0:no_quiero", [0, 7]),  # 4 + 3
    ("argentino-30", FLOR_PP, "0:flor 0:flor 1:contraflor_al_resto 0:quiero ew1", [0, 15]),  # the Falta alone
    ("uruguaio", PER_PLAYER, "1:flor 1:flor 0:no_flor", [0, 6]),
    ("gauderio", PER_PLAYER, "0:flor 0:flor 1:no_flor", [6, 0]),
    ("gauderio", PER_PLAYER, "0:flor 0:flor 1:contraflor ew1", [0, 9]),  # docs/rules.md §Flor values: contra-flor 6; + 3
]


#: rules §One Flor per player: one Flor per player of the side. With the seats given the rules
#: know the table: 2 v 2 sings at most 2 Flores a side, 1 v 1 one (issue 33 item 5: a 2 v 2 table
#: could sing a third); unknown seats allow a table of 6's three.
SEATED_CASES = [
    # players per side, script, expected score (None: the last call is refused)
    (2, "0:flor 0:flor 1:no_flor", [6, 0]),  # two Flores, one per player: 3 + 3
    (2, "0:flor 0:flor 0:flor", None),  # a third Flor on a side of two players
    (3, "0:flor 0:flor 0:flor 1:no_flor", [9, 0]),  # a table of 6: three
    (None, "0:flor 0:flor 0:flor 1:no_flor", [9, 0]),  # seats unknown: as a table of 6
    (1, "0:flor 0:flor", None),  # one player a side: one Flor
    (1, "0:flor 1:no_flor", [3, 0]),
]


@pytest.mark.parametrize(("per_side", "script", "expected"), SEATED_CASES)
def test_one_flor_per_player_of_the_seated_table(per_side, script, expected):
    if expected is None:
        with pytest.raises(RuleError):
            play("argentino-30", script, options=FLOR_PP, players_per_side=per_side)
    else:
        assert list(play("argentino-30", script, options=FLOR_PP, players_per_side=per_side).score) == expected


def test_a_table_has_two_four_or_six_players():
    with pytest.raises(RuleError) as caught:
        Match("argentino-30", FLOR_PP, 0, players_per_side=4)
    assert caught.value.code == "bad_players"


@pytest.mark.parametrize(("variant", "options", "script", "expected"), PER_PLAYER_CASES)
def test_one_flor_per_player(variant, options, script, expected):
    assert list(play(variant, script, options=options).score) == expected


@pytest.mark.parametrize(
    ("options", "script", "code"),
    [
        (FLOR, "0:flor 0:flor", "own_call"),  # without the option: one Flor a side
        (FLOR_PP, "0:flor 0:flor 0:flor 0:flor", "own_call"),  # at most 3 players a side
        (FLOR_PP, "0:flor 1:contraflor 0:flor", "bad_raise"),  # not after a Contraflor
        (FLOR_PP, "0:flor 1:no_flor 0:flor", "flor_closed"),  # not once the Flor is settled
    ],
)
def test_one_flor_per_player_refused(options, script, code):
    with pytest.raises(RuleError) as caught:
        play("argentino-30", script, options=options)
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        # rules §Folding in the first trick: the Uruguayan engine pays 1 (the default);
        # the +1 for the unsung Envido is the Argentine engine's, kept as an option.
        ({}, [0, 1]),
        ({"mazo_primera": True}, [0, 2]),
    ],
)
def test_uruguayan_fold_before_the_envido(options, expected):
    assert list(play("uruguaio", "0:mazo", options=options).score) == expected


def test_the_flor_per_player_whole_match_hand_by_hand():
    """tests/matches/argentino-30_flor_per_player.jsonl, a table of 4 and then 6 (Flor, one Flor
    per player, to 30, leader_stage), worked hand by hand from docs/rules.md:

    1. two Flores of side 0 unanswered 3 + 3; hand 1: 7-0.
    2. Flor of 1, Flores of two players of 0, compared 33-31: 4 + 3 to 0; truco accepted, 1 wins 2: 14-2.
    3. Flor, Contraflor accepted, 1 better: 6; hand 1 (first trick 0, then 1, 1): 14-9.
    4. two Flores of 1, Contraflor of 0 refused: 4 + 3 to 0; 0 folds, the Envido is gone (a Flor
       was sung): 1 to 1: 21-10.
    5. Envido accepted to 0: 2; vale cuatro accepted, 1 wins 4: 23-14.
    6. three Flores of 1 (a table of 6) unanswered: 9; hand 1 to 0: 24-23.
    7. two Flores of 0, Contraflor al resto accepted, 1 better: the Falta, 30 - 24 = 6, alone;
       hand 1 to 1: 24-30, side 1 wins.
    """
    import json
    from pathlib import Path

    from scorer.core.match import Match

    lines = (Path(__file__).resolve().parents[2] / "matches" / "argentino-30_flor_per_player.jsonl").read_text().splitlines()
    match = Match("argentino-30", {"flor": True, "flor_per_player": True}, mano=0)
    after_hand = []
    for line in lines:
        hand = match.state()["hand"]["number"]
        match.apply(json.loads(line))
        if match.winner is not None or match.state()["hand"]["number"] != hand:
            after_hand.append(list(match.score))
    assert after_hand == [[7, 0], [14, 2], [14, 9], [21, 10], [23, 14], [24, 23], [24, 30]]
    assert match.winner == 1


@pytest.mark.parametrize(
    ("options", "script", "side", "offered"),
    [
        (FLOR_PP, "0:flor", 0, True),  # the partner of the Flor's singer gets a Flor button, worth 3
        (FLOR_PP, "0:flor 1:flor", 1, True),  # while the Flores wait to be compared
        (FLOR, "0:flor", 0, False),  # one Flor a side without the option
        (FLOR_PP, "0:flor", 1, False),  # the other side's Flor is the "con flor quiero" button
    ],
)
def test_a_partners_flor_is_offered(options, script, side, offered):
    legal = play("argentino-30", script, options=options).legal_actions()
    flores = [a for a in legal if a.get("type") == "call" and a.get("call") == "flor" and a.get("side") == side]
    assert bool(flores) is offered
    if offered:
        assert flores[0]["points"] == 3  # docs/rules.md §One Flor per player


@pytest.mark.parametrize("variant, options", [
    ("argentino-30", {"flor_per_player": True}),  # Flor is off by default there
    ("argentino-30", {"flor": False, "flor_per_player": True}),
])
def test_one_flor_per_player_needs_flor_in_play(variant, options):
    """A table cannot play one Flor per player without the Flor itself: refused, nothing made
    (found by trying it: a match without Flor took the option and a side sang two Flores)."""
    with pytest.raises(RuleError) as refused:
        Match(variant, options, 0)
    assert refused.value.code == "bad_option"
    assert Match(variant, {**options, "flor": True}, 0).options["flor_per_player"] is True
