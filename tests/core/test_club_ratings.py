"""The club's ratings are openskill's (scorer.core.club.ratings; docs/club.md "Ratings"),
checked against the library's own documented examples, not against numbers this code made.

Sources (openskill 6.x, the version pyproject.toml pins):
- the package's README (its PyPI page, ``openskill-6.*.dist-info/METADATA``, "Limited Example"):
  a 2 v 2 of four new players, the first team winning: a = b = mu 26.964294621803063,
  sigma 8.177962604389991; x = y = mu 23.035705378196937, sigma 8.177962604389991.
- the user manual (docs/source/manual.rst, "Ranks"): after that game the winner's ordinal
  is 2.4304068086330872 and the loser's -1.4981824349730388; ("Predicting Winners") a 1 v 1
  of a new player against mu 33.564, sigma 1.123: win chances 0.2021226121041832 and
  0.7978773878958167.
The manual has no worked 1 v 1 update; a 1 v 1 is checked against the library's own
``rate`` (which our wrapper must only call) and the documented 1 v 1 prediction of the model we use.
"""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from scorer.core.club import DEFAULT_MU, DEFAULT_SIGMA, Rating, certainty, rate_game
from scorer.core.club.ratings import MODEL


def test_a_new_player_is_the_library_default():
    assert (DEFAULT_MU, DEFAULT_SIGMA) == (25.0, 25.0 / 3.0)
    assert Rating() == Rating(25.0, 8.333333333333334)


def test_two_against_two_is_the_readme_example():
    new = Rating()
    (a, b), (x, y) = rate_game(((new, new), (new, new)), winner=0)
    assert a == b and x == y
    assert a.mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert a.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert x.mu == pytest.approx(23.035705378196937, abs=1e-12)
    assert x.sigma == pytest.approx(8.177962604389991, abs=1e-12)


def test_the_ordinals_are_the_manuals():
    new = Rating()
    (a, _), (x, _) = rate_game(((new, new), (new, new)), winner=0)
    assert a.ordinal == pytest.approx(2.4304068086330872, abs=1e-12)
    assert x.ordinal == pytest.approx(-1.4981824349730388, abs=1e-12)


def test_the_winner_can_be_the_second_side():
    new = Rating()
    (x, y), (a, b) = rate_game(((new, new), (new, new)), winner=1)
    assert a.mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert x.mu == pytest.approx(23.035705378196937, abs=1e-12)


def test_one_against_one_is_the_librarys_own_update():
    # The documented 1 v 1 prediction holds for the model the club uses:
    p1, p2 = MODEL.rating(), MODEL.rating(mu=33.564, sigma=1.123)
    assert MODEL.predict_win([[p1], [p2]]) == pytest.approx([0.2021226121041832, 0.7978773878958167], abs=1e-12)
    # and a 1 v 1 is exactly the library's update, the winner ranked first:
    lib = PlackettLuce()
    [[w], [l]] = lib.rate([[lib.rating(mu=30.0, sigma=5.0)], [lib.rating(mu=22.0, sigma=7.0)]])
    (ww,), (ll,) = rate_game(((Rating(30.0, 5.0),), (Rating(22.0, 7.0),)), winner=0)
    assert (ww.mu, ww.sigma, ll.mu, ll.sigma) == (w.mu, w.sigma, l.mu, l.sigma)
    # two new players: the winner gains what the loser gives up, both grow more certain
    (a,), (b,) = rate_game(((Rating(),), (Rating(),)), winner=0)
    assert a.mu - 25.0 == pytest.approx(25.0 - b.mu) and a.mu > 25.0 and a.sigma == b.sigma < DEFAULT_SIGMA


def test_three_against_three():
    new = Rating()
    after = rate_game(((new,) * 3, (new,) * 3), winner=0)
    assert len(set(after[0])) == 1 and len(set(after[1])) == 1
    assert after[0][0].mu > 25.0 > after[1][0].mu


@pytest.mark.parametrize(("sigma", "words"), [(8.33, "provisional"), (7.0, "provisional"), (6.99, "shaping"),
                                              (5.0, "shaping"), (4.99, "settled")])
def test_certainty_in_three_steps(sigma, words):
    assert certainty(Rating(25.0, sigma)) == words


@pytest.mark.parametrize("winner", [2, -1, None])
def test_a_game_needs_a_winner(winner):
    with pytest.raises(ValueError):
        rate_game(((Rating(),), (Rating(),)), winner=winner)
