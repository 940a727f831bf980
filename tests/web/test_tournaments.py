"""Tournaments over HTTP: create (API and form), state, auto-advance from the tables'
matches, corrections with cascade confirmation, audit, pages, exports (issue 11)."""

from __future__ import annotations

import csv
import io
from urllib.parse import urlsplit

import pytest

from web_client import EN, HX

OK = {"name": "Copa", "variant": "truco-15", "teams": ["A", "B", "C", "D", "E"], "format": "knockout"}


def local_path(url: str) -> str:
    """The path and query of an absolute link (the host is the share address: the machine's
    LAN address when the test client's ``localhost`` is a loopback name)."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")

def create(client, **changes):
    r = client.post("/api/tournaments", json={**OK, **changes})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def state(client, t, organizer=True):
    headers = {"X-Organizer-Key": t["organizer_key"]} if organizer else {}
    return client.get(f"/api/tournaments/{t['id']}", headers=headers).get_json()


def matches(s):
    """Every match of every stage, by slot id."""
    out = {}
    for stage in [{"rounds": s["rounds"]}] + s["stages"]:
        for rnd in stage["rounds"]:
            for m in rnd["matches"]:
                out[m["slot"]] = m
    return out


def finish(client, m, side, target=15):
    """The table's phone ends the match: a correction of +target for ``side``."""
    path = local_path(m["edit_url"])
    _, _, match_id, key = path.split("/")
    version = client.get(f"/api/matches/{match_id}").get_json()["version"]
    r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                    json={"action": {"type": "adjust", "side": side, "delta": target}, "version": version})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_create_answers_links_and_state(client):
    t = create(client)
    assert set(t) == {"id", "organizer_key", "organizer_url", "tv_url", "state"}
    assert t["organizer_url"].endswith(f"/t/{t['id']}/{t['organizer_key']}")
    assert t["tv_url"].endswith(f"/tv/{t['id']}")
    s = t["state"]
    assert s["teams"] == ["A", "B", "C", "D", "E"] and s["format"] == "knockout" and s["best_of"] == 1
    assert [[m["teams"] for m in r["matches"]] for r in s["rounds"]] == [[[3, 4]], [[0, None], [1, 2]], [[None, None]]]
    assert s["rounds"][0]["byes"] == [0, 1, 2]
    assert s["champion"] is None and len(s["standings"]) == 5
    for key in ("points", "played", "won", "lost", "tentos_for", "tentos_against", "team"):
        assert key in s["standings"][0]


def test_edit_url_only_for_the_organizer(client):
    t = create(client)
    public = matches(state(client, t, organizer=False))
    assert all("edit_url" not in m for m in public.values())
    assert public["main:1:1"]["watch_url"] and public["main:1:1"]["id"]
    wrong = client.get(f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": "nope"}).get_json()
    assert all("edit_url" not in m for m in matches(wrong).values())
    private = matches(state(client, t))
    assert private["main:1:1"]["edit_url"] and private["main:2:1"]["edit_url"] is None


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"teams": ["A"]}, "too_few_teams"),
        ({"teams": ["A", "B", "a"]}, "repeated_team"),
        ({"teams": [f"T{i}" for i in range(65)]}, "too_many_teams"),
        ({"variant": "poker"}, "unknown_variant"),
        ({"format": "swiss"}, "bad_format"),
        ({"best_of": 4}, "bad_best_of"),
        ({"teams": "AB"}, "bad_teams"),
        ({"options": []}, "bad_options"),
    ],
)
def test_bad_input_is_422_and_creates_nothing(client, app, changes, code):
    r = client.post("/api/tournaments", json={**OK, **changes})
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert error["message"] and (error["code"] == code or code == "unknown_variant")
    with app.app_context():
        from scorer.web.db import get_db

        db = get_db()
        assert db.execute("SELECT COUNT(*) FROM tournament").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM match").fetchone()[0] == 0


def test_the_bracket_fills_itself_to_the_champion(client):
    """4-team knockout: each table finishes its match; the next one appears by itself."""
    t = create(client, teams=["A", "B", "C", "D"])
    s = state(client, t)
    m = matches(s)
    assert m["main:2:1"]["teams"] == [None, None] and m["main:2:1"]["id"] is None
    finish(client, m["main:1:1"], 1)  # D beats A
    m = matches(state(client, t))
    assert m["main:1:1"]["winner"] == 3 and m["main:2:1"]["teams"] == [3, None]
    finish(client, m["main:1:2"], 0)  # B beats C
    m = matches(state(client, t))
    assert m["main:2:1"]["teams"] == [3, 1] and m["main:2:1"]["edit_url"]
    finish(client, m["main:2:1"], 0)
    s = state(client, t)
    assert s["champion"] == 3 and s["finished"]
    standings = {r["team"]: r for r in s["standings"]}
    assert standings[3]["won"] == 2 and standings[3]["tentos_for"] == 30 and standings[0]["lost"] == 1


def test_round_robin_creates_every_match_at_the_start(client):
    t = create(client, teams=["A", "B", "C", "D", "E", "F"], format="round_robin")
    s = t["state"]
    assert len(s["rounds"]) == 5
    assert [[tuple(x + 1 for x in m["teams"]) for m in r["matches"]] for r in s["rounds"]][0] == [(1, 6), (2, 5), (3, 4)]
    assert all(m["id"] for m in matches(s).values())


def test_best_of_three_counts_the_series(client):
    t = create(client, teams=["A", "B"], best_of=3)
    m = matches(state(client, t))["main:1:1"]
    path = local_path(m["edit_url"])
    assert m["series"] == [0, 0]
    finish(client, m, 0)
    s = state(client, t)
    assert s["champion"] is None and matches(s)["main:1:1"]["series"] == [1, 0]  # the series goes on
    r = client.post(path + "/revanche")
    assert r.status_code == 303
    m = matches(state(client, t))["main:1:1"]
    finish(client, m, 0)
    s = state(client, t)
    assert s["champion"] == 0 and matches(s)["main:1:1"]["series"] == [2, 0]


def correct(client, t, **data):
    return client.post(f"/api/tournaments/{t['id']}/corrections", json=data,
                       headers={"X-Organizer-Key": t["organizer_key"]})


def test_walkover_points_in_a_league(client):
    t = create(client, teams=["A", "B", "C"], format="round_robin")
    r = correct(client, t, kind="walkover", slot="league:1:1", absent=1)  # 1-3 rests 2... first pair
    assert r.status_code == 200, r.get_json()
    s = r.get_json()["state"]
    m = matches(s)["league:1:1"]
    present, absent = m["teams"][0], m["teams"][1]
    rows = {x["team"]: x for x in s["standings"]}
    assert rows[present]["points"] == 3 and rows[absent]["points"] == -3
    assert rows[present]["tentos_for"] == 0 and rows[absent]["lost"] == 1


def test_reopen_cascades_after_confirmation_and_is_audited(client):
    t = create(client, teams=["A", "B", "C", "D"])
    m = matches(state(client, t))
    finish(client, m["main:1:1"], 0)
    finish(client, m["main:1:2"], 0)
    final = matches(state(client, t))["main:2:1"]
    assert final["teams"] == [0, 1]
    r = correct(client, t, kind="reopen", slot="main:1:1")
    assert r.status_code == 409
    assert r.get_json()["error"]["code"] == "confirm_cascade" and r.get_json()["error"]["allowed"] == ["main:2:1"]
    assert matches(state(client, t))["main:2:1"]["teams"] == [0, 1]  # nothing changed
    r = correct(client, t, kind="reopen", slot="main:1:1", confirmed=True)
    assert r.status_code == 200 and r.get_json()["undone"] == ["main:2:1"]
    m = matches(r.get_json()["state"])
    assert m["main:1:1"]["winner"] is None and m["main:2:1"]["teams"] == [None, 1] and m["main:2:1"]["id"] is None
    # The table plays on: undo the winning correction, then D wins.
    finish_undo_then(client, m["main:1:1"], 1)
    m = matches(state(client, t))
    assert m["main:1:1"]["winner"] == 3 and m["main:2:1"]["teams"] == [3, 1]
    audit = client.get(f"/api/tournaments/{t['id']}/export").get_json()["audit"]
    kinds = [(a["who"], a["kind"]) for a in audit]
    assert ("organizer", "reopen") in kinds and ("organizer", "create") in kinds
    reopen = next(a for a in audit if a["kind"] == "reopen")
    assert reopen["before"]["result"]["winner"] == 0 and reopen["after"] == {"undone": ["main:2:1"]}
    assert all(a["at"] > 0 for a in audit) and any(a["who"].startswith("table") for a in audit)


def finish_undo_then(client, m, side):
    match_id = m["id"]
    key = m["edit_url"].rsplit("/", 1)[1]
    version = client.get(f"/api/matches/{match_id}").get_json()["version"]
    r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                    json={"action": {"type": "undo"}, "version": version})
    assert r.status_code == 200, r.get_json()
    r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                    json={"action": {"type": "adjust", "side": side, "delta": 15}, "version": version + 1})
    assert r.status_code == 200, r.get_json()


def test_reopen_keeps_the_result_until_the_table_changes_it(client):
    t = create(client, teams=["A", "B"])
    finish(client, matches(state(client, t))["main:1:1"], 0)
    assert state(client, t)["champion"] == 0
    assert correct(client, t, kind="reopen", slot="main:1:1").status_code == 200
    s = state(client, t)
    assert s["champion"] is None and matches(s)["main:1:1"]["status"] == "ready"


def test_corrections_need_the_organizer_key(client):
    t = create(client)
    r = client.post(f"/api/tournaments/{t['id']}/corrections", json={"kind": "reopen", "slot": "main:1:1"})
    assert r.status_code == 403
    r = client.post(f"/api/tournaments/{t['id']}/corrections", json={"kind": "reopen", "slot": "main:1:1"},
                    headers={"X-Organizer-Key": "x" * 43})
    assert r.status_code == 403


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"kind": "explode"}, "bad_correction"),
        ({"kind": "walkover", "slot": "main:2:1", "absent": 0}, "not_playable"),
        ({"kind": "walkover", "slot": "main:1:1", "absent": 3}, "bad_correction"),
        ({"kind": "walkover", "slot": "nowhere", "absent": 0}, "unknown_slot"),
        ({"kind": "rename", "team": 9, "name": "X"}, "bad_correction"),
        ({"kind": "rename", "team": 0, "name": "b"}, "repeated_team"),
        ({"kind": "confirm", "slot": "main:1:1", "side": 0}, "nothing_to_confirm"),
    ],
)
def test_bad_corrections_are_422(client, data, code):
    t = create(client)
    r = correct(client, t, **data)
    assert r.status_code == 422 and r.get_json()["error"]["code"] == code


def test_rename_renames_the_live_matches_too(client):
    t = create(client)
    r = correct(client, t, kind="rename", team=3, name="Os Gaúchos")
    assert r.status_code == 200
    s = r.get_json()["state"]
    assert s["teams"][3] == "Os Gaúchos"
    m = matches(s)["main:1:1"]
    assert client.get(f"/api/matches/{m['id']}").get_json()["names"] == ["Os Gaúchos", "E"]


def test_both_teams_confirm_or_the_organizer_decides(client):
    t = create(client, teams=["A", "B"], confirm=True)
    finish(client, matches(state(client, t))["main:1:1"], 0)
    s = state(client, t)
    assert s["champion"] is None and matches(s)["main:1:1"]["status"] == "proposed"
    organizer = client.get(f"/t/{t['id']}/{t['organizer_key']}").get_data(as_text=True)
    links = [line for line in organizer.split('"') if f"/t/{t['id']}/team/" in line]
    assert len(links) == 2
    team0 = local_path(links[0])
    assert client.post(team0 + "/confirm", data={"slot": "main:1:1"}).status_code == 303
    assert state(client, t)["champion"] is None
    assert correct(client, t, kind="confirm", slot="main:1:1", side=2).status_code == 200
    assert state(client, t)["champion"] == 0


def test_pages_render(client):
    t = create(client)
    base = f"/t/{t['id']}/{t['organizer_key']}"
    page = client.get(base, headers=EN).get_data(as_text=True)
    assert "Copa" in page and "Audit" in page
    assert "Tiebreaks" not in page  # a knockout has no standings to break ties in (issue 32)
    cards = client.get(base + "/cards", headers=EN).get_data(as_text=True)
    assert cards.count('class="card"') == 2 and cards.count("<svg") == 2 and "Table 1" in cards
    tv = client.get(f"/tv/{t['id']}", headers=EN)
    assert tv.status_code == 200 and t["organizer_key"] not in tv.get_data(as_text=True)
    assert "/m/" not in tv.get_data(as_text=True)  # no edit links on the TV
    assert client.get(f"/t/{t['id']}/wrong").status_code == 403
    assert client.get("/tv/nothing").status_code == 404


def test_tv_poll_is_204_until_something_changes(client):
    t = create(client, teams=["A", "B"])
    tv = client.get(f"/tv/{t['id']}").get_data(as_text=True)
    stamp = tv.split('data-stamp="', 1)[1].split('"', 1)[0]
    assert client.get(f"/tv/{t['id']}/live?stamp={stamp}", headers=HX).status_code == 204
    finish(client, matches(state(client, t))["main:1:1"], 1)
    r = client.get(f"/tv/{t['id']}/live?stamp={stamp}", headers=HX)
    assert r.status_code == 200 and 'id="champion"' in r.get_data(as_text=True)


def test_create_form(client):
    r = client.post("/tournaments", data={"name": "Noite", "variant": "paulista", "teams": "A\nB: Ana, Beto\nC\n",
                                          "format": "round_robin", "best_of": "1"})
    assert r.status_code == 303
    page = client.get(r.headers["Location"], headers=EN).get_data(as_text=True)
    assert "Noite" in page and "Standings" in page
    r = client.post("/tournaments", data={"name": "X", "variant": "paulista", "teams": "A\n", "format": "knockout"},
                    headers=EN)
    assert r.status_code == 422 and "at least 2 teams" in r.get_data(as_text=True)


def test_exports(client):
    t = create(client, teams=["A", "=B"])
    finish(client, matches(state(client, t))["main:1:1"], 1)
    data = client.get(f"/api/tournaments/{t['id']}/export").get_json()
    assert data["format"] == "truco-scorer-tournament/1" and data["champion"] == 1
    game = data["slots"][0]["games"][0]
    assert game["actions"] == [{"type": "adjust", "side": 1, "delta": 15}]
    assert t["organizer_key"] not in str(data)
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tournaments/{t['id']}/results.csv").get_data(as_text=True))))
    assert rows[0][:5] == ["stage", "round", "match", "team0", "team1"]
    assert rows[1][3:9] == ["A", "'=B", "played", "'=B", "0", "15"]


def test_league_tables_are_fixed_per_round(client):
    t = create(client, teams=["A", "B", "C", "D", "E", "F"], format="round_robin")
    tables = [[m["table"] for m in r["matches"]] for r in t["state"]["rounds"]]
    assert tables == [[1, 2, 3]] * 5


def test_perfect_league_tie_is_drawn_by_lots_and_audited(client):
    """Three teams, each beats one 12-6: every criterion ties; the last result draws lots."""
    t = create(client, teams=["A", "B", "C"], format="round_robin")
    m = matches(state(client, t))
    beats = {(0, 1), (1, 2), (2, 0)}  # A beats B, B beats C, C beats A
    for game in m.values():
        finish_to(client, game, 0 if tuple(game["teams"]) in beats else 1, 12, 6)
    s = state(client, t)
    assert s["champion"] is not None
    assert sorted(r["rank"] for r in s["standings"]) == [1, 2, 3]
    assert {r["points"] for r in s["standings"]} == {4}
    audit = client.get(f"/api/tournaments/{t['id']}/export").get_json()["audit"]
    lots = [a for a in audit if a["kind"] == "lots"]
    assert len(lots) == 1 and lots[0]["who"] == "draw" and sorted(lots[0]["before"]["tied"]) == [0, 1, 2]
    drawn = lots[0]["after"]
    order = sorted(range(3), key=lambda team: drawn[str(team)])
    assert [r["team"] for r in s["standings"]] == order


def finish_to(client, m, side, won, lost):
    """Two corrections: ``lost`` tentos for the other side, then 15 for ``side`` (truco-15
    ends at 15, so the game ends 15 to ``lost``; ``won`` documents the intent)."""
    match_id, key = m["id"], m["edit_url"].rsplit("/", 1)[1]
    for s, delta in ((1 - side, lost), (side, 15)):
        version = client.get(f"/api/matches/{match_id}").get_json()["version"]
        r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                        json={"action": {"type": "adjust", "side": s, "delta": delta}, "version": version})
        assert r.status_code == 200, r.get_json()


def test_groups_then_knockout_over_http(client):
    t = create(client, teams=[f"T{i}" for i in range(8)], format="groups", groups=2, advance=2)
    s = t["state"]
    assert [g["name"] for g in s["stages"]] == ["group1", "group2"]
    assert all(len(g["standings"]) == 4 for g in s["stages"])
    # snake seeding: group 1 has seeds 1, 4, 5, 8
    assert sorted(r["team"] for r in s["stages"][0]["standings"]) == [0, 3, 4, 7]
    assert [m["teams"] for r in s["rounds"] for m in r["matches"]] == [[None, None]] * 3
    while True:
        ready = [m for m in matches(state(client, t)).values() if m["status"] == "ready"]
        if not ready:
            break
        for m in ready:  # the lower seed number always wins
            finish(client, m, 0 if m["teams"][0] < m["teams"][1] else 1)
    s = state(client, t)
    semis = [m["teams"] for m in s["rounds"][0]["matches"]]
    # Qualifiers in seed order: winners 0 (group 1) and 1 (group 2), then the runners-up,
    # equal on every figure, by group: 3 (group 1), 2 (group 2). Seeds 1 v 4 and 2 v 3:
    # each group winner meets the other group's runner-up.
    assert semis == [[0, 2], [1, 3]]
    assert s["champion"] == 0


def test_repescagem_is_its_own_stage(client):
    t = create(client, teams=[f"T{i}" for i in range(8)], repescagem="apart")
    s = t["state"]
    rep = next(g for g in s["stages"] if g["name"] == "repescagem")
    assert [len(r["matches"]) for r in rep["rounds"]] == [2, 1]
    for m in s["rounds"][0]["matches"]:
        finish(client, m, 0)
    s = state(client, t)
    rep = next(g for g in s["stages"] if g["name"] == "repescagem")
    assert sorted(x for m in rep["rounds"][0]["matches"] for x in m["teams"]) == [4, 5, 6, 7]
    assert all(m["id"] for m in rep["rounds"][0]["matches"])


def test_abandonment_keeps_the_tentos_played(client):
    t = create(client, teams=["A", "B", "C"], format="round_robin")
    m = matches(state(client, t))["league:1:1"]
    match_id, key = m["id"], m["edit_url"].rsplit("/", 1)[1]
    r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                    json={"action": {"type": "adjust", "side": 0, "delta": 5}, "version": 0})
    assert r.status_code == 200
    r = correct(client, t, kind="abandonment", slot="league:1:1", abandoned=0)
    assert r.status_code == 200, r.get_json()
    s = r.get_json()["state"]
    rows = {x["team"]: x for x in s["standings"]}
    left, stayed = m["teams"]
    assert (rows[stayed]["points"], rows[left]["points"]) == (3, 0)
    assert (rows[left]["tentos_for"], rows[stayed]["tentos_against"]) == (5, 5)
    assert matches(s)["league:1:1"]["result"]["kind"] == "abandonment"


def test_changing_a_decided_result_asks_first_then_cascades(client):
    t = create(client, teams=["A", "B", "C", "D"])
    m = matches(state(client, t))
    finish(client, m["main:1:1"], 0)
    assert correct(client, t, kind="walkover", slot="main:1:1", absent=1).status_code == 200  # final still waits
    finish(client, m["main:1:2"], 0)
    r = correct(client, t, kind="walkover", slot="main:1:1", absent=0)
    assert r.status_code == 409 and r.get_json()["error"]["allowed"] == ["main:2:1"]
    r = correct(client, t, kind="walkover", slot="main:1:1", absent=0, confirmed=True)
    assert r.status_code == 200
    m = matches(r.get_json()["state"])
    assert m["main:1:1"]["winner"] == 3 and m["main:2:1"]["teams"] == [3, 1]


def test_organizer_reopen_page_lists_what_it_undoes(client):
    t = create(client, teams=["A", "B", "C", "D"])
    m = matches(state(client, t))
    finish(client, m["main:1:1"], 0)
    base = f"/t/{t['id']}/{t['organizer_key']}"
    page = client.get(base + "/reopen/main:1:1", headers=EN).get_data(as_text=True)
    assert "No later match depends on it." in page  # the final still waits for its other team
    finish(client, m["main:1:2"], 0)
    page = client.get(base + "/reopen/main:1:1", headers=EN).get_data(as_text=True)
    assert 'id="undone"' in page and "<li>A v B</li>" in page
    r = client.post(base + "/corrections", data={"kind": "reopen", "slot": "main:1:1"})
    assert r.status_code == 303 and "/reopen/main:1:1" in r.headers["Location"]  # asks first
    r = client.post(base + "/corrections", data={"kind": "reopen", "slot": "main:1:1", "confirmed": "1"})
    assert r.status_code == 303 and r.headers["Location"].endswith(base)
    assert matches(state(client, t))["main:1:1"]["winner"] is None


def test_pages_in_portuguese(client):
    t = create(client, teams=["A", "B", "C"], format="round_robin")
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "Classificação" in page and "Desempates" in page and "saldo de tentos" in page
    tv = client.get(f"/tv/{t['id']}", headers={"Accept-Language": "es-AR"}).get_data(as_text=True)
    assert "Posiciones" in tv and "sorteo" in tv


def test_a_failing_hook_never_loses_the_action(client, monkeypatch, caplog):
    """The action is stored before the hook runs; if advancing fails, the table still gets
    its answer and the next read of the tournament catches up."""
    from scorer.app import tournament_service

    t = create(client, teams=["A", "B"])
    m = matches(state(client, t))["main:1:1"]
    real = tournament_service.advance
    monkeypatch.setattr(tournament_service, "advance", lambda *a, **k: 1 / 0)
    finish(client, m, 0)
    assert "advancing the tournament" in caplog.text
    monkeypatch.setattr(tournament_service, "advance", real)
    assert state(client, t)["champion"] == 0


# Bugs found by trying to break the tournament endpoints: each gets its test.


@pytest.mark.parametrize("field", ["points_win", "legs", "groups", "best_extra"])
@pytest.mark.parametrize("value", ["--3", "9" * 5000, "٣x", "1e3"])
def test_form_numbers_that_are_not_numbers_are_422(client, field, value):
    r = client.post("/tournaments", data={"teams": "A\nB\nC\nD", "variant": "truco-15", "format": "groups",
                                          field: value}, headers=EN)
    assert r.status_code == 422 and "must be a whole number" in r.get_data(as_text=True)


@pytest.mark.parametrize("key", ["confirm", "draw"])
def test_switches_must_be_true_or_false(client, key):
    r = client.post("/api/tournaments", json={**OK, key: "yes"}, headers=EN)
    assert r.status_code == 422 and r.get_json()["error"]["message"] == f"{key} must be true or false."


def test_cascade_needs_confirmed_true_not_just_truthy(client):
    t = create(client, teams=["A", "B", "C", "D"])
    m = matches(state(client, t))
    finish(client, m["main:1:1"], 0)
    finish(client, m["main:1:2"], 0)
    r = correct(client, t, kind="reopen", slot="main:1:1", confirmed="yes")
    assert r.status_code == 409


def test_audit_is_shown_in_words(client):
    t = create(client, teams=["A", "B"])
    finish(client, matches(state(client, t))["main:1:1"], 1)
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    audit = page.split('id="audit-title"', 1)[1]
    assert "Mesa 1" in audit and "resultado" in audit and "vitória de B (0–15)" in audit
    assert "Organizador" in audit and "criado" in audit


@pytest.mark.parametrize("changes", [
    {"format": "groups", "teams": [f"T{i}" for i in range(9)], "groups": 3, "advance": 1, "best_extra": 1},
    {"format": "knockout", "teams": [f"T{i}" for i in range(8)], "repescagem": 3, "best_of": 3},
    {"format": "round_robin", "teams": [f"T{i}" for i in range(5)], "legs": 2, "confirm": True},
])
def test_every_format_renders_every_page(client, changes):
    t = create(client, **changes)
    base = f"/t/{t['id']}/{t['organizer_key']}"
    for path in (base, base + "/cards", f"/tv/{t['id']}", f"/tv/{t['id']}/live?stamp=x",
                 f"/api/tournaments/{t['id']}/export", f"/api/tournaments/{t['id']}/results.csv"):
        r = client.get(path, headers=EN)
        assert r.status_code == 200, path
    tv = client.get(f"/tv/{t['id']}", headers=EN).get_data(as_text=True)
    assert ("Tiebreaks:" in tv) is (changes["format"] != "knockout")  # only standings have tiebreaks (issue 32)
