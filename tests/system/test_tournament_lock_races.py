"""A table's Undo racing the tournament's recording of the result it undoes (issue 19), on
SQLite and PostgreSQL: two connections, two threads released together, many runs.

Each run ends a tournament match 15-12 (the final action already stored), then one
thread advances the tournament (it records the result) while another phone's Undo
arrives. By construction one of them wins: the result is recorded and the Undo refused
(``tournament_result_taken``), or the Undo is stored and nothing is recorded. A run where
the tournament shows a result the scoreboard no longer shows is a disagreement: none is
allowed.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from scorer.app import store, tournament_service, tournament_store
from scorer.app.tournament_keys import TournamentKeys
from scorer.app.match_service import MatchService
from scorer.core.errors import RuleError

RUNS = {"sqlite": 60, "postgresql": 150}

#: The instance secret's keys these tests' tournaments use (issue 23).
KEYS = TournamentKeys(b"a test instance secret, 32 bytes")


def a_finished_match(db, service):
    """A new two-team tournament whose only match the table has just ended 15-12 (the
    tournament has not read it yet); ``(tournament id, match id, version)``."""
    loaded = tournament_service.create_from(db, {"variant": "truco-15", "teams": ["Os Gaúchos", "Os Zap"]},
                                            default_name="Copa", keys=KEYS)
    match_id = loaded.slots["main:1:1"].match_id
    for version, (side, delta) in enumerate([(1, 12), (0, 14), (0, 1)]):
        service.act(db, match_id, {"type": "adjust", "side": side, "delta": delta}, version, with_state=False)
    return loaded.row.id, match_id, 3


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_undo_racing_the_result_recording_never_disagrees(backend, request, tmp_path, connect, monkeypatch):
    url = str(tmp_path / "races.sqlite3") if backend == "sqlite" else request.getfixturevalue("pg_url")
    recorder, table = connect(url), connect(url)
    store.init_db(recorder)
    inside = Counter()
    real_record = tournament_store.record_result

    def record_result(*args, **kwargs):  # notes a recording the series check turned down
        recorded = real_record(*args, **kwargs)
        if not recorded and kwargs.get("series"):
            inside["recording turned down: the games changed"] += 1
        return recorded

    monkeypatch.setattr(tournament_store, "record_result", record_result)

    def guard(db, row, kind):  # the tournament's guard, noting where it refused
        try:
            tournament_service.guard(db, row, kind)
        except RuleError:
            inside["Undo refused " + ("in its write" if db.in_transaction else "before its write")] += 1
            raise

    service = MatchService()
    service.guards.append(guard)
    outcomes, disagreements = Counter(), []
    for run in range(RUNS[backend]):
        tid, match_id, version = a_finished_match(recorder, service)
        barrier = threading.Barrier(2)
        undo: list[str] = []

        def record():
            barrier.wait()
            tournament_service.advance(recorder, tid, keys=KEYS)

        def tap_undo():
            barrier.wait()
            try:
                service.act(table, match_id, {"type": "undo"}, version, with_state=False)
                undo.append("stored")
            except RuleError as e:
                undo.append(e.code)

        threads = [threading.Thread(target=record), threading.Thread(target=tap_undo)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        loaded = tournament_service.advance(recorder, tid, keys=KEYS)
        result, board = loaded.results.get("main:1:1"), store.get_match(recorder, match_id)
        outcomes[(undo[0], "recorded" if result else "open")] += 1
        shown = (board.winner, board.score)
        if result is not None and (result.winner, result.tentos) != shown:
            disagreements.append((run, result, shown))
        if result is None and (undo != ["stored"] or board.winner is not None):
            disagreements.append((run, None, shown))
    assert not disagreements, disagreements
    assert set(outcomes) <= {("tournament_result_taken", "recorded"), ("stored", "open")}, outcomes
    print(f"\n{backend}: {RUNS[backend]} races, {len(disagreements)} disagreements; {dict(outcomes)};"
          f" {dict(inside)}")


class Steps:
    """Orders two connections' statements by events: each rule ``(connection, test, before,
    wait, after)`` applies to the first statement of ``connection`` that passes
    ``test(statement, in_transaction)`` (a listener runs just before the statement is
    sent): it sets the event ``before``, waits for ``wait``, then sets ``after`` (each may
    be None). Waits are bounded: a step that never comes fails the test, never hangs it."""

    def __init__(self, rules):
        self.rules = list(rules)
        self.events = {name: threading.Event() for rule in self.rules for name in rule[2:] if name}
        self.missed: list[str] = []

    def __call__(self, db, statement):
        for rule in list(self.rules):
            conn, test, before, wait, after = rule
            if db is conn and test(statement, db.in_transaction):
                self.rules.remove(rule)
                if before:
                    self.events[before].set()
                if wait and not self.events[wait].wait(10):
                    self.missed.append(wait)
                if after:
                    self.events[after].set()


def begins(statement, _tx):
    return statement.startswith("BEGIN")


def commits(statement, _tx):
    return statement == "COMMIT"


def reads_the_slot_in_the_write(statement, tx):
    return tx and "FROM tournament_slot WHERE series_id" in statement


def reads_the_series_in_the_write(statement, tx):
    return tx and statement.startswith("SELECT id, score0, score1, winner, version, rematch FROM match")


def records_the_result(statement, _tx):
    return statement.startswith("UPDATE tournament_slot SET result")


def audits(statement, _tx):
    return statement.startswith("SELECT COALESCE(MAX(seq)")


def interleaving(order, backend, recorder, table):
    """The rules that force ``order``.

    "undo first": the recording has read the finished game, then the Undo writes; the
    recording's write begins while the Undo's is open (on PostgreSQL the Undo commits only
    once the recording's locked read of the series is sent, so that read waits for it).
    "result first": the Undo has passed its check before the write, then waits while the
    recording writes the result; its write begins before the recording commits."""
    if order == "undo first":
        rules = [(table, begins, None, "games read", None),
                 (recorder, begins, "games read", "undo updated", None),
                 (table, reads_the_slot_in_the_write, "undo updated", None, None)]
        if backend == "postgresql":  # SQLite's writers never overlap: the recording's BEGIN waits instead
            rules += [(table, commits, None, "series read under lock", None),
                      (recorder, reads_the_series_in_the_write, "series read under lock", None, None)]
        return Steps(rules)
    return Steps([(table, begins, "undo begins", "result written", None),
                  (recorder, records_the_result, None, "undo begins", None),
                  (recorder, audits, "result written", None, None)])


@pytest.mark.parametrize("order", ["undo first", "result first"])
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_each_order_of_an_undo_and_the_result_recording(backend, order, request, tmp_path, connect):
    """The two dangerous interleavings, forced (:func:`interleaving`), five runs each."""
    url = str(tmp_path / "order.sqlite3") if backend == "sqlite" else request.getfixturevalue("pg_url")
    recorder, table = connect(url), connect(url)
    store.init_db(recorder)
    refused_in_the_write = []

    def guard(db, row, kind):
        try:
            tournament_service.guard(db, row, kind)
        except RuleError:
            refused_in_the_write.append(db.in_transaction)
            raise

    service = MatchService()
    service.guards.append(guard)
    for _run in range(5):
        tid, match_id, version = a_finished_match(recorder, service)
        steps = interleaving(order, backend, recorder, table)
        undo: list[str] = []

        def tap_undo():
            try:
                service.act(table, match_id, {"type": "undo"}, version, with_state=False)
                undo.append("stored")
            except RuleError as e:
                undo.append(e.code)

        store.STATEMENT_LISTENERS.append(steps)
        try:
            th = threading.Thread(target=tap_undo)
            th.start()
            tournament_service.advance(recorder, tid, keys=KEYS)
            th.join()
        finally:
            store.STATEMENT_LISTENERS.remove(steps)
        assert not steps.missed and not steps.rules, (steps.missed, steps.rules)
        result = tournament_service.advance(recorder, tid, keys=KEYS).results.get("main:1:1")
        board = store.get_match(recorder, match_id)
        if order == "undo first":
            assert undo == ["stored"] and result is None and board.score == (14, 12)
        else:
            assert undo == ["tournament_result_taken"] and board.score == (15, 12)
            assert (result.winner, result.tentos) == (0, (15, 12))
    assert refused_in_the_write == ([True] * 5 if order == "result first" else [])


LIVE_RUNS = 30


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_undo_right_after_the_last_point_on_two_real_servers(backend, request, tmp_path):
    """Two ``truco serve`` processes on one database, a phone on each: phone A posts the
    last point (its request then records the result), phone B taps Undo the moment that
    point is stored. Either the Undo is refused and the result stands, or the Undo is
    stored and the match is open again; never a result the board no longer shows."""
    from live_server import Client, Server

    url = str(tmp_path / "live.sqlite3") if backend == "sqlite" else request.getfixturevalue("pg_url")
    servers = [Server(url, threads=4, ghost_tap_ms=0), Server(url, threads=4, ghost_tap_ms=0)]
    outcomes, disagreements = Counter(), []
    try:
        org = Client(servers[0].port)
        for run in range(LIVE_RUNS):
            _, t, _ = org.request("POST", "/api/tournaments", {"variant": "truco-15", "teams": ["Os Gaúchos", "Os Zap"]})
            headers = {"X-Organizer-Key": t["organizer_key"]}
            _, s, _ = org.request("GET", f"/api/tournaments/{t['id']}", headers=headers)
            match_id, key = s["rounds"][0]["matches"][0]["edit_url"].split("/")[-2:]
            edit = {"X-Edit-Key": key}
            for version, (side, delta) in enumerate([(1, 12), (0, 14)]):
                org.request("POST", f"/api/matches/{match_id}/actions",
                            {"action": {"type": "adjust", "side": side, "delta": delta}, "version": version}, edit)
            answers = {}

            def last_point():
                phone = Client(servers[0].port)
                answers["point"] = phone.request("POST", f"/api/matches/{match_id}/actions",
                                                 {"action": {"type": "adjust", "side": 0, "delta": 1}, "version": 2},
                                                 edit)[0]
                phone.close()

            def undo():
                phone = Client(servers[1].port)
                for _try in range(5000):  # the moment the point is stored (no sleep: a bounded poll)
                    if phone.request("GET", f"/api/matches/{match_id}")[1]["version"] == 3:
                        break
                status, body, _ = phone.request("POST", f"/api/matches/{match_id}/actions",
                                                {"action": {"type": "undo"}, "version": 3}, edit)
                answers["undo"] = status if status == 200 else body["error"]["code"]
                phone.close()

            threads = [threading.Thread(target=last_point), threading.Thread(target=undo)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            _, s, _ = org.request("GET", f"/api/tournaments/{t['id']}", headers=headers)
            _, board, _ = org.request("GET", f"/api/matches/{match_id}")
            m = s["rounds"][0]["matches"][0]
            outcomes[(answers["point"], answers["undo"], "recorded" if m["result"] else "open")] += 1
            if m["result"] is not None and (m["result"]["tentos"], m["result"]["winner"]) != (board["score"], board["winner"]):
                disagreements.append((run, m["result"], board["score"], board["winner"]))
            if m["result"] is None and board["winner"] is not None:
                disagreements.append((run, None, board["score"], board["winner"]))
        org.close()
    finally:
        for srv in servers:
            srv.stop()
    assert not disagreements, disagreements
    assert set(outcomes) <= {(200, "tournament_result_taken", "recorded"), (200, 200, "open")}, outcomes
    print(f"\n{backend}, two servers: {LIVE_RUNS} runs, 0 disagreements; {dict(outcomes)}")
