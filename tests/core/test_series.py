"""scorer.core.series: best of 1/3/5 (docs/rules.md §Series: "leva a mesa quem ganhar 2 ou 3 partidas")."""

import pytest

from scorer.core.series import series_status


@pytest.mark.parametrize(
    ("wins", "best_of", "games", "needed", "winner"),
    [
        ((0, 0), 3, 1, 2, None),
        ((1, 0), 3, 2, 2, None),
        ((1, 1), 3, 3, 2, None),
        ((2, 1), 3, 3, 2, 0),
        ((0, 2), 3, 2, 2, 1),
        ((2, 2), 5, 5, 3, None),
        ((3, 1), 5, 4, 3, 0),
        ((1, 3), 5, 4, 3, 1),
        ((4, 2), 1, 7, 1, None),  # best of 1: a running tally, never decided
    ],
)
def test_series_status(wins, best_of, games, needed, winner):
    s = series_status(wins, best_of, games)
    assert (s.needed, s.winner, s.wins, s.game) == (needed, winner, tuple(wins), games)
    assert s.decided is (winner is not None)


@pytest.mark.parametrize(("wins", "best_of", "games"), [((0, 0), 4, 1), ((2, 0), 3, 1), ((-1, 0), 3, 1)])
def test_series_status_refuses_what_does_not_fit(wins, best_of, games):
    with pytest.raises(ValueError):
        series_status(wins, best_of, games)
