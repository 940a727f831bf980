"""scorer.core.seats: mano and dealer per hand at 4 and 6; redonda / pica-pica (docs/rules.md §Seats and pica-pica)."""

import pytest

from scorer.core.seats import hand_seats, play_order, six_player_round

FOUR = [["Ana", "Bia"], ["Caio", "Duda"]]
SIX = [["Ana", "Bia", "Cris"], ["Davi", "Eva", "Fábio"]]


def names(seats):
    return [s.name for s in seats]


def test_play_order_alternates_sides_from_the_first_mano():
    assert names(play_order(FOUR, 0)) == ["Ana", "Caio", "Bia", "Duda"]
    assert names(play_order(FOUR, 1)) == ["Caio", "Ana", "Duda", "Bia"]
    assert [s.side for s in play_order(SIX, 1)] == [1, 0, 1, 0, 1, 0]


@pytest.mark.parametrize(
    ("hand", "mano", "dealer"),
    [(1, "Ana", "Duda"), (2, "Caio", "Ana"), (3, "Bia", "Caio"), (4, "Duda", "Bia"), (5, "Ana", "Duda")],
)
def test_four_players_mano_moves_one_seat_and_the_dealer_is_the_seat_before(hand, mano, dealer):
    h = hand_seats(FOUR, 0, hand, variant="paulista", score=[0, 0], target=12)
    assert (h.mano.name, h.dealer.name, h.round, h.duels) == (mano, dealer, None, ())
    # The mano's side alternates hand by hand, as the engine's does.
    assert h.mano.side == (0 if hand % 2 else 1)


@pytest.mark.parametrize(
    ("hand", "score", "expected"),
    [
        (1, [0, 0], "redonda"),
        (2, [0, 0], "pica-pica"),
        (3, [10, 4], "redonda"),
        (4, [24, 20], "pica-pica"),
        (4, [25, 20], "redonda"),  # the last 5 points: only redonda
        (6, [3, 27], "redonda"),
    ],
)
def test_six_player_argentino_alternates_redonda_and_pica_pica(hand, score, expected):
    assert six_player_round("argentino-30", hand, score, 30) == expected
    h = hand_seats(SIX, 0, hand, variant="argentino-30", score=score, target=30)
    assert h.round == expected
    assert len(h.duels) == (3 if expected == "pica-pica" else 0)


def test_pica_pica_pairs_each_player_with_the_one_sitting_opposite():
    h = hand_seats(SIX, 0, 2, variant="argentino-30", score=[0, 0], target=30)
    # Order of play: Ana, Davi, Bia, Eva, Cris, Fábio; hand 2 starts at Davi.
    assert h.mano.name == "Davi" and h.dealer.name == "Ana"
    assert {(a.name, b.name) for a, b in h.duels} == {("Ana", "Eva"), ("Cris", "Davi"), ("Bia", "Fábio")}
    assert all(a.side == 0 and b.side == 1 for a, b in h.duels)


def test_six_players_of_other_variants_have_no_round():
    h = hand_seats(SIX, 1, 2, variant="paulista", score=[0, 0], target=12)
    assert h.round is None and h.mano.name == "Ana"


@pytest.mark.parametrize(
    ("players", "mano", "hand"),
    [([["A"], ["B"]], 0, 1), ([["A", "B"], ["C"]], 0, 1), (FOUR, 2, 1), (FOUR, 0, 0)],
)
def test_bad_tables_are_refused(players, mano, hand):
    with pytest.raises(ValueError):
        hand_seats(players, mano, hand, variant="paulista", score=[0, 0], target=12)
