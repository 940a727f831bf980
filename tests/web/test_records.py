"""Export a match as JSON, restore it to the same state, the log as CSV, renaming."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from scorer.web import create_app

MATCHES = Path(__file__).resolve().parents[1] / "matches"


@pytest.fixture
def client(migrated_db_url):
    """On both backends: a SQLite file and PostgreSQL (issue 12)."""
    return create_app({"TESTING": True, "DATABASE": migrated_db_url}).test_client()


def played(client, variant="argentino-30", file="argentino-30_flor_malas_buenas.jsonl", options=None):
    m = client.post("/api/matches", json={"variant": variant, "options": options or {"flor": True},
                                          "names": ["=cmd|' /C calc'!A0", "Eles"], "mano": 1}).get_json()
    actions = [json.loads(x) for x in (MATCHES / file).read_text().splitlines() if x.strip()][:40]
    actions.append({"type": "undo"})
    for version, action in enumerate(actions):
        r = client.post(f"/api/matches/{m['id']}/actions", json={"action": action, "version": version},
                        headers={"X-Edit-Key": m["edit_key"]})
        assert r.status_code == 200, r.get_json()
    m["played"] = len(actions)
    return m


def test_export_then_import_gives_the_same_state(client):
    m = played(client)
    r = client.get(f"/api/matches/{m['id']}/export")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    data = r.get_json()
    assert set(data) >= {"format", "variant", "options", "mano", "names", "actions"}
    assert m["edit_key"] not in r.get_data(as_text=True)
    assert len(data["actions"]) == m["played"] and data["mano"] == 1
    new = client.post("/api/matches/import", json=data)
    assert new.status_code == 201
    new = new.get_json()
    assert new["id"] != m["id"] and new["edit_key"] != m["edit_key"]
    old_state = client.get(f"/api/matches/{m['id']}").get_json()
    for key in ("score", "winner", "hand", "legal_actions", "log", "names", "options", "variant", "version"):
        assert new["state"][key] == old_state[key], key
    # and the restored match goes on
    r = client.post(f"/api/matches/{new['id']}/actions", json={"action": {"type": "adjust", "side": 0, "delta": 1},
                    "version": m["played"]}, headers={"X-Edit-Key": new["edit_key"]})
    assert r.status_code == 200


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"format": "something-else"}, "unprocessable"),
        ({"actions": "all of them"}, "unprocessable"),
        ({"variant": "poker"}, "bad_variant"),
        ({"options": {"flor": "maybe"}}, "bad_option"),
        ({"mano": 5}, "bad_side"),
        ({"actions": [{"type": "quiero", "side": 0}]}, "nothing_to_answer"),
        ({"actions": [{"type": "hand_winner", "side": 0}] * 6000}, "too_large"),
    ],
)
def test_import_refuses_a_bad_file_and_stores_nothing(client, change, code):
    data = client.get(f"/api/matches/{played(client)['id']}/export").get_json() | change
    r = client.post("/api/matches/import", json=data)
    assert r.status_code in (413, 422) and r.get_json()["error"]["code"] == code
    assert r.get_json()["error"]["message"]


def test_import_refuses_more_actions_than_a_match_holds(tmp_path):
    client = create_app({"TESTING": True, "DATABASE": tmp_path / "r.sqlite3", "MAX_ACTIONS": 5}).test_client()
    data = {"format": "truco-scorer-match/1", "variant": "truco-15", "options": {}, "mano": 0,
            "names": ["A", "B"], "actions": [{"type": "hand_winner", "side": 0}] * 6}
    r = client.post("/api/matches/import", json=data)
    assert r.status_code == 422 and "5" in r.get_json()["error"]["message"]


def test_log_csv_has_one_row_per_counted_action_and_no_formulas(client):
    m = played(client)
    r = client.get(f"/api/matches/{m['id']}/log.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    state = client.get(f"/api/matches/{m['id']}").get_json()
    assert rows[0][0] == "n" and len(rows) - 1 == len(state["log"])
    assert [int(x) for x in rows[-1][5:7]] == state["score"]
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)


def test_rename_needs_the_key(client):
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    url = f"/api/matches/{m['id']}/names"
    assert client.post(url, json={"names": ["A", "B"]}).status_code == 403
    assert client.post(url, json={"names": ["A", "B"]}, headers={"X-Edit-Key": "x" * 43}).status_code == 403
    r = client.post(url, json={"names": ["A", "B"]}, headers={"X-Edit-Key": m["edit_key"]})
    assert r.status_code == 200 and r.get_json()["names"] == ["A", "B"] and r.get_json()["version"] == 0
    r = client.post(url, json={"names": "A"}, headers={"X-Edit-Key": m["edit_key"]})
    assert r.status_code == 422 and r.get_json()["error"]["message"]
