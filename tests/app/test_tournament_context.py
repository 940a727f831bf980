"""What a table's board knows of its tournament (scorer.app.tournament_context, issue 19
item 7), on SQLite and PostgreSQL: the place (stage, round, level, table), whether the
tournament took the result, and what comes next for each team, per format."""

from __future__ import annotations

import pytest

from scorer.app import store, tournament_service
from scorer.app.tournament_keys import TournamentKeys
from scorer.app.tournament_context import Next, Place, organizer_poll, tournament_context

TEAMS = ["Alfa", "Beta", "Gama", "Delta"]

#: The instance secret's keys these tests' tournaments use (issue 23).
KEYS = TournamentKeys(b"a test instance secret, 32 bytes")


@pytest.fixture
def db(migrated_db_url, connect):
    conn = connect(migrated_db_url)
    store.init_db(conn)
    return conn


def create(db, teams=TEAMS, **settings):
    data = {"name": "Copa", "variant": "truco-15", "teams": list(teams), **settings}
    return tournament_service.create_from(db, data, default_name="Torneio", keys=KEYS)


def game(db, loaded, slot) -> store.MatchRow:
    """The latest game of a slot's series (the board the table has open)."""
    live = loaded.live[slot]
    return store.get_match(db, live.match_id)


def finish(db, loaded, slot, side):
    """The table's last point: 15 for ``side``; then the tournament advances (the hook's work)."""
    m = game(db, loaded, slot)
    score = (15, 3) if side == 0 else (3, 15)
    store.append_action(db, m.id, m.version, {"type": "adjust", "side": side, "delta": 15}, score=score, winner=side)
    return tournament_service.advance(db, loaded.row.id, keys=KEYS)


def lines(db, loaded, slot):
    ctx = tournament_context(db, game(db, loaded, slot))
    return [(n.team, n.kind, n.opponent) for n in ctx.next]


def test_an_ordinary_match_has_no_tournament(db):
    m = store.create_match(db, variant="truco-15", options={}, names=["Nós", "Eles"], mano=0)
    assert tournament_context(db, m) is None


@pytest.mark.parametrize(("settings", "slot", "place"), [
    ({}, "main:1:2", Place("main", 1, 1, 2)),
    ({"teams": TEAMS[:2]}, "main:1:1", Place("main", 1, 0, 1)),
    ({"teams": [f"T{i}" for i in range(9)]}, "main:1:1", Place("main", 1, None, 1)),
    ({"format": "round_robin"}, "league:2:2", Place("league", 2, None, 2)),
    ({"format": "groups", "groups": 2, "advance": 1}, "group2:1:1", Place("group2", 1, None, 2)),
])
def test_the_place_of_a_match(db, settings, slot, place):
    loaded = create(db, **settings)
    ctx = tournament_context(db, game(db, loaded, slot))
    assert (ctx.name, ctx.place, ctx.taken, ctx.next) == ("Copa", place, False, ())


def test_knockout_the_winner_waits_then_meets_its_opponent_the_loser_is_out(db):
    loaded = create(db)  # Alfa v Delta, Beta v Gama
    loaded = finish(db, loaded, "main:1:1", 0)
    ctx = tournament_context(db, game(db, loaded, "main:1:1"))
    assert ctx.taken and ctx.next == (
        Next("Alfa", "waiting", Place("main", 2, 0), after=Place("main", 1, 1), after_teams=("Beta", "Gama")),
        Next("Delta", "out"))
    loaded = finish(db, loaded, "main:1:2", 1)
    assert lines(db, loaded, "main:1:1") == [("Alfa", "match", "Gama"), ("Delta", "out", None)]
    assert tournament_context(db, game(db, loaded, "main:1:1")).next[0].place == Place("main", 2, 0, 1)
    loaded = finish(db, loaded, "main:2:1", 1)
    assert lines(db, loaded, "main:1:1") == lines(db, loaded, "main:2:1") == [("Gama", "champion", None)]


def test_league_each_team_gets_its_next_round_then_the_champion(db):
    loaded = create(db, format="round_robin")
    first = loaded.view.slots["league:1:1"]
    loaded = finish(db, loaded, "league:1:1", 0)
    got = tournament_context(db, game(db, loaded, "league:1:1")).next
    for n, team in zip(got, first.teams):
        after = next(v for v in loaded.view.slots.values() if v.slot.round == 2 and team in v.teams)
        opponent = TEAMS[after.teams[1 - after.teams.index(team)]]
        assert (n.team, n.kind, n.opponent, n.place.round, n.place.table) == (
            TEAMS[team], "match", opponent, 2, loaded.slots[after.slot.id].table_number)
    for slot in [s for s in loaded.view.slots if s != "league:1:1"]:
        loaded = finish(db, loaded, slot, 0)
    assert loaded.view.champion is not None
    assert lines(db, loaded, "league:1:1") == [(TEAMS[loaded.view.champion], "champion", None)]


def test_league_a_team_that_played_everything_is_done(db):
    loaded = create(db, teams=TEAMS[:3], format="round_robin")  # each team plays 2 of 3 rounds
    team = 0
    mine = [v.slot.id for v in loaded.view.slots.values() if team in v.teams]
    for slot in mine:
        loaded = finish(db, loaded, slot, loaded.view.slots[slot].teams.index(team))
    assert lines(db, loaded, mine[-1])[0] == ("Alfa", "done", None)


def test_groups_wait_for_the_stage_then_qualify_or_go_out(db):
    loaded = create(db, format="groups", groups=2, advance=1)
    loaded = finish(db, loaded, "group1:1:1", 0)
    one = loaded.view.slots["group1:1:1"]
    assert [k for _t, k, _o in lines(db, loaded, "group1:1:1")] == ["groups", "groups"]
    loaded = finish(db, loaded, "group2:1:1", 0)
    two = loaded.view.slots["group2:1:1"]
    assert lines(db, loaded, "group1:1:1") == [(TEAMS[one.teams[0]], "match", TEAMS[two.teams[0]]),
                                               (TEAMS[one.teams[1]], "out", None)]


def test_repescagem_the_loser_goes_on_in_it(db):
    loaded = create(db, repescagem="apart")
    loaded = finish(db, loaded, "main:1:1", 0)
    assert lines(db, loaded, "main:1:1")[1][:2] == ("Delta", "waiting")
    loaded = finish(db, loaded, "main:1:2", 0)
    assert lines(db, loaded, "main:1:1")[1] == ("Delta", "match", "Gama")


def test_a_result_waiting_for_confirmation(db):
    loaded = create(db, confirm=True)
    loaded = finish(db, loaded, "main:1:1", 0)
    ctx = tournament_context(db, game(db, loaded, "main:1:1"))
    assert ctx.taken and ctx.next == (Next("", "confirm"),)


def test_best_of_three_is_not_taken_until_the_series_is(db):
    loaded = create(db, teams=TEAMS[:2], best_of=3)
    loaded = finish(db, loaded, "main:1:1", 0)
    assert tournament_context(db, game(db, loaded, "main:1:1")).taken is False


def test_the_organizer_poll_reads_the_row_and_the_stamp(db):
    loaded = create(db)
    row, stamp = organizer_poll(db, loaded.row.id)
    assert row.organizer_hash == loaded.row.organizer_hash and stamp == tournament_service.stamp(db, loaded.row.id)
    finish(db, loaded, "main:1:1", 0)
    assert organizer_poll(db, loaded.row.id)[1] != stamp
    assert organizer_poll(db, "nope") is None
