"""A season worked out by hand (scorer.core.club.season; docs/club.md "Season table"): three
nights, six players (A=1 ... F=6), pairs that change. Every count below was added up by hand
from the games' lines, before the code ran; the ratings are openskill's, so where a number is
a rating the test asks the library itself (or its documented example) and checks only that the
season played the games in order, from fresh ratings, once each.

The games (a side's statistics: envido_won, truco_called, truco_refused, folds):

    night 2026-11-06  G1  A+B beat C+D   A+B (1,2,0,0)   C+D (0,1,1,1)   ended 23:00 UTC
                      G2  E+F beat C+D   E+F (2,1,0,0)   C+D (0,0,1,2)   ended 01:30 UTC on the 7th
                                          (before 06:00: still the night of the 6th)
    night 2026-11-13  G3  A+C beat B+E   A+C (1,1,0,0)   B+E (1,2,1,0)
                      G4  D+F beat A+C   D+F (0,3,0,1)   A+C (1,0,2,0)
    night 2026-11-20  G5  A+B beat E+F   A+B (1,1,0,0)   E+F (0,1,0,1)
                      G6  A+B beat C+D   A+B (0,2,0,0)   C+D (1,0,1,1)

Per player, by hand (games; wins; the four statistics summed over the sides they sat on):

    A  G1 G3 G4 G5 G6 = 5; won G1 G3 G5 G6 = 4; (1,2,0,0)+(1,1,0,0)+(1,0,2,0)+(1,1,0,0)+(0,2,0,0) = (4,6,2,0)
    B  G1 G3 G5 G6    = 4; won G1 G5 G6    = 3; (1,2,0,0)+(1,2,1,0)+(1,1,0,0)+(0,2,0,0)           = (3,7,1,0)
    C  G1 G2 G3 G4 G6 = 5; won G3          = 1; (0,1,1,1)+(0,0,1,2)+(1,1,0,0)+(1,0,2,0)+(1,0,1,1) = (3,2,5,4)
    D  G1 G2 G4 G6    = 4; won G4          = 1; (0,1,1,1)+(0,0,1,2)+(0,3,0,1)+(1,0,1,1)           = (1,4,3,5)
    E  G2 G3 G5       = 3; won G2          = 1; (2,1,0,0)+(1,2,1,0)+(0,1,0,1)                     = (3,4,1,1)
    F  G2 G4 G5       = 3; won G2 G4       = 2; (2,1,0,0)+(0,3,0,1)+(0,1,0,1)                     = (2,5,0,2)
    check: 5+4+5+4+3+3 = 24 = 6 games x 4 seats; wins 4+3+1+1+1+2 = 12 = 6 games x 2 winners.

Partnerships, by hand: A+B G1 G5 G6 3-0; C+D G1 G2 G6 0-3; E+F G2 won, G5 lost 1-1; A+C G3 won,
G4 lost 1-1; B+E G3 0-1; D+F G4 1-0. Ranked (2 games or more): A+B (100%), then A+C and E+F (50%,
1 win, 2 games: lower numbers first), then C+D (0%). Best: the upper half, A+B and A+C; worst, worst
first: C+D, then E+F.

Nights of A: the 6th 1 game 1 win; the 13th 2 games 1 win; the 20th 2 games 2 wins.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from openskill.models import PlackettLuce

from scorer.core.club import ClubGame, night_of, play_season

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6
KEYS = ("envido_won", "truco_called", "truco_refused", "folds")


def at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp()


def side(*values: int) -> dict[str, int]:
    return dict(zip(KEYS, values))


GAMES = [
    ClubGame("g1", at("2026-11-06T23:00"), ((A, B), (C, D)), 0, (side(1, 2, 0, 0), side(0, 1, 1, 1))),
    ClubGame("g2", at("2026-11-07T01:30"), ((E, F), (C, D)), 0, (side(2, 1, 0, 0), side(0, 0, 1, 2))),
    ClubGame("g3", at("2026-11-13T22:00"), ((A, C), (B, E)), 0, (side(1, 1, 0, 0), side(1, 2, 1, 0))),
    ClubGame("g4", at("2026-11-13T23:10"), ((D, F), (A, C)), 0, (side(0, 3, 0, 1), side(1, 0, 2, 0))),
    ClubGame("g5", at("2026-11-20T22:00"), ((A, B), (E, F)), 0, (side(1, 1, 0, 0), side(0, 1, 0, 1))),
    ClubGame("g6", at("2026-11-20T23:30"), ((A, B), (C, D)), 0, (side(0, 2, 0, 0), side(1, 0, 1, 1))),
]

BY_HAND = {  # player: (games, wins, (envido_won, truco_called, truco_refused, folds))
    A: (5, 4, (4, 6, 2, 0)),
    B: (4, 3, (3, 7, 1, 0)),
    C: (5, 1, (3, 2, 5, 4)),
    D: (4, 1, (1, 4, 3, 5)),
    E: (3, 1, (3, 4, 1, 1)),
    F: (3, 2, (2, 5, 0, 2)),
}


def test_nights_run_from_six_to_six():
    assert [g.night for g in GAMES] == ["2026-11-06", "2026-11-06", "2026-11-13", "2026-11-13",
                                        "2026-11-20", "2026-11-20"]
    assert night_of(at("2026-11-07T05:59")) == "2026-11-06" and night_of(at("2026-11-07T06:00")) == "2026-11-07"


def test_the_table_counts_match_the_hand_sums():
    season = play_season(reversed(GAMES), [A, B, C, D, E, F])  # the order given does not matter
    assert season.games == 6
    got = {r.player: (r.matches, r.wins, tuple(r.stats[k] for k in KEYS)) for r in season.rows}
    assert got == BY_HAND


def library_ratings(games) -> dict[int, tuple[float, float]]:
    """The same games rated by openskill directly, in the order they ended."""
    model, now = PlackettLuce(), {}
    for g in sorted(games, key=lambda g: g.ended):
        teams = [[now.get(p, model.rating()) for p in s] for s in g.sides]
        rated = model.rate(teams, ranks=[0, 1] if g.winner == 0 else [1, 0])
        for s, team in zip(g.sides, rated):
            for p, r in zip(s, team):
                now[p] = model.rating(mu=r.mu, sigma=r.sigma)
    return {p: (r.mu, r.sigma) for p, r in now.items()}


def test_the_ratings_are_the_librarys_in_the_order_the_games_ended():
    season = play_season(GAMES, [A, B, C, D, E, F])
    expected = library_ratings(GAMES)
    got = {r.player: (r.rating.mu, r.rating.sigma) for r in season.rows}
    assert got.keys() == expected.keys()
    for p, (mu, sigma) in expected.items():
        assert got[p] == pytest.approx((mu, sigma), abs=1e-9)
    ordinals = [r.rating.ordinal for r in season.rows]
    assert ordinals == sorted(ordinals, reverse=True)
    # By hand: A won 4 of 5 with three partners; D lost 3 of 4: A is first, D below A.
    assert season.rows[0].player == A
    assert [r.player for r in season.rows].index(D) > 0


def test_the_first_game_is_the_documented_two_against_two():
    season = play_season(GAMES[:1], [A, B, C, D, E, F])
    by = {r.player: r for r in season.rows}
    assert by[A].rating.mu == pytest.approx(26.964294621803063) and by[C].rating.mu == pytest.approx(23.035705378196937)
    assert (by[E].matches, by[E].rating.mu) == (0, 25.0)  # listed, never played


def test_partnerships_by_hand():
    season = play_season(GAMES, [A, B, C, D, E, F])
    assert [(p.players, p.matches, p.wins) for p in season.pairs] == [
        ((A, B), 3, 3), ((D, F), 1, 1), ((A, C), 2, 1), ((E, F), 2, 1), ((B, E), 1, 0), ((C, D), 3, 0)]
    assert [(p.players, p.matches, p.wins, p.losses) for p in season.best] == [((A, B), 3, 3, 0), ((A, C), 2, 1, 1)]
    assert [(p.players, p.matches, p.wins, p.losses) for p in season.worst] == [((C, D), 3, 0, 3), ((E, F), 2, 1, 1)]


def test_a_players_nights_by_hand():
    season = play_season(GAMES, [A, B, C, D, E, F])
    assert [(n.night, n.matches, n.wins) for n in season.nights[A]] == [
        ("2026-11-06", 1, 1), ("2026-11-13", 2, 1), ("2026-11-20", 2, 2)]
    # the 13th: G3 (1,1,0,0) as A+C and G4 (1,0,2,0) as A+C = (2,1,2,0)
    assert tuple(season.nights[A][1].stats[k] for k in KEYS) == (2, 1, 2, 0)
    # the rating after a night is the one after its last game
    last = {r.player: r for r in season.rows}[A].rating
    assert season.nights[A][-1].rating == last


def test_a_season_starts_fresh_and_keeps_only_its_nights():
    later = play_season(GAMES, [A, B, C, D, E, F], first_night="2026-11-13", last_night="2026-11-20")
    by = {r.player: r for r in later.rows}
    # G3..G6 only. A: G3 won, G4 lost, G5 won, G6 won = 4 games, 3 wins; D: G4 won, G6 lost = 2, 1.
    assert (by[A].matches, by[A].wins) == (4, 3) and (by[D].matches, by[D].wins) == (2, 1)
    assert later.games == 4
    # fresh: G3 is a first game for all four, so A (winner) has the documented 2 v 2 after it
    first = play_season(GAMES, [A, B, C, D, E, F], first_night="2026-11-13", last_night="2026-11-13")
    assert first.nights[B][0].matches == 1
    assert {r.player: r.rating.mu for r in play_season(GAMES[2:3]).rows}[A] == pytest.approx(26.964294621803063)
    assert {r.player: r.rating.mu for r in later.rows} == pytest.approx(
        {p: mu for p, (mu, _s) in library_ratings(GAMES[2:]).items()})


def test_a_stored_season_reads_back_the_same():
    from scorer.core.club import season_from_json, season_to_json
    import json

    season = play_season(GAMES, [A, B, C, D, E, F])
    back = season_from_json(json.loads(json.dumps(season_to_json(season))))
    assert back == season


@pytest.mark.parametrize("cut", [0, 1, 3, 5])
def test_a_stored_season_going_on_is_the_whole_season(cut):
    """The first read after a game ends rates only the new games, from the stored season: the
    same table, partnerships and nights as playing every game again."""
    from scorer.core.club import season_from_json, season_to_json
    import json

    stored = season_from_json(json.loads(json.dumps(season_to_json(play_season(GAMES[:cut], [A, B, C, D])))))
    going_on = play_season(GAMES[cut:], [A, B, C, D, E, F], start=stored)
    whole = play_season(GAMES, [A, B, C, D, E, F])
    assert season_to_json(going_on) == season_to_json(whole)
    assert going_on.nights[A] == whole.nights[A] and going_on.games == 6
