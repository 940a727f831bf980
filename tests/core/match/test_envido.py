"""Envido: chains, refusals, Falta Envido, the window, ties, and Envido before a pending Truco.

Expected numbers: docs/rules.md §Envido chains (Truco to 15, "Pedir Envido"/"A cadeia de aumentos" and its
diagrams), §Gaudério Envido, §Falta Envido and its worked values.
"""

import pytest

from scorer.core.errors import RuleError
from tests.engine_notation import play

ARGENTINE_CHAINS = [
    # chain, accepted value, refused value (docs/rules.md §Envido chains)
    (["envido"], 2, 1),
    (["envido", "envido"], 4, 2),
    (["real_envido"], 3, 1),
    (["envido", "real_envido"], 5, 2),
    (["envido", "envido", "real_envido"], 7, 4),
    (["falta_envido"], None, 1),
    (["envido", "falta_envido"], None, 2),
    (["envido", "envido", "falta_envido"], None, 4),
    (["real_envido", "falta_envido"], None, 3),
    (["envido", "real_envido", "falta_envido"], None, 5),
    (["envido", "envido", "real_envido", "falta_envido"], None, 7),
]

GAUDERIO_CHAINS = [
    # docs/rules.md §Gaudério Envido: Envido 2/1; Real Envido 5/1; Envido-Real 5/2; Falta refused pays the chain before.
    (["envido"], 2, 1),
    (["real_envido"], 5, 1),
    (["envido", "real_envido"], 5, 2),
    (["falta_envido"], None, 1),
    (["envido", "falta_envido"], None, 2),
    (["real_envido", "falta_envido"], None, 5),
    (["envido", "real_envido", "falta_envido"], None, 5),
]


def chain_script(chain, first_side=0):
    """The calls of ``chain`` made alternately by the two sides."""
    return " ".join(f"{(first_side + i) % 2}:{call}" for i, call in enumerate(chain))


def chain_cases():
    for variant in ("truco-15", "argentino-30", "uruguaio"):
        for chain, accepted, refused in ARGENTINE_CHAINS:
            yield variant, chain, accepted, refused
    for chain, accepted, refused in GAUDERIO_CHAINS:
        yield "gauderio", chain, accepted, refused


@pytest.mark.parametrize(("variant", "chain", "accepted", "refused"), list(chain_cases()))
def test_envido_chain_values(variant, chain, accepted, refused):
    calls = chain_script(chain)
    last_caller = (len(chain) - 1) % 2
    answerer = 1 - last_caller
    refused_score = [0, 0]
    refused_score[last_caller] = refused
    assert list(play(variant, f"{calls} {answerer}:no_quiero").score) == refused_score
    if accepted is not None:
        for winner in (0, 1):
            won = [0, 0]
            won[winner] = accepted
            assert list(play(variant, f"{calls} {answerer}:quiero ew{winner}").score) == won


@pytest.mark.parametrize(
    ("variant", "chain"),
    [
        ("gauderio", ["envido", "envido"]),  # docs/rules.md §Gaudério Envido: no Envido over Envido
        ("gauderio", ["real_envido", "real_envido"]),
        ("truco-15", ["real_envido", "envido"]),
        ("truco-15", ["real_envido", "real_envido"]),
        ("truco-15", ["envido", "envido", "envido"]),
        ("truco-15", ["falta_envido", "envido"]),
        ("truco-15", ["falta_envido", "falta_envido"]),
    ],
)
def test_chains_the_rules_do_not_allow(variant, chain):
    with pytest.raises(RuleError) as caught:
        play(variant, chain_script(chain))
    assert caught.value.code == "bad_raise"


FALTA_CASES = [
    # variant, options, score before (0 vs 1), envido winner, points the winner gets
    ("truco-15", {}, (12, 9), 0, 3),  # docs/rules.md §Falta Envido: what the player closest to 15 lacks
    ("truco-15", {}, (12, 9), 1, 3),
    ("truco-15", {}, (9, 4), 1, 6),  # docs/rules.md §Falta Envido
    ("gauderio", {}, (8, 5), 1, 4),  # docs/rules.md §Falta Envido (Gaudério): target minus the leader
    ("gauderio", {"target": 24}, (8, 5), 1, 16),
    # argentino-30, docs/rules.md §Falta Envido: B = leader_stage, A = whole_game, C = malas_wins_game
    ("argentino-30", {}, (12, 9), 0, 3),
    ("argentino-30", {}, (12, 9), 1, 3),
    ("argentino-30", {}, (14, 14), 1, 1),
    ("argentino-30", {}, (20, 17), 0, 10),
    ("argentino-30", {}, (20, 17), 1, 10),
    ("argentino-30", {}, (16, 3), 1, 14),
    ("argentino-30", {}, (5, 22), 0, 8),
    ("argentino-30", {"falta": "whole_game"}, (12, 9), 0, 18),
    ("argentino-30", {"falta": "whole_game"}, (12, 9), 1, 18),
    ("argentino-30", {"falta": "whole_game"}, (14, 14), 0, 16),
    ("argentino-30", {"falta": "malas_wins_game"}, (12, 9), 0, 18),
    ("argentino-30", {"falta": "malas_wins_game"}, (12, 9), 1, 21),
    ("argentino-30", {"falta": "malas_wins_game"}, (14, 14), 1, 16),
    ("argentino-30", {"falta": "malas_wins_game"}, (20, 17), 1, 10),
    ("uruguaio", {}, (12, 9), 1, 21),  # uruguaio defaults to malas_wins_game
    ("uruguaio", {"target": 40}, (12, 9), 1, 31),  # malas are the first 20
    ("uruguaio", {"target": 40}, (22, 9), 1, 18),
]


@pytest.mark.parametrize(("variant", "options", "before", "winner", "points"), FALTA_CASES)
def test_falta_envido_value(variant, options, before, winner, points):
    setup = f"a0+{before[0]} a1+{before[1]}".replace("a0+0 ", "").replace(" a1+0", "")
    match = play(variant, f"{setup} 0:falta_envido 1:quiero ew{winner}", options=options)
    expected = list(before)
    expected[winner] += points
    target = match.target
    if match.variant.ends_at_once:
        expected[winner] = min(expected[winner], target)
    assert list(match.score) == expected
    assert match.winner == (winner if expected[winner] >= target else None)


def test_falta_replaces_the_earlier_stake():
    """docs/rules.md §Falta adds the stake: an accepted Falta pays F instead of the chain (issue #2)."""
    match = play("truco-15", "a0+5 a1+2 0:envido 1:envido 0:falta_envido 1:quiero ew1")
    assert list(match.score) == [5, 12]  # F = 15 - 5 = 10, not 4 + 10


def test_falta_that_ends_the_game_stops_the_hand():
    """docs/rules.md §Truco to 15 ("Pontuação e Vitória"): the match ends the moment someone reaches 15."""
    match = play("truco-15", "a0+10 a1+13 0:truco 1:falta_envido 0:quiero ew1")  # F = 15 - 13 = 2
    assert list(match.score) == [10, 15]
    assert match.winner == 1
    with pytest.raises(RuleError) as caught:
        match.apply({"type": "quiero", "side": 1})
    assert caught.value.code == "game_over"


@pytest.mark.parametrize(
    ("points", "mano", "winner"),
    [
        ((33, 25), 0, 0),  # docs/rules.md §Envido count: 7+6 de oros = 33 beats 5+10 de copas = 25
        ((7, 31), 0, 1),  # docs/rules.md §Envido count: 6+5 de espadas = 31 beats a lone 7
        ((27, 27), 0, 0),  # equal points go to the mano
        ((27, 27), 1, 1),
        ((0, 20), 1, 1),
    ],
)
def test_envido_points_decide_the_winner(points, mano, winner):
    match = play("truco-15", f"0:envido 1:quiero ep{points[0]}-{points[1]}", mano=mano)
    assert match.score[winner] == 2 and match.score[1 - winner] == 0


@pytest.mark.parametrize("bad", ["ep8-20", "ep34-20", "ep19-20"])
def test_impossible_envido_points_are_refused(bad):
    with pytest.raises(RuleError) as caught:
        play("truco-15", f"0:envido 1:quiero {bad}")
    assert caught.value.code in ("bad_points", "bad_action")


def test_envido_before_a_pending_truco_seed_000_diagram():
    """docs/rules.md §When Envido can be called: B calls Truco, W calls Envido instead of answering; the Envido resolves
    (W 31 against 7: +2 W) and the Truco is still pending, the hand still worth 1."""
    match = play("truco-15", "0:truco 1:envido 0:quiero ep7-31")
    state = match.state()
    assert list(match.score) == [0, 2]
    assert state["hand"]["pending"] == {"call": "truco", "side": 0}
    assert state["hand"]["value"] == 1
    assert list(play("truco-15", "0:truco 1:envido 0:quiero ep7-31 1:retruco 0:no_quiero").score) == [0, 4]


@pytest.mark.parametrize(
    ("variant", "before", "bad", "code"),
    [
        ("truco-15", "t0", "0:envido", "envido_closed"),  # docs/rules.md §When Envido can be called: only before trick 1 is decided
        ("truco-15", "tp", "1:envido", "envido_closed"),
        ("truco-15", "0:envido 1:quiero ew0", "1:envido", "envido_closed"),
        ("truco-15", "0:envido 1:no_quiero", "1:real_envido", "envido_closed"),
        ("argentino-30", "0:truco 1:quiero", "1:envido", "envido_closed"),  # closes once truco is accepted
        ("uruguaio", "0:truco 1:quiero", "0:envido", "envido_closed"),
        ("truco-15", "0:truco", "0:envido", "answer_first"),  # only the side facing the truco
        ("truco-15", "0:envido", "0:envido", "own_call"),
        ("truco-15", "0:envido", "0:truco", "answer_first"),  # truco waits for the envido
        ("truco-15", "0:envido", "t0", "answer_first"),
        ("truco-15", "0:envido 1:quiero", "t0", "enter_envido_winner"),
        ("truco-15", "", "ew0", "nothing_to_compare"),
        ("paulista", "", "0:envido", "no_such_call"),
    ],
)
def test_envido_window_and_order(variant, before, bad, code):
    with pytest.raises(RuleError) as caught:
        play(variant, f"{before} {bad}")
    assert caught.value.code == code


def test_envido_stays_open_after_an_accepted_truco_in_truco_15():
    """docs/rules.md §When Envido can be called: the Envido closes only when trick 1 is decided."""
    assert list(play("truco-15", "0:truco 1:quiero 1:envido 0:quiero ew1").score) == [0, 2]
