"""Envido and Flor points (docs/rules.md §Envido count, §Flor count, §Envido count with a muestra)."""

from itertools import combinations

import pytest

from scorer.core.cards import DECK, Card, parse_hand
from scorer.core.envido_points import envido_points, envido_value
from scorer.core.errors import CardError


def hand(text):
    return parse_hand(text, "es")


def card(code):
    return Card.from_code(code)


# (hand, flor in play, expected envido, expected flor or None, cards making the envido)
ARGENTINE = [
    # docs/rules.md §Envido count
    ("7 oro, 6 oro, 5 copa", False, 33, None, ["7o", "6o"]),
    ("1 espada, 1 basto, 1 copa", False, 1, None, None),
    ("12 espada, 11 espada, 4 oro", False, 20, None, ["12e", "11e"]),
    ("12 copa, 11 oro, 10 basto", False, 0, None, None),
    ("5 oro, 4 oro, 7 copa", False, 29, None, ["5o", "4o"]),
    ("1 oro, 12 oro, 7 copa", False, 21, None, ["1o", "12o"]),
    ("3 basto, 2 copa, 7 espada", False, 7, None, ["7e"]),
    ("7 espada, 6 espada, 5 espada", False, 33, None, ["7e", "6e"]),
    # Issue 13 item 1: a hand with a Flor in play sings its Flor and declares no Envido
    # (docs/rules.md §Flor cancels Envido): points None.
    ("7 espada, 6 espada, 5 espada", True, None, 38, None),
    ("12 copa, 11 copa, 10 copa", True, None, 20, None),
    ("1 oro, 2 oro, 3 oro", True, None, 26, None),
    # docs/rules.md §Envido count (Truco to 15's two diagrams).
    ("7 oro, 6 oro, 4 basto", False, 33, None, ["7o", "6o"]),
    ("5 copa, 10 copa, 4 espada", False, 25, None, ["5c", "10c"]),
    ("6 espada, 5 espada, 1 oro", False, 31, None, ["6e", "5e"]),
    ("7 basto, 3 copa, 2 oro", False, 7, None, ["7b"]),
    # docs/rules.md §Gaudério Envido: Ás de copas, 7 de copas, 6 de paus = 28; ás paus, 3 espadas, 4 ouros = 4.
    ("1 copa, 7 copa, 6 basto", False, 28, None, ["7c", "1c"]),
    ("1 basto, 3 espada, 4 oro", False, 4, None, ["4o"]),
    # Flor in play but no flor in the hand: flor_points stays None.
    ("7 oro, 6 oro, 5 copa", True, 33, None, ["7o", "6o"]),
    # Three of a suit without Flor in play: the best two.
    ("1 oro, 2 oro, 3 oro", False, 25, None, ["3o", "2o"]),
    ("7 copa, 12 copa, 6 copa", False, 33, None, ["7c", "6c"]),
]


@pytest.mark.parametrize(("text", "flor", "points", "flor_points", "used"), ARGENTINE)
def test_argentine_envido_and_flor(text, flor, points, flor_points, used):
    result = envido_points(hand(text), flor=flor)
    assert result.points == points
    assert result.flor_points == flor_points
    assert result.has_flor is (flor_points is not None)
    if used is not None:
        assert [c.code for c in result.envido.cards] == used


# (muestra, hand, flor in play, expected envido, expected flor or None)
URUGUAYAN = [
    ("1e", "5 espada, 4 copa, 3 espada", False, 32, None),  # docs/rules.md §Envido count with a muestra: pieza 28 + 4
    ("2o", "5 oro, 3 oro, 4 basto", False, 32, None),  # docs/rules.md §Envido count with a muestra: 28 + 4
    ("1e", "6 oro, 12 oro, 5 copa", False, 26, None),  # docs/rules.md §Envido count with a muestra
    ("1e", "12 copa, 11 copa, 3 basto", False, 20, None),  # docs/rules.md §Envido count with a muestra
    ("1e", "6 basto, 7 basto, 5 oro", False, 33, None),  # docs/rules.md §Envido count with a muestra
    # Two piezas make a Flor (docs/rules.md §Envido count with a muestra): the Flor, and no Envido (issue 13 item 1).
    ("11o", "2 oro, 4 oro, 5 oro", True, None, 47),  # docs/rules.md §Envido count with a muestra: flor 30 + 9 + 8
    ("6o", "2 oro, 4 oro, 7 copa", True, None, 46),  # docs/rules.md §Envido count with a muestra: flor 30 + 9 + 7
    ("6o", "2 oro, 4 oro, 7 copa", False, None, 46),  # a muestra always plays Flor
    ("4c", "12 copa, 1 espada, 3 basto", False, 32, None),  # docs/rules.md §Muestra and piezas: 12 copa is the "4", 29 + 3
    ("6o", "12 oro, 11 copa, 10 basto", False, 0, None),  # docs/rules.md §Muestra and piezas: 12 oro ordinary
    # One pieza and two cards of one suit make a Flor: pieza + the other two (docs/rules.md §Envido count with a muestra).
    ("1e", "5 espada, 3 copa, 2 copa", True, None, 33),
    # One pieza, the other two of different suits: no Flor even with Flor in play.
    ("1e", "5 espada, 3 copa, 2 oro", True, 31, None),
    # Three of a suit without piezas: 20 + all three (pagat's scheme, docs/rules.md §Envido count with a muestra).
    ("1e", "7 copa, 6 copa, 3 copa", True, None, 36),
    # The 11 (perico) and 10 (perica) are worth 27.
    ("3b", "11 basto, 7 oro, 12 copa", False, 34, None),
    ("3b", "10 basto, 6 oro, 12 copa", False, 33, None),
]


@pytest.mark.parametrize(("muestra", "text", "flor", "points", "flor_points"), URUGUAYAN)
def test_uruguayan_envido_and_flor(muestra, text, flor, points, flor_points):
    result = envido_points(hand(text), flor=flor, muestra=card(muestra))
    assert result.points == points
    assert result.flor_points == flor_points


@pytest.mark.parametrize(
    ("code", "muestra", "value"),
    [("7o", None, 7), ("1e", None, 1), ("10c", None, 0), ("11b", None, 0), ("12o", None, 0),
     ("2e", "1e", 30), ("4e", "1e", 29), ("5e", "1e", 28), ("11e", "1e", 27), ("10e", "1e", 27),
     ("12e", "1e", 0), ("12c", "4c", 29), ("12o", "6o", 0), ("2o", "1e", 2), ("12b", "11b", 27)],
)
def test_envido_value(code, muestra, value):
    assert envido_value(card(code), card(muestra) if muestra else None) == value


@pytest.mark.parametrize(
    ("text", "flor", "muestra", "lang", "line"),
    [
        ("7 oro, 6 oro, 5 copa", False, None, "es", "7 + 6 de oros + 20 = 33"),
        ("7 oro, 6 oro, 5 copa", False, None, "pt", "7 + 6 de ouros + 20 = 33"),
        ("7 oro, 6 oro, 5 copa", False, None, "en", "7 + 6 of diamonds + 20 = 33"),
        ("7 oro, 12 oro, 5 copa", False, None, "pt", "7 + 0 (K) de ouros + 20 = 27"),
        ("7 espada, 6 espada, 5 espada", True, None, "es", "7 + 6 + 5 de espadas + 20 = 38"),
        ("3 basto, 2 copa, 7 espada", False, None, "en",
         "no two of a suit, the highest card counts: 7 of spades = 7"),
        ("5 espada, 4 copa, 3 espada", False, "1e", "es",
         "5 de espada (pieza 28) + 4 de copa (4) = 32"),
    ],
)
def test_explanation(text, flor, muestra, lang, line):
    result = envido_points(hand(text), flor=flor, muestra=card(muestra) if muestra else None)
    assert result.explanation(lang) == line


@pytest.mark.parametrize(
    ("cards", "muestra", "code"),
    [(["7o", "6o"], None, "card_count"), (["7o", "6o", "5o", "4o"], None, "card_count"),
     (["7o", "7o", "5o"], None, "duplicate_card"), (["7o", "6o", "1e"], "1e", "duplicate_card")],
)
def test_bad_hands(cards, muestra, code):
    with pytest.raises(CardError) as info:
        envido_points([card(c) for c in cards], muestra=card(muestra) if muestra else None)
    assert info.value.code == code


# --- exhaustive: every three-card hand against a brute-force definition ----------------------

def brute_force_envido(cards):
    """Independent definition from docs/rules.md §Envido count: the best over every pair and every single
    card, where a pair of one suit is 20 + both values and any other choice is one card's value."""
    def value(c):
        return c.rank if c.rank <= 7 else 0

    best = max(value(c) for c in cards)
    for a, b in combinations(cards, 2):
        if a.suit == b.suit:
            best = max(best, 20 + value(a) + value(b))
    return best


def brute_force_flor(cards):
    """docs/rules.md §Flor count: three of one suit -> 20 + the three values; otherwise no flor."""
    if len({c.suit for c in cards}) != 1:
        return None
    return 20 + sum(c.rank if c.rank <= 7 else 0 for c in cards)


ALL_HANDS = list(combinations(DECK, 3))


def test_there_are_9880_hands():
    assert len(ALL_HANDS) == 9880


def test_every_hand_matches_the_brute_force():
    for cards in ALL_HANDS:
        sin_flor = envido_points(cards)
        con_flor = envido_points(cards, flor=True)
        expected = brute_force_envido(cards)
        assert sin_flor.points == expected, cards
        # A Flor in play: the hand sings its Flor, no Envido (issue 13 item 1).
        assert con_flor.points == (None if brute_force_flor(cards) else expected), cards
        assert sin_flor.flor_points is None, cards
        assert con_flor.flor_points == brute_force_flor(cards), cards
        assert 0 <= expected <= 7 or 20 <= expected <= 33
        # The cards reported make the points.
        used = sin_flor.envido.cards
        assert set(used) <= set(cards)
        if len(used) == 2:
            assert used[0].suit == used[1].suit
            assert expected == 20 + sum(c.rank if c.rank <= 7 else 0 for c in used)
        else:
            assert expected == (used[0].rank if used[0].rank <= 7 else 0)


def test_every_hand_with_a_muestra_matches_the_brute_force():
    muestra = card("3o")  # piezas 2o 4o 5o 11o 10o, worth 30 29 28 27 27
    pieza_value = {card("2o"): 30, card("4o"): 29, card("5o"): 28, card("11o"): 27,
                   card("10o"): 27}
    for cards in ALL_HANDS:
        if muestra in cards:
            continue
        held = sorted((pieza_value[c] for c in cards if c in pieza_value), reverse=True)
        plain = [c.rank if c.rank <= 7 else 0 for c in cards if c not in pieza_value]
        others = [c for c in cards if c not in pieza_value]
        flor = len(held) >= 2 or len({c.suit for c in others}) == 1  # 2+ piezas; 1 + a pair; 3 of a suit
        if flor:
            # A Flor (two piezas; one pieza and two of a suit; three of a suit): it sings
            # the Flor and declares no Envido (docs/rules.md §Flor cancels Envido, §Envido count with a muestra; issue 13 item 1).
            expected = None
        elif not held:
            expected = brute_force_envido(cards)
        else:
            # best pieza + best of the rest
            expected = held[0] + max(plain)
        assert envido_points(cards, muestra=muestra).points == expected, cards
