"""Truco ladders: what an accepted call makes the hand worth and what a refusal pays.

Expected numbers: docs/rules.md §Argentine ladder (truco-15, gauderio), §Paulista ladder, §Catalan ladder
(truc) and §Mineiro ladder.
"""

import pytest

from scorer.core.errors import RuleError
from tests.engine_notation import play

LADDER_CASES = [
    # variant, script, expected score
    ("truco-15", "w0", [1, 0]),
    ("truco-15", "0:truco 1:no_quiero", [1, 0]),
    ("truco-15", "0:truco 1:quiero w1", [0, 2]),
    ("truco-15", "0:truco 1:retruco 0:no_quiero", [0, 2]),
    ("truco-15", "0:truco 1:quiero 1:retruco 0:no_quiero", [0, 2]),
    ("truco-15", "0:truco 1:retruco 0:vale_cuatro 1:no_quiero", [3, 0]),
    ("truco-15", "0:truco 1:retruco 0:vale_cuatro 1:quiero w1", [0, 4]),
    ("argentino-30", "0:truco 1:retruco 0:quiero w0", [3, 0]),
    ("uruguaio", "1:truco 0:retruco 1:vale_cuatro 0:no_quiero", [0, 3]),
    ("gauderio", "0:truco 1:no_quiero", [1, 0]),
    ("gauderio", "0:truco 1:retruco 0:no_quiero", [0, 2]),
    ("gauderio", "0:truco 1:retruco 0:vale_cuatro 1:no_quiero", [3, 0]),
    ("gauderio", "0:truco 1:retruco 0:vale_cuatro 1:quiero w0", [4, 0]),
    ("paulista", "w1", [0, 1]),
    ("paulista", "0:truco 1:no_quiero", [1, 0]),
    ("paulista", "0:truco 1:quiero w0", [3, 0]),
    ("paulista", "0:truco 1:seis 0:no_quiero", [0, 3]),
    ("paulista", "0:truco 1:seis 0:quiero w1", [0, 6]),
    ("paulista", "0:truco 1:seis 0:nove 1:no_quiero", [6, 0]),
    ("paulista", "0:truco 1:seis 0:nove 1:doze 0:no_quiero", [0, 9]),
    ("paulista", "0:truco 1:seis 0:nove 1:doze 0:quiero w1", [0, 12]),
    ("mineiro", "w0", [2, 0]),
    ("mineiro", "0:truco 1:no_quiero", [2, 0]),
    ("mineiro", "0:truco 1:quiero w1", [0, 4]),
    ("mineiro", "0:truco 1:seis 0:no_quiero", [0, 4]),
    ("mineiro", "0:truco 1:seis 0:dez 1:no_quiero", [6, 0]),
    ("mineiro", "0:truco 1:seis 0:dez 1:doze 0:no_quiero", [0, 10]),
    ("mineiro", "0:truco 1:seis 0:dez 1:doze 0:quiero w0", [12, 0]),
    ("truc", "w0", [1, 0]),
    ("truc", "0:truc 1:no_quiero", [1, 0]),
    ("truc", "0:truc 1:retruc 0:no_quiero", [0, 2]),
    ("truc", "0:truc 1:quiero 1:retruc 0:quiero w1", [0, 3]),
]


@pytest.mark.parametrize(("variant", "script", "expected"), LADDER_CASES)
def test_ladder_pays_what_the_rules_say(variant, script, expected):
    assert list(play(variant, script).score) == expected


@pytest.mark.parametrize(
    ("variant", "script", "expected_value"),
    [
        ("truco-15", "0:truco", 1),  # docs/rules.md §Argentine ladder: "O valor da ronda continua a mostrar 1 ponto até ... responder"
        ("truco-15", "0:truco 1:quiero", 2),
        ("truco-15", "0:truco 1:retruco", 2),  # the raise accepts the truco
        ("paulista", "0:truco 1:seis", 3),
        ("mineiro", "", 2),
        ("mineiro", "0:truco 1:quiero", 4),
        ("truc", "0:truc 1:quiero", 2),
    ],
)
def test_hand_value_while_calls_are_pending(variant, script, expected_value):
    assert play(variant, script).state()["hand"]["value"] == expected_value


ILLEGAL_CASES = [
    # A side may not raise its own call (docs/rules.md §Argentine ladder).
    ("truco-15", "0:truco", "0:retruco", "own_call"),
    # After an acceptance only the accepting side may raise (docs/rules.md §Truco ladders).
    ("truco-15", "0:truco 1:quiero", "0:retruco", "not_your_raise"),
    ("paulista", "0:truco 1:quiero", "0:seis", "not_your_raise"),
    ("truc", "0:truc 1:quiero", "0:retruc", "not_your_raise"),
    # Rungs cannot be skipped and the ladder has a top.
    ("truco-15", "", "0:retruco", "bad_raise"),
    ("paulista", "0:truco", "1:nove", "bad_raise"),
    ("truco-15", "0:truco 1:retruco 0:vale_cuatro 1:quiero", "1:vale_cuatro", "top_reached"),
    ("truc", "0:truc 1:retruc 0:quiero", "0:retruc", "top_reached"),
    # Each variant has its own words.
    ("truco-15", "", "0:seis", "no_such_call"),
    ("paulista", "", "0:retruco", "no_such_call"),
    ("paulista", "", "0:envido", "no_such_call"),
    ("truc", "", "0:truco", "no_such_call"),
    # Answers need a pending call, and not one's own.
    ("truco-15", "", "1:quiero", "nothing_to_answer"),
    ("truco-15", "0:truco", "0:quiero", "own_call"),
    ("truco-15", "0:truco", "0:no_quiero", "own_call"),
    # Outside the Catalan truc, a trick cannot be recorded over a pending call (issue #2).
    ("truco-15", "0:truco", "t0", "answer_first"),
    ("paulista", "0:truco", "w0", "answer_first"),
]


@pytest.mark.parametrize(("variant", "before", "bad", "code"), ILLEGAL_CASES)
def test_illegal_calls_raise_and_change_nothing(variant, before, bad, code):
    match = play(variant, before)
    state_before = match.state()
    with pytest.raises(RuleError) as caught:
        play(variant, f"{before} {bad}")
    assert caught.value.code == code
    assert caught.value.allowed, "the error says what was allowed instead"
    from tests.engine_notation import action

    with pytest.raises(RuleError):
        match.apply(action(bad))
    assert match.state() == state_before


def test_truc_recording_a_trick_accepts_the_pending_bet():
    """docs/rules.md §Catalan ladder: "jogar uma carta sem dizer nada equivale a aceitar a aposta pendente"."""
    match = play("truc", "0:truc t1")
    hand = match.state()["hand"]
    assert hand["value"] == 2 and hand["pending"] is None
    assert list(play("truc", "0:truc t1 t1").score) == [0, 2]
    # The side that accepted by playing may raise next.
    assert list(play("truc", "0:truc t1 1:retruc 0:no_quiero").score) == [0, 2]
