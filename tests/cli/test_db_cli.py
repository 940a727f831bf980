"""``truco db copy`` (issue 12): every match, from a SQLite file into PostgreSQL and back,
replays to the same state; links keep working on the copy."""

from __future__ import annotations

import json

from click.testing import CliRunner

from scorer.app import store
from scorer.cli.main import cli
from scorer.web import create_app

ADJUST = {"type": "adjust", "side": 0, "delta": 12}


def fill(path):
    """A few matches through the app: a finished one with its Revanche (a series of 3
    with players), one in play with actions, an untouched one; their keys."""
    client = create_app({"TESTING": True, "DATABASE": path}).test_client()
    keys = {}
    r = client.post("/matches", data={"variant": "paulista", "best_of": "3", "table_size": "4",
                                      "player0_0": "Ana", "player0_1": "Bia", "player1_0": "Caio"})
    path0 = r.headers["Location"]
    client.post(path0 + "/actions", data={"action": json.dumps(ADJUST), "version": "0"})
    rematch = client.post(path0 + "/revanche").headers["Location"]
    for p in (path0, rematch):
        keys[p.split("/")[2]] = p.split("/")[3]
    m = client.post("/api/matches", json={"variant": "argentino-30", "options": {"flor": True}}).get_json()
    state = m["state"]
    for _ in range(12):
        legal = [a for a in state["legal_actions"] if a["type"] not in ("adjust", "envido_points")]
        action = {k: v for k, v in legal[0].items() if k not in ("points", "points_side")}
        state = client.post(f"/api/matches/{m['id']}/actions", json={"action": action, "version": state["version"]},
                            headers={"X-Edit-Key": m["edit_key"]}).get_json()
    keys[m["id"]] = m["edit_key"]
    e = client.post("/api/matches", json={"variant": "truco-15"}).get_json()
    keys[e["id"]] = e["edit_key"]
    return keys


def dump(value):
    db = store.connect(value)
    try:
        return {i: (store.get_match(db, i), store.get_actions(db, i)) for i in store.match_ids(db)}
    finally:
        db.close()


def test_copy_round_trip_sqlite_postgresql_sqlite(tmp_path, pg_url):
    source, back = tmp_path / "source.sqlite3", tmp_path / "back.sqlite3"
    keys = fill(source)
    result = CliRunner().invoke(cli, ["db", "copy", "--from", str(source), "--to", pg_url])
    assert result.exit_code == 0, result.output
    assert "Copied 4 matches (0 already there)" in result.output and "4 replay to the same state" in result.output
    assert "secret" not in result.output
    result = CliRunner().invoke(cli, ["db", "copy", "--from", pg_url, "--to", f"sqlite:///{back}"])
    assert result.exit_code == 0 and "Copied 4 matches" in result.output, result.output
    original = dump(source)
    assert dump(pg_url) == original == dump(back)
    # Again: nothing copied twice.
    result = CliRunner().invoke(cli, ["db", "copy", "--from", str(source), "--to", pg_url])
    assert "Copied 0 matches (4 already there)" in result.output
    # The copy serves the same links: every key opens its match, the series tally is kept.
    client = create_app({"TESTING": True, "DATABASE": pg_url}).test_client()
    for match_id, key in keys.items():
        assert client.get(f"/m/{match_id}/{key}").status_code == 200
        assert client.get(f"/api/matches/{match_id}").get_json()["version"] == original[match_id][0].version


def test_copy_says_what_is_wrong(tmp_path):
    result = CliRunner().invoke(cli, ["db", "copy", "--from", "mysql://x@y/z", "--to", str(tmp_path / "t.sqlite3")])
    assert result.exit_code == 2 and "postgresql://USER@HOST:PORT/DB" in result.output
    same = str(tmp_path / "s.sqlite3")
    result = CliRunner().invoke(cli, ["db", "copy", "--from", same, "--to", f"sqlite:///{same}"])
    assert result.exit_code == 2 and "same database" in result.output
    result = CliRunner().invoke(cli, ["db", "copy", "--from", same, "--to", "postgresql://nobody@127.0.0.1:1/none"])
    assert result.exit_code == 1 and "Cannot reach --to postgresql://nobody@127.0.0.1:1/none" in result.output
