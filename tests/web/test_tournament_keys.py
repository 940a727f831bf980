"""Keys at rest (issue 23, item 3): a tournament's organizer and team keys are stored only as
hashes, its tables' and teams' keys come from an instance secret that is not in the
database, so a copy of the database opens nothing; tournaments made before keep working."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from scorer.app import store, tournament_service, tournament_store as tstore
from scorer.app.match_service import MatchService
from scorer.app.tournament_keys import (
    SecretError, TournamentKeys, instance_secret, legacy_table_key, secret_file_for,
)
from scorer.cli.main import cli
from scorer.core import tournament as core
from scorer.web import create_app

#: A tournament as the code before issue 23 stored it: these keys in plain text.
OLD_ORGANIZER_KEY = "0ld-organizer-key-kept-in-plain-text-before-23"
OLD_TEAM_KEYS = ["0ld-team-key-A-plain1", "0ld-team-key-B-plain2", "0ld-team-key-C-plain3", "0ld-team-key-D-plain4"]
TEAMS = ["A", "B", "C", "D"]


class OldKeys(TournamentKeys):
    """The tables' keys as the code before issue 23 derived them (from the organizer key)."""

    def table(self, tid: str, slot_id: str) -> str:
        return legacy_table_key(OLD_ORGANIZER_KEY, slot_id)


def old_format_database(path: Path | str) -> str:
    """A database as the code before issue 23 left it: schema 5, a knockout of 4 teams with
    plain organizer and team keys, its first round's matches keyed by the organizer key."""
    conn = store.connect(path)
    try:
        assert store.migrate(conn, store.MIGRATIONS[:5]) == 5
        settings = core.settings_from_json({"format": "knockout", "confirm": True}, 4)
        t = core.build(TEAMS, settings, [0, 1, 2, 3])
        tid = store.new_id()
        tstore.create_tournament(
            conn, tid=tid, organizer_hash=OLD_ORGANIZER_KEY, team_hashes=OLD_TEAM_KEYS, name="Copa",
            variant="paulista", options=MatchService.check_settings("paulista", {}, 0).options,
            settings=settings.to_json(), teams=TEAMS, players=[[] for _ in TEAMS], seeds=[0, 1, 2, 3],
            slots=[s.id for s in t.slots], audit=[("organizer", "create", {"teams": TEAMS,
                                                                            "settings": settings.to_json()})])
        tournament_service.advance(conn, tid, keys=OldKeys(b"not used by the old derivation....."))
    finally:
        conn.close()
    return tid


def path_of(url: str) -> str:
    return urlsplit(url).path


def organizer_state(client, tid: str, key: str) -> dict:
    r = client.get(f"/api/tournaments/{tid}", headers={"X-Organizer-Key": key})
    assert r.status_code == 200
    return r.get_json()


def test_an_old_tournament_keeps_every_link_after_the_migration(db_url):
    """On both backends (``db_url``: a SQLite file, a PostgreSQL database)."""
    db = db_url
    tid = old_format_database(db)
    app = create_app({"TESTING": True, "DATABASE": db, "INSTANCE_SECRET": "s" * 43})  # migrates to 6
    client = app.test_client()
    conn = store.connect(db)
    organizer, teams = conn.execute("SELECT organizer_key, team_keys FROM tournament").one()
    conn.close()
    assert organizer == store.hash_key(OLD_ORGANIZER_KEY)
    assert json.loads(teams) == [store.hash_key(k) for k in OLD_TEAM_KEYS]
    # The organizer's link, and the tables' links it shows: the old keys, found again from it.
    first = organizer_state(client, tid, OLD_ORGANIZER_KEY)["rounds"][0]["matches"]
    for m in first:
        assert m["edit_url"].endswith("/" + legacy_table_key(OLD_ORGANIZER_KEY, m["slot"]))
        assert client.get(path_of(m["edit_url"])).status_code == 200
    assert client.get(f"/t/{tid}/{OLD_ORGANIZER_KEY}").status_code == 200
    # The teams' old links, and the new ones the organizer's page shows now.
    assert client.get(f"/t/{tid}/team/0/{OLD_TEAM_KEYS[0]}").status_code == 200
    new_link = app.extensions["truco_tournament_keys"].team(tid, 1)
    assert f"/t/{tid}/team/1/{new_link}" in client.get(f"/t/{tid}/{OLD_ORGANIZER_KEY}").get_data(as_text=True)
    assert client.get(f"/t/{tid}/team/1/{new_link}").status_code == 200
    # The final, made after the migration, gets its key from the secret; the organizer sees it.
    for m in first:
        r = client.post(f"/api/tournaments/{tid}/corrections", json={"kind": "walkover", "slot": m["slot"], "absent": 1},
                        headers={"X-Organizer-Key": OLD_ORGANIZER_KEY})
        assert r.status_code == 200
    final = organizer_state(client, tid, OLD_ORGANIZER_KEY)["rounds"][1]["matches"][0]
    assert final["edit_url"].endswith("/" + app.extensions["truco_tournament_keys"].table(tid, final["slot"]))
    assert client.get(path_of(final["edit_url"])).status_code == 200


def test_a_copy_of_the_database_opens_nothing(tmp_path):
    live = tmp_path / "live"
    app = create_app({"TESTING": True, "DATABASE": live / "t.sqlite3"})
    client = app.test_client()
    t = client.post("/api/tournaments", json={"variant": "paulista", "teams": TEAMS, "confirm": True}).get_json()
    tid, organizer = t["id"], t["organizer_key"]
    tables = organizer_state(client, tid, organizer)["rounds"][0]["matches"]
    keys = app.extensions["truco_tournament_keys"]
    team_keys = [keys.team(tid, i) for i in range(4)]
    store.dispose_all()  # every write is in the file itself
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in live.glob("t.sqlite3*"):  # the database and its WAL, as a backup takes them
        shutil.copy(f, copy / f.name)
    data = b"".join(p.read_bytes() for p in copy.iterdir())
    for key in [organizer, *team_keys, *(urlsplit(m["edit_url"]).path.rsplit("/", 1)[1] for m in tables)]:
        assert key.encode() not in data
    # What the copy holds, tried as keys on the real server: nothing opens.
    conn = store.connect(copy / "t.sqlite3")
    stored_organizer, stored_teams = conn.execute("SELECT organizer_key, team_keys FROM tournament").one()
    stored_tables = dict(conn.execute("SELECT id, edit_key FROM match").all())
    conn.close()
    assert client.get(f"/t/{tid}/{stored_organizer}").status_code == 403
    seen = client.get(f"/api/tournaments/{tid}", headers={"X-Organizer-Key": stored_organizer}).get_json()
    assert all(m.get("edit_url") is None for m in seen["rounds"][0]["matches"])
    for team, stored in enumerate(json.loads(stored_teams)):
        assert client.get(f"/t/{tid}/team/{team}/{stored}").status_code == 403
    for match_id, stored in stored_tables.items():
        assert client.get(f"/m/{match_id}/{stored}").status_code == 403
    # A server started on the copy makes a secret of its own: its keys open nothing here.
    thief = create_app({"TESTING": True, "DATABASE": copy / "t.sqlite3"}).extensions["truco_tournament_keys"]
    assert client.get(f"/t/{tid}/team/0/{thief.team(tid, 0)}").status_code == 403
    for m in tables:
        assert client.get(f"/m/{m['id']}/{thief.table(tid, m['slot'])}").status_code == 403
        assert client.get(path_of(m["edit_url"])).status_code == 200  # the real links still do


def test_the_secret_file_is_made_once_for_the_owner_only(tmp_path):
    first = create_app({"TESTING": True, "DATABASE": tmp_path / "a.sqlite3"})
    secret = tmp_path / "a.secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and len(secret.read_text().strip()) >= 43
    text = secret.read_text()
    again = create_app({"TESTING": True, "DATABASE": tmp_path / "a.sqlite3"})
    assert secret.read_text() == text
    keys = [app.extensions["truco_tournament_keys"] for app in (first, again)]
    assert keys[0].team("t", 0) == keys[1].team("t", 0) and keys[0].table("t", "main:1:1") == keys[1].table("t", "main:1:1")
    other = create_app({"TESTING": True, "DATABASE": tmp_path / "b.sqlite3"}).extensions["truco_tournament_keys"]
    assert other.team("t", 0) != keys[0].team("t", 0)  # another instance, another secret


@pytest.mark.parametrize(
    ("database", "expected"),
    [("data/t.sqlite3", "data/t.secret"), ("sqlite:////srv/truco.sqlite3", "/srv/truco.secret"),
     ("postgresql://truco@127.0.0.1:5432/truco", "truco.secret")],
)
def test_where_the_secret_lives(database, expected):
    assert secret_file_for(database) == Path(expected).resolve()


@pytest.mark.parametrize(("text", "fits"), [("short", False), ("x" * 31, False), ("x" * 32, True)])
def test_a_secret_given_as_text_must_be_long(tmp_path, text, fits):
    if fits:
        assert instance_secret(tmp_path / "t.sqlite3", text=text) == text.encode()
    else:
        with pytest.raises(SecretError):
            instance_secret(tmp_path / "t.sqlite3", text=text)
    assert not (tmp_path / "t.secret").exists()  # given as text: no file


def test_serve_takes_the_secret_from_its_file_or_the_environment(tmp_path, waitress_stub, monkeypatch):
    base = ["serve", "--port", "0", "--no-qr", "--retention-days", "0", "--db", str(tmp_path / "s.sqlite3")]
    monkeypatch.delenv("TRUCO_SECRET", raising=False)
    result = CliRunner().invoke(cli, base + ["--secret-file", str(tmp_path / "etc" / "truco.secret")])
    assert result.exit_code == 0, result.output
    made = tmp_path / "etc" / "truco.secret"
    assert stat.S_IMODE(made.stat().st_mode) == 0o600
    app_keys = waitress_stub["app"].extensions["truco_tournament_keys"]
    assert app_keys.team("t", 0) == TournamentKeys(made.read_text().strip().encode()).team("t", 0)
    text = "a-secret-given-in-the-environment-of-the-service"
    result = CliRunner().invoke(cli, base, env={"TRUCO_SECRET": text})
    assert result.exit_code == 0, result.output
    assert waitress_stub["app"].extensions["truco_tournament_keys"].team("t", 0) == TournamentKeys(
        text.encode()).team("t", 0)
    result = CliRunner().invoke(cli, base, env={"TRUCO_SECRET": "too-short"})
    assert result.exit_code == 2 and "at least 32 characters" in result.output
    assert not os.path.exists(tmp_path / "s.secret")  # neither run needed the default file
