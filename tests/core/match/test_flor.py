"""Flor: uncontested, compared, con flor me achico, contraflor, contraflor al resto.

Expected numbers: docs/rules.md §Flor values (gauderio, argentino-30 with Flor, uruguaio),
§Flor cancels Envido, §Contraflor al resto; issue #2 "Flor".
"""

import pytest

from scorer.core.errors import RuleError
from scorer.present.log_words import say_state
from tests.engine_notation import play

FLOR = {"flor": True}

FLOR_CASES = [
    # variant, options, script, expected score
    ("argentino-30", FLOR, "0:flor 1:no_flor", [3, 0]),
    ("argentino-30", FLOR, "0:flor 1:flor ep30-33", [0, 4]),  # flor answered by flor: 4 to the better
    ("argentino-30", FLOR, "0:flor 1:quiero ew0", [4, 0]),  # "con flor quiero"
    ("argentino-30", FLOR, "0:flor 1:no_quiero", [3, 0]),  # "con flor me achico": 3 to the first flor
    ("argentino-30", FLOR, "0:flor 1:contraflor 0:quiero ew0", [6, 0]),
    ("argentino-30", FLOR, "0:flor 1:contraflor 0:no_quiero", [0, 4]),
    ("argentino-30", FLOR, "0:flor 1:contraflor_al_resto 0:no_quiero", [0, 4]),
    ("argentino-30", FLOR, "0:flor 1:contraflor 0:contraflor_al_resto 1:no_quiero", [6, 0]),
    # contraflor al resto accepted = the Falta (leader_stage at 0-0: 15 - 0)
    ("argentino-30", FLOR, "0:flor 1:contraflor_al_resto 0:quiero ew1", [0, 15]),
    ("uruguaio", {}, "1:flor 0:no_flor", [0, 3]),
    ("uruguaio", {}, "1:flor 0:flor ep47-38", [4, 0]),
    # docs/rules.md §Flor values: flor alone 3; contra-flor compared, winner 6; e o resto: the falta; fugir: flor caller 4
    ("gauderio", {}, "0:flor 1:no_flor", [3, 0]),
    ("gauderio", {}, "0:flor 1:contraflor ew1", [0, 6]),
    ("gauderio", {}, "0:flor 1:contraflor ep35-32", [6, 0]),
    ("gauderio", {}, "a0+3 a1+5 0:flor 1:contraflor_al_resto ew0", [10, 5]),  # falta = 12 - 5 = 7
    ("gauderio", {}, "0:flor 1:no_quiero", [4, 0]),
]


@pytest.mark.parametrize(("variant", "options", "script", "expected"), FLOR_CASES)
def test_flor_values(variant, options, script, expected):
    assert list(play(variant, script, options=options).score) == expected


def test_flor_cancels_a_pending_envido():
    """docs/rules.md §Flor cancels Envido: a Flor "anula qualquer pedido de Envido ... feito anteriormente"."""
    match = play("gauderio", "0:envido 1:flor 0:no_flor")
    assert list(match.score) == [0, 3]
    with pytest.raises(RuleError) as caught:
        match.apply({"type": "call", "side": 0, "call": "envido"})
    assert caught.value.code == "flor_sung"


def test_flor_interrupts_a_pending_truco_which_is_answered_afterwards():
    match = play("argentino-30", "0:truco 1:flor 0:no_flor", options=FLOR)
    assert list(match.score) == [0, 3]
    assert match.state()["hand"]["pending"] == {"call": "truco", "side": 0}


@pytest.mark.parametrize(
    ("variant", "options", "script", "code"),
    [
        ("argentino-30", {}, "0:flor", "no_such_call"),  # Flor only if agreed
        ("truco-15", {}, "0:flor", "no_such_call"),
        ("gauderio", {}, "0:flor 1:flor", "bad_raise"),  # answer with contraflor instead
        ("gauderio", {}, "0:flor 1:quiero", "bad_answer"),
        ("argentino-30", FLOR, "0:flor 0:contraflor", "own_call"),
        ("argentino-30", FLOR, "0:contraflor", "no_flor_pending"),
        ("argentino-30", FLOR, "t0 0:flor", "flor_closed"),
        ("argentino-30", FLOR, "0:envido 1:quiero ew0 1:flor", "flor_closed"),
        ("argentino-30", FLOR, "0:flor 1:contraflor 0:no_flor", "no_flor_pending"),
        ("argentino-30", FLOR, "0:flor 1:contraflor 0:quiero ep39-20", "bad_points"),
    ],
)
def test_illegal_flor_actions(variant, options, script, code):
    with pytest.raises(RuleError) as caught:
        play(variant, script, options=options)
    assert caught.value.code == code


# Issue 13 item 13: a Flor cancels an Envido that is accepted but not yet settled (its
# winner still asked for). docs/rules.md §Flor cancels Envido: the Flor "anula qualquer pedido de Envido, Real
# Envido ou Falta Envido feito anteriormente", and the public sources agree.
# Flor uncontested: 3 (docs/rules.md §Flor values).
@pytest.mark.parametrize(
    ("variant", "options"),
    [("argentino-30", FLOR), ("uruguaio", {}), ("gauderio", {})],
)
def test_flor_cancels_an_accepted_envido_not_yet_settled(variant, options):
    match = play(variant, "0:envido 1:quiero 1:flor 0:no_flor", options=options)
    state = say_state(match.state())
    assert state["score"] == [0, 3]
    assert state["hand"]["pending"] is None
    assert state["hand"]["awaiting"] is None
    assert "The Flor cancels the Envido." in state["log"][-2]["text"]


@pytest.mark.parametrize(
    ("variant", "options"),
    [("argentino-30", FLOR), ("uruguaio", {}), ("gauderio", {})],
)
def test_flor_is_legal_while_an_accepted_envido_waits_for_its_winner(variant, options):
    match = play(variant, "0:envido 1:quiero", options=options)
    legal = [(a["type"], a.get("side"), a.get("call")) for a in match.legal_actions()]
    assert ("call", 0, "flor") in legal and ("call", 1, "flor") in legal
    assert ("call", 0, "contraflor") not in legal  # only a bare Flor cancels the Envido


def test_a_settled_envido_still_closes_the_flor():
    """docs/variants.md: a Flor "cannot be sung once the Envido is settled"."""
    with pytest.raises(RuleError) as caught:
        play("argentino-30", "0:envido 1:quiero ew0 1:flor", options=FLOR)
    assert caught.value.code == "flor_closed"
    assert "Envido is already settled" in caught.value.message


def test_gauderio_falta_has_no_floor_after_a_correction_mid_call():
    """Issue 13: gauderio (docs/rules.md §Contraflor al resto: "e o resto" = what the leader lacks, 12 - leader).
    Decision: a correction made while the call is open counts (it says what the score
    really is), so the leader on 12 lacks 0 and the Contraflor al resto pays 0: 12-0."""
    match = play("gauderio", "0:flor 1:contraflor_al_resto a0+12 ew1")
    assert list(match.score) == [12, 0]
    assert match.winner is None  # gauderio checks the target at the end of the hand


def test_gauderio_falta_envido_after_a_correction_mid_call():
    match = play("gauderio", "0:falta_envido 1:quiero a0+12 ew1")
    assert list(match.score) == [12, 0]
