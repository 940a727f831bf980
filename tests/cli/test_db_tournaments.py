"""``truco db copy`` and ``truco db prune`` with tournaments (issue 19, item 5), on SQLite
and PostgreSQL: a live tournament copied mid-way keeps every link (organizer, TV, team,
table) and plays on to its champion on the copy; prune never cuts a live tournament and
deletes an idle one whole."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from scorer.app import store
from scorer.cli.main import cli
from scorer.web import create_app

DAY = 86400
SEMIS = ("main:1:1", "main:1:2")
TABLES = (("tournament", "id", "id"), ("tournament_slot", "tournament_id", "position"),
          ("tournament_audit", "tournament_id", "seq"), ("tournament_dropped", "tournament_id", "series_id"))


def path_of(url):
    return urlsplit(url).path


def matches(s):
    return {m["slot"]: m for stage in [{"rounds": s["rounds"]}] + s["stages"] for r in stage["rounds"]
            for m in r["matches"]}


#: The instance secret both databases' apps share (tables' and teams' keys derive from it).
SECRET = "one instance secret shared by source and copy"


class Organizer:
    """A tournament driven through one app (one database): state, tables, confirmations."""

    def __init__(self, database, t=None, **settings):
        # The source and the copy share one instance secret, as every server of a host must (issue 23).
        self.client = create_app({"TESTING": True, "DATABASE": database, "INSTANCE_SECRET": SECRET}).test_client()
        if t is None:
            r = self.client.post("/api/tournaments", json={
                "name": "Copa do Boteco", "variant": "truco-15", "draw": True,
                "teams": [{"name": n, "players": [n + "1", n + "2"]} for n in ("Ana", "Bia", "Caio", "Duda")],
                **settings})
            assert r.status_code == 201, r.get_json()
            t = r.get_json()
        self.t = t
        self.api = f"/api/tournaments/{t['id']}"

    def state(self):
        return self.client.get(self.api, headers={"X-Organizer-Key": self.t["organizer_key"]}).get_json()

    def table(self, slot):
        """``(match id, edit key)`` of the table playing ``slot``."""
        _, _, match_id, key = path_of(matches(self.state())[slot]["edit_url"]).split("/")
        return match_id, key

    def score(self, slot, side, points):
        match_id, key = self.table(slot)
        version = self.client.get(f"/api/matches/{match_id}").get_json()["version"]
        r = self.client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                             json={"action": {"type": "adjust", "side": side, "delta": points}, "version": version})
        assert r.status_code == 200, r.get_json()

    def team_links(self):
        page = self.client.get(f"/t/{self.t['id']}/{self.t['organizer_key']}").get_data(as_text=True)
        return dict(re.findall(rf"/t/{self.t['id']}/team/(\d+)/([A-Za-z0-9_-]+)", page))

    def confirm(self, slot, team):
        links = self.team_links()
        r = self.client.post(f"/t/{self.t['id']}/team/{team}/{links[str(team)]}/confirm", data={"slot": slot})
        assert r.status_code == 303, r.get_data(as_text=True)


def rows(database, tid):
    db = store.connect(database)
    try:
        return {table: [dict(r) for r in db.execute(f"SELECT * FROM {table} WHERE {key} = :t ORDER BY {order}",
                                                    {"t": tid}).mappings()]
                for table, key, order in TABLES}
    finally:
        db.close()


@pytest.mark.parametrize("direction", ["sqlite-to-postgresql", "postgresql-to-sqlite"])
def test_copy_carries_a_live_tournament_and_it_plays_on(tmp_path, pg_url, direction):
    sqlite = str(tmp_path / "laptop.sqlite3")
    source, target = (sqlite, pg_url) if direction.startswith("sqlite") else (pg_url, sqlite)
    live = Organizer(source, confirm=True)
    # Mid-way: semi-final 1 played, confirmed by one team only; semi-final 2 at 7-4.
    live.score("main:1:1", 0, 15)
    semi1 = matches(live.state())["main:1:1"]["teams"]
    live.confirm("main:1:1", semi1[0])
    live.score("main:1:2", 0, 7)
    live.score("main:1:2", 1, 4)
    before = rows(source, live.t["id"])
    result = CliRunner().invoke(cli, ["db", "copy", "--from", source, "--to", target])
    assert result.exit_code == 0, result.output
    assert rows(target, live.t["id"]) == before  # settings, teams, seeds, lots, keys, slots, audit: as stored
    assert "Copied 2 matches (0 already there) and 1 tournaments (0 already there)" in result.output
    assert before["tournament"][0]["organizer_key"] == store.hash_key(live.t["organizer_key"])  # a hash at rest
    again = CliRunner().invoke(cli, ["db", "copy", "--from", source, "--to", target])
    assert "Copied 0 matches (2 already there) and 0 tournaments (1 already there)" in again.output

    copy = Organizer(target, live.t)
    tid, key = live.t["id"], live.t["organizer_key"]
    assert copy.state() == live.state()
    for page in (f"/t/{tid}/{key}", f"/tv/{tid}", f"/t/{tid}/{key}/cards"):
        assert copy.client.get(page).status_code == 200, page
    assert copy.team_links() == live.team_links() and len(copy.team_links()) == 4
    for team, team_key in copy.team_links().items():
        assert copy.client.get(f"/t/{tid}/team/{team}/{team_key}").status_code == 200
    for slot in SEMIS:  # each table's link (its QR code) opens its match, and only with its key
        match_id, table_key = copy.table(slot)
        assert copy.client.get(f"/m/{match_id}/{table_key}").status_code == 200
        assert copy.client.get(f"/m/{match_id}/{table_key[::-1]}").status_code in (403, 404)
    # Play on, on the copy only: the other team confirms, the second table ends, the final starts and ends.
    copy.confirm("main:1:1", semi1[1])
    copy.score("main:1:2", 1, 11)
    for t in matches(copy.state())["main:1:2"]["teams"]:
        copy.confirm("main:1:2", t)
    final = matches(copy.state())["main:2:1"]
    assert final["status"] == "ready" and final["edit_url"]
    copy.score("main:2:1", 1, 15)
    for t in final["teams"]:
        copy.confirm("main:2:1", t)
    assert copy.state()["champion"] == final["teams"][1]
    assert live.state()["champion"] is None  # the source was not touched


def test_copy_carries_a_dropped_match_that_comes_back_on_the_copy(tmp_path, pg_url):
    """Issue 32: a final a reopening dropped is copied with what it had; on the copy its board says
    it no longer counts, and taking the semi-final back unchanged brings it back as it was."""
    source = str(tmp_path / "laptop.sqlite3")
    live = Organizer(source)
    for slot in SEMIS:
        live.score(slot, 0, 15)
    final_id, final_key = live.table("main:2:1")
    live.score("main:2:1", 1, 6)
    organizer = {"X-Organizer-Key": live.t["organizer_key"]}
    r = live.client.post(live.api + "/corrections", headers=organizer,
                         json={"kind": "reopen", "slot": "main:1:1", "confirmed": True})
    assert r.status_code == 200 and r.get_json()["undone"] == ["main:2:1"]
    before = rows(source, live.t["id"])
    assert [d["series_id"] for d in before["tournament_dropped"]] == [final_id]
    assert CliRunner().invoke(cli, ["db", "copy", "--from", source, "--to", pg_url]).exit_code == 0
    assert rows(pg_url, live.t["id"]) == before
    copy = Organizer(pg_url, live.t)
    page = copy.client.get(f"/m/{final_id}/{final_key}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="dropped"' in page and "data-action=" not in page
    assert copy.client.post(copy.api + "/corrections", headers=organizer,
                            json={"kind": "take", "slot": "main:1:1"}).status_code == 200
    assert copy.table("main:2:1") == (final_id, final_key)
    assert matches(copy.state())["main:2:1"]["score"] == [0, 6]


def age(database, tid, *, tournament_days, match_days):
    """Move a tournament's last change and its matches' back in time by so many days."""
    db = store.connect(database)
    try:
        db.execute("UPDATE tournament SET updated = updated - :s WHERE id = :t", {"s": tournament_days * DAY, "t": tid})
        db.execute("UPDATE match SET updated = updated - :s WHERE series IN"
                   " (SELECT series_id FROM tournament_slot WHERE tournament_id = :t)", {"s": match_days * DAY, "t": tid})
    finally:
        db.close()


def test_prune_keeps_a_live_tournament_whole_and_deletes_an_idle_one_whole(db_url):
    # Live: a table is playing, but its last action was 40 days ago; the tournament changed today.
    busy = Organizer(db_url)
    busy.score("main:1:1", 0, 15)
    age(db_url, busy.t["id"], tournament_days=0, match_days=40)
    # Live too: the tournament did not change for 40 days, but a table scored today.
    playing = Organizer(db_url)
    age(db_url, playing.t["id"], tournament_days=40, match_days=40)
    playing.score("main:1:2", 1, 3)
    # Idle: nothing happened in it or its matches for 40 days.
    idle = Organizer(db_url)
    idle.score("main:1:1", 1, 15)
    age(db_url, idle.t["id"], tournament_days=40, match_days=40)
    idle_matches = {m["id"] for m in matches(idle.state()).values() if m["id"]}
    kept = {o: (rows(db_url, o.t["id"]), [m["id"] for m in matches(o.state()).values() if m["id"]])
            for o in (busy, playing)}

    dry = CliRunner().invoke(cli, ["db", "prune", "--db", db_url, "--idle-days", "30", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "Would delete 0 matches idle for 30 days or more, and 1 whole tournaments idle as long (2 matches" in dry.output
    assert idle.t["id"] in dry.output and "Copa do Boteco" in dry.output and busy.t["id"] not in dry.output
    assert rows(db_url, idle.t["id"])["tournament"]  # a dry run deletes nothing
    done = CliRunner().invoke(cli, ["db", "prune", "--db", db_url, "--idle-days", "30"])
    assert done.exit_code == 0 and "Deleted 0 matches" in done.output and "1 whole tournaments" in done.output

    for o, (stored, ids) in kept.items():
        assert rows(db_url, o.t["id"]) == stored
        for slot, m in matches(o.state()).items():
            if m["edit_url"]:  # every table link still opens its match
                assert o.client.get(path_of(m["edit_url"])).status_code == 200, slot
        assert [m["id"] for m in matches(o.state()).values() if m["id"]] == ids
    assert rows(db_url, idle.t["id"]) == {"tournament": [], "tournament_slot": [], "tournament_audit": [],
                                          "tournament_dropped": []}
    assert idle.client.get(idle.api).status_code == 404
    db = store.connect(db_url)
    try:
        left = [i for i in idle_matches if store.get_match(db, i) is not None or store.get_actions(db, i)]
    finally:
        db.close()
    assert len(idle_matches) == 2 and left == []
