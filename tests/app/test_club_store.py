"""The clubs' storage and service on SQLite and PostgreSQL (scorer.app.store.clubs,
scorer.app.club_service, scorer.app.club_records; docs/club.md): a club game's facts written
when it ends and dropped by an Undo, a Revanche that keeps its players, the night's tournament,
export and import."""

from __future__ import annotations

from functools import partial

import pytest

from scorer.app import club_records, club_service as clubs, tournament_service
from scorer.app.match_service import MatchService
from scorer.app.store import clubs as cstore
from scorer.app.tournament_keys import TournamentKeys
from scorer.core.errors import TrucoError

KEYS = TournamentKeys(b"k" * 43)
TRUCO = {"type": "call", "side": 0, "call": "truco"}


@pytest.fixture
def world(migrated_db_url, connect):
    """A database, a match service with the club and tournament listeners, a club of six."""
    db = connect(migrated_db_url)
    matches = MatchService()
    matches.listeners.append(partial(tournament_service.on_action, keys=KEYS))
    matches.listeners.append(partial(clubs.on_action, matches=matches))
    matches.guards.append(tournament_service.guard)
    row, _key = clubs.create(db, "Peña del Sur")
    clubs.add_players(db, clubs.load(db, row.id), [(n, "") for n in ("Ana", "Beto", "Caio", "Duda", "Eva", "Fabi")])
    return db, matches, clubs.load(db, row.id)


def finish(db, matches, row, winner=0):
    """Play a game to its end: a truco refused by the loser, then +1s for the winner."""
    version = row.version
    r = matches.act(db, row.id, {**TRUCO, "side": winner}, version)
    r = matches.act(db, row.id, {"type": "no_quiero", "side": 1 - winner}, version + 1)
    version += 2
    while r.row.winner is None:
        r = matches.act(db, row.id, {"type": "adjust", "side": winner, "delta": 1}, version)
        version += 1
    return r.row


def test_a_finished_club_game_counts_once_and_an_undo_takes_it_back(world):
    db, matches, club = world
    row = clubs.start_match(db, matches, club, [[1, 2], [3, 4]], variant="truco-15", options={})
    assert row.names == ("Ana & Beto", "Caio & Duda") and row.players == (("Ana", "Beto"), ("Caio", "Duda"))
    assert clubs.games(db, club.row.id) == []
    ended = finish(db, matches, row)
    [game] = clubs.games(db, club.row.id)
    assert (game.sides, game.winner) == (((1, 2), (3, 4)), 0)
    assert game.stats[0]["truco_called"] == 1 and game.stats[1]["truco_refused"] == 1
    matches.act(db, row.id, {"type": "undo"}, ended.version)
    assert clubs.games(db, club.row.id) == []  # the row is left behind; the join drops it
    again = finish(db, matches, matches.get(db, row.id))
    assert len(clubs.games(db, club.row.id)) == 1 and again.winner == 0
    table = clubs.play(db, club, None)
    assert [(r.player, r.matches, r.wins) for r in table.rows[:2]] == [(1, 1, 1), (2, 1, 1)]


def test_a_revanche_keeps_the_players_even_in_a_new_series(world):
    db, matches, club = world
    row = clubs.start_match(db, matches, club, [[1], [2]], variant="truco-15", options={})
    assert row.players is None  # one a side: no seats
    first = finish(db, matches, row, winner=1)
    second = matches.rematch(db, first)
    assert second.series != first.series or second.best_of == 1
    finish(db, matches, second, winner=0)
    games = clubs.games(db, club.row.id)
    assert [(g.sides, g.winner) for g in games] == [(((1,), (2,)), 1), (((1,), (2,)), 0)]
    assert cstore.series_club(db, second.series) == (club.row.id, ((1,), (2,)))


def test_the_nights_tournament_counts_for_the_club(world):
    db, matches, club = world
    teams = clubs.draw(db, club, [1, 2, 3, 4], 2, seed=5)
    loaded = clubs.create_night(db, club, teams, {"variant": "truco-15", "format": "knockout"},
                                default_name="Night", keys=KEYS)
    assert clubs.tournaments(db, club)[0][0] == loaded.row.id
    [final] = [s for s in loaded.slots.values() if s.match_id]
    finish(db, matches, matches.get(db, final.match_id))
    [game] = clubs.games(db, club.row.id)
    a, b = loaded.view.slots[final.slot].teams
    assert game.sides == (teams[a], teams[b])
    with pytest.raises(TrucoError) as e:
        clubs.create_night(db, club, [[1, 2], [2, 3]], {"variant": "truco-15"}, default_name="x", keys=KEYS)
    assert e.value.code == "bad_teams"


def test_export_and_import_give_the_same_table(world):
    db, matches, club = world
    for sides, winner in (([[1, 2], [3, 4]], 0), ([[5, 6], [1, 3]], 1), ([[2, 4], [5, 6]], 0)):
        finish(db, matches, clubs.start_match(db, matches, club, sides, variant="truco-15", options={}), winner)
    clubs.add_season(db, club, "Spring", "2000-01-01", "2100-01-01")
    club = clubs.load(db, club.row.id)
    data = club_records.export(db, club)
    assert len(data["games"]) == 3 and "organizer" not in str(data).lower()
    new_row, key = club_records.import_club(db, matches, data, max_actions=5000)
    copy = clubs.load(db, new_row.id)
    assert new_row.id != club.row.id and key
    assert club_records.season_csv(copy, clubs.play(db, copy, copy.seasons[0])) == \
        club_records.season_csv(club, clubs.play(db, club, club.seasons[0]))


@pytest.mark.parametrize(("change", "code"), [
    (lambda d: d.update(format="x"), "bad_export"),
    (lambda d: d["games"][0].update(winner=1), "bad_export"),
    (lambda d: d["games"][0].update(sides=[[1, 2], [2, 3]]), "bad_sides"),
    (lambda d: d["games"][0].update(sides=[[1, 2], [3, 99]]), "unknown_player"),
    (lambda d: d["games"][0]["actions"].insert(0, {"type": "no_quiero", "side": 1}), "bad_export"),
    (lambda d: d["players"].append({"player": 1, "name": "Twice"}), "bad_export"),
])
def test_a_bad_import_is_refused_and_stores_nothing(world, change, code):
    db, matches, club = world
    finish(db, matches, clubs.start_match(db, matches, club, [[1, 2], [3, 4]], variant="truco-15", options={}))
    data = club_records.export(db, club)
    change(data)
    before = db.execute("SELECT COUNT(*) FROM club").scalar_one()
    with pytest.raises(TrucoError) as e:
        club_records.import_club(db, matches, data, max_actions=5000)
    assert e.value.code == code
    assert db.execute("SELECT COUNT(*) FROM club").scalar_one() == before


@pytest.mark.parametrize(("sides", "code"), [
    ([[1, 2], [3]], "bad_sides"), ([[1, 1], [3, 4]], "bad_sides"), ([[1, 2, 3, 4], [5, 6, 7, 8]], "bad_sides"),
    ([[9], [1]], "unknown_player"), ("x", "bad_sides"), ([["1"], [2]], "bad_sides"),
])
def test_bad_sides_are_refused(world, sides, code):
    db, matches, club = world
    with pytest.raises(TrucoError) as e:
        clubs.start_match(db, matches, club, sides, variant="truco-15", options={})
    assert e.value.code == code


def test_the_stored_table_follows_every_change(world):
    db, matches, club = world
    assert [r.matches for r in clubs.play(db, club, None).rows] == [0] * 6
    row = finish(db, matches, clubs.start_match(db, matches, club, [[1, 2], [3, 4]], variant="truco-15", options={}))
    first = clubs.play(db, club, None)
    assert first.games == 1 and clubs.play(db, club, None) == first  # read back as stored
    assert cstore.stored_table(db, club.row.id, 0).stamp.startswith("1:")
    matches.act(db, row.id, {"type": "undo"}, row.version)
    assert clubs.play(db, club, None).games == 0  # the Undo changed the stamp: played again
    clubs.add_players(db, club, [("Gil", "")])
    assert len(clubs.play(db, clubs.load(db, club.row.id), None).rows) == 7


def test_the_first_read_after_a_game_rates_only_the_new_game(world, monkeypatch):
    db, matches, club = world
    for sides, winner in (([[1, 2], [3, 4]], 0), ([[5, 6], [1, 3]], 1)):
        finish(db, matches, clubs.start_match(db, matches, club, sides, variant="truco-15", options={}), winner)
    clubs.play(db, club, None)
    finish(db, matches, clubs.start_match(db, matches, club, [[2, 4], [5, 6]], variant="truco-15", options={}))
    rated = []
    real = clubs.core.play_season
    monkeypatch.setattr(clubs.core, "play_season", lambda g, *a, **k: rated.append(len(list(g))) or real(g, *a, **k))
    going_on = clubs.play(db, club, None)
    assert rated == [1] and going_on.games == 3
    monkeypatch.undo()
    db.execute("DELETE FROM club_table")
    assert clubs.core.season_to_json(clubs.play(db, club, None)) == clubs.core.season_to_json(going_on)


def test_prune_keeps_a_clubs_history(world):
    """``truco db prune`` deletes idle matches and tournaments, never a club's: its games are
    the season's history (docs/club.md)."""
    from scorer.app import store

    db, matches, club = world
    finish(db, matches, clubs.start_match(db, matches, club, [[1, 2], [3, 4]], variant="truco-15", options={}))
    teams = clubs.draw(db, club, [1, 2, 3, 4], 2, seed=1)
    clubs.create_night(db, club, teams, {"variant": "truco-15"}, default_name="Night", keys=KEYS)
    lone = matches.create(db, variant="truco-15", options={}, names=["A", "B"], mano=0)
    later = 10 ** 10
    assert store.prune_tournaments(db, 0, now=later) == []
    assert store.prune(db, 0, now=later) == [lone.id]
    assert len(clubs.games(db, club.row.id)) == 1 and clubs.tournaments(db, club)


def test_truco_db_copy_takes_the_club(world, migrated_db_url, tmp_path):
    """``truco db copy`` copies a club with its matches: the copy's table is the source's."""
    from click.testing import CliRunner

    from scorer.app import store
    from scorer.cli.main import cli

    db, matches, club = world
    finish(db, matches, clubs.start_match(db, matches, club, [[1, 2], [3, 4]], variant="truco-15", options={}))
    target = tmp_path / "copy.sqlite3"
    result = CliRunner().invoke(cli, ["db", "copy", "--from", str(migrated_db_url), "--to", str(target)])
    assert result.exit_code == 0, result.output
    assert "Copied 1 clubs (0 already there)" in result.output
    copy = store.connect(target)
    try:
        there = clubs.load(copy, club.row.id)
        assert club_records.season_csv(there, clubs.play(copy, there, None)) == \
            club_records.season_csv(club, clubs.play(db, club, None))
    finally:
        copy.close()
