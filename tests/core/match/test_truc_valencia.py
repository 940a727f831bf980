"""Valencian truc (``truc-valencia``): its ladder, its envit, its cama of 18 in malas and buenas and its
22-card deck, as rule tables.

Expected values from the public sources (docs/rules.md §Valencian truc): mural.uv.es "El joc del truc"
(MURAL-UV: the 22 cards; "Trucar, retrucar, quatre val i joc fora"; "L'envit, el torne i la falta"),
vilapedia "El truc" (VILAPEDIA: the deck and the order 1e, 1b, 7e, 7o, 3s, sets bords, 6s, 5s, 4s),
studylib "cartas y sus valores en el truc valenciano" (STUDYLIB-TRUC: a cama of 18, 9 malas + 9 bones)
and the Truc Valenciano FJD page (FJD: truc 2, retruc 3, quatre val 4, joc fora "what the winner needs
to complete the cama"; envit 2 and the falta). Nothing here is read from running the code.
"""

import pytest

from scorer.core.card_order import card_order, compare
from scorer.core.cards import Card
from scorer.core.errors import CardError, RuleError
from scorer.core.variants import get_variant
from tests.engine_notation import play

V = "truc-valencia"

LADDER = [
    # script, expected score (MURAL-UV "Trucar, retrucar, quatre val i joc fora"; FJD)
    ("w0", [1, 0]),                                                        # a hand with no call: 1
    ("0:truc 1:no_quiero", [1, 0]),                                        # truc refused ("no vull"): 1
    ("0:truc 1:quiero w1", [0, 2]),                                        # truc: 2
    ("0:truc 1:retruc 0:no_quiero", [0, 2]),                               # retruc refused: 2
    ("0:truc 1:retruc 0:quiero w0", [3, 0]),                               # retruc: 3
    ("0:truc 1:retruc 0:quatre_val 1:no_quiero", [3, 0]),                  # quatre val refused: 3
    ("0:truc 1:retruc 0:quatre_val 1:quiero w1", [0, 4]),                  # quatre val: 4
    ("0:truc 1:retruc 0:quatre_val 1:joc_fora 0:no_quiero", [0, 4]),       # joc fora refused: 4
    # joc fora accepted at 14-16 in a cama of 18: the winner goes to 18 (REFERENCE ex. 32 from FJD, STUDYLIB-TRUC)
    ("a0+14 a1+16 0:truc 1:retruc 0:quatre_val 1:joc_fora 0:quiero w0", [18, 16]),
    ("a0+14 a1+16 0:truc 1:retruc 0:quatre_val 1:joc_fora 0:quiero w1", [14, 18]),
]


@pytest.mark.parametrize(("script", "expected"), LADDER)
def test_ladder(script, expected):
    assert list(play(V, script).score) == expected


ENVIT = [
    # script, expected score (MURAL-UV "L'envit, el torne i la falta"; FJD: envit 2, refused 1)
    ("0:envido 1:no_quiero", [1, 0]),                                      # envit refused: 1
    ("0:envido 1:quiero ep30-31", [0, 2]),                                 # envit: 2
    ("0:envido 1:envido 0:no_quiero", [0, 2]),                             # torne refused: 2
    ("0:envido 1:envido 0:quiero ep33-21", [4, 0]),                        # torne: 4
    ("0:envido 1:falta_envido 0:no_quiero", [0, 2]),                       # falta refused: the envit before it, 2
    ("0:falta_envido 1:no_quiero", [1, 0]),                                # falta alone refused: 1
    # The falta with both sides in the malas is the whole cama (docs/rules.md §Valencian values: FJD, VERPUEBLOS):
    ("a0+5 a1+6 0:falta_envido 1:quiero ep33-20", [18, 6]),
    ("a0+5 a1+6 0:falta_envido 1:quiero ep20-33", [5, 18]),
    # ... otherwise what the leader lacks: at 10-9 (the leader in the bones), 18 - 10 = 8.
    ("a0+10 a1+9 1:falta_envido 0:quiero ep33-20", [18, 9]),
    ("a0+10 a1+9 1:falta_envido 0:quiero ep20-33", [10, 17]),
]


@pytest.mark.parametrize(("script", "expected"), ENVIT)
def test_envit_torne_and_falta(script, expected):
    assert list(play(V, script).score) == expected


@pytest.mark.parametrize(
    ("script", "call"),
    [("0:envido 1:real_envido", "real_envido"), ("0:flor", "flor"), ("0:truco", "truco"), ("0:envido 1:envido 0:envido", "envido")],
)
def test_calls_the_variant_does_not_have(script, call):
    # No real envit, no flor, no third envit (MURAL-UV names envit, torne and falta only); its truc is "truc".
    with pytest.raises(RuleError):
        play(V, script)


# A whole cama to 18 in malas and buenas, hand by hand (tests/matches/truc-valencia_cama_to_18.jsonl,
# expected.json 18-11, side 0 wins). Each row: the hand, the score after it, and the rule it pays.
CAMA = [
    ("0:truc 1:no_quiero", [1, 0]),                                        # truc refused: 1
    ("1:envido 0:envido 1:quiero ep31-33 w0", [2, 4]),                     # torne accepted, 33 wins 4; the hand 1
    ("0:truc 1:retruc 0:quatre_val 1:no_quiero", [5, 4]),                  # quatre val refused: 3
    ("1:truc 0:quiero w1", [5, 6]),                                        # truc accepted: 2
    ("0:envido 1:falta_envido 0:no_quiero w0", [6, 8]),                    # falta refused: the envit, 2; the hand 1
    ("0:truc 1:retruc 0:no_quiero", [6, 10]),                              # retruc refused: 2; side 1 in the bones
    ("0:truc 1:quiero w0", [8, 10]),                                       # truc accepted: 2
    ("1:falta_envido 0:quiero ep30-28 w1", [16, 11]),                      # falta, leader in the bones: 18 - 10 = 8
    ("1:truc 0:retruc 1:quatre_val 0:joc_fora 1:quiero w0", [18, 11]),     # joc fora: what the winner lacks, 2
]


def test_a_whole_cama_to_18():
    script = ""
    for hand, expected in CAMA:
        script = f"{script} {hand}".strip()
        assert list(play(V, script).score) == expected, hand
    match = play(V, script)
    assert match.winner == 0


def test_the_cama_is_18_in_malas_and_buenas():
    variant = get_variant(V)
    # STUDYLIB-TRUC: a cama of 18, 9 malas + 9 bones.
    assert (variant.target, variant.malas_size(18)) == (18, 9)


def c(code: str) -> Card:
    return Card.from_code(code)


def test_the_22_cards_in_their_order():
    # MURAL-UV "Cartes utilitzades", VILAPEDIA "Les cartes", "L'ordre de valor".
    order = card_order(V)
    assert [sorted(x.code for x in level) for level in order] == [
        ["1e"], ["1b"], ["7e"], ["7o"], ["3b", "3c", "3e", "3o"], ["7b", "7c"],
        ["6b", "6c", "6e", "6o"], ["5b", "5c", "5e", "5o"], ["4b", "4c", "4e", "4o"],
    ]
    assert sum(len(level) for level in order) == 22


@pytest.mark.parametrize(
    ("first", "second", "winner"),
    [
        ("1e", "1b", "first"),     # the espasa beats the basto (VILAPEDIA)
        ("7e", "7o", "first"),     # manilla d'espases, then d'oros
        ("7o", "3e", "first"),
        ("7c", "6e", "first"),     # a set bord beats every 6 (REFERENCE ex. 27 from VILAPEDIA)
        ("7c", "3o", "second"),    # ... and loses to every 3
        ("7c", "7b", "parda"),     # the two sets bords tie
        ("4e", "4o", "parda"),
    ],
)
def test_compare(first, second, winner):
    assert compare(c(first), c(second), V) == winner


@pytest.mark.parametrize("card", ["1c", "1o", "2e", "10b", "11o", "12c"])
def test_cards_outside_the_22(card):
    with pytest.raises(CardError) as info:
        compare(c(card), c("4e"), V)
    assert info.value.code == "not_in_deck"


def test_the_deck_is_the_variants_data():
    (deck,) = get_variant(V).cards.decks
    assert (deck.name, len(deck.cards)) == ("valenciana", 22)
    with pytest.raises(CardError) as info:
        card_order(V, deck="sujo")
    assert info.value.code == "deck_not_used"
