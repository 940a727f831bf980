"""The evening in numbers (issue 22): the same statistics from the API, the page, the CSV
and ``truco replay --stats``, after export and import too, for a match, its series and a
tournament; unknown ids answer 404."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli.main import cli
from scorer.core.stats import flat, flat_keys, SideStats
from scorer.web import create_app

MATCHES = Path(__file__).resolve().parents[1] / "matches"
EXPECTED = json.loads((MATCHES / "expected.json").read_text())
BY_HAND = json.loads((MATCHES / "expected_stats.json").read_text())


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "s.sqlite3"}).test_client()


def play(client, name, actions=None):
    e = EXPECTED[name]
    m = client.post("/api/matches", json={"variant": e["variant"], "options": e["options"], "names": ["Nós", "Eles"],
                                          "mano": e["mano"]}).get_json()
    lines = (MATCHES / f"{name}.jsonl").read_text().splitlines()
    actions = actions if actions is not None else [json.loads(x) for x in lines if x.strip()]
    for version, action in enumerate(actions):
        r = client.post(f"/api/matches/{m['id']}/actions", json={"action": action, "version": version},
                        headers={"X-Edit-Key": m["edit_key"]})
        assert r.status_code == 200, r.get_json()
    return m


def by_hand(name):
    return [{**SideStats().as_dict(), **side} for side in BY_HAND[name]["sides"]]


@pytest.mark.parametrize("name", sorted(BY_HAND))
def test_api_page_csv_and_replay_give_the_numbers_worked_out_by_hand(client, name):
    m = play(client, name)
    api = client.get(f"/api/matches/{m['id']}/stats")
    assert api.status_code == 200 and api.get_json() == {"sides": by_hand(name)}
    # the CSV: one row per side, every key
    text = client.get(f"/matches/{m['id']}/stats.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    for side, want in enumerate(by_hand(name)):
        flat_want = flat(SideStats(**{k: v for k, v in want.items() if k != "envido_points_average"}))
        assert {k: rows[side][k] for k in flat_keys()} == {k: "" if v is None else str(v) for k, v in flat_want.items()}
    # the page: each row's cells
    page = client.get(f"/matches/{m['id']}/stats").get_data(as_text=True)
    for key in ("hands_won", "truco_called", "envido_won", "tentos_by_source.folds_and_refusals"):
        cells = re.search(rf'data-stat="{re.escape(key)}"><th scope="row">[^<]*</th><td>([^<]*)</td><td>([^<]*)</td>', page)
        want = [flat(SideStats(**{k: v for k, v in s.items() if k != "envido_points_average"}))[key] for s in by_hand(name)]
        assert cells and [cells.group(1), cells.group(2)] == [str(w) for w in want], key
    # truco replay --stats
    e = EXPECTED[name]
    args = ["replay", "--variant", e["variant"], "--mano", str(e["mano"])]
    args += [f"--option={k}={json.dumps(v)}" for k, v in e["options"].items()]
    out = CliRunner().invoke(cli, [*args, "--stats", str(MATCHES / f"{name}.jsonl")])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == {"sides": by_hand(name)}


def test_the_same_numbers_after_export_and_import(client):
    m = play(client, "argentino-30_flor_malas_buenas")
    exported = client.get(f"/api/matches/{m['id']}/export").get_json()
    again = client.post("/api/matches/import", json=exported).get_json()
    assert client.get(f"/api/matches/{again['id']}/stats").get_json() == {"sides": by_hand("argentino-30_flor_malas_buenas")}


def test_a_series_sums_its_games(client):
    m = play(client, "paulista_mao_de_ferro")
    r = client.post(f"/m/{m['id']}/{m['edit_key']}/revanche")
    assert r.status_code in (200, 302, 303)
    series = client.get(f"/api/matches/{m['id']}/series/stats").get_json()
    assert series["matches"] == 2
    assert series["sides"][1]["matches_played"] == 2 and series["sides"][1]["matches_won"] == 1
    assert series["sides"][1]["largest_deficit_overcome"] == 9


@pytest.mark.parametrize("url", ["/api/matches/nope/stats", "/api/matches/nope/series/stats",
                                 "/api/tournaments/nope/stats", "/matches/nope/stats", "/matches/nope/stats.csv"])
def test_unknown_ids_are_404(client, url):
    assert client.get(url).status_code == 404


def test_a_tournament_counts_each_team_over_its_games(client):
    from urllib.parse import urlsplit

    t = client.post("/api/tournaments", json={"name": "Copa", "variant": "truco-15", "teams": ["A", "B", "C", "D"],
                                              "format": "knockout"}).get_json()
    s = client.get(f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]}).get_json()
    first = s["rounds"][0]["matches"][0]
    _, _, match_id, key = urlsplit(first["edit_url"]).path.split("/")
    for version, action in enumerate([{"type": "call", "side": 0, "call": "truco"}, {"type": "no_quiero", "side": 1},
                                      {"type": "adjust", "side": 1, "delta": 15}]):
        r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                        json={"action": action, "version": version})
        assert r.status_code == 200, r.get_json()
    teams = client.get(f"/api/tournaments/{t['id']}/stats").get_json()["teams"]
    assert [team["name"] for team in teams] == ["A", "B", "C", "D"]
    a, b = (teams[i] for i in first["teams"])
    assert a["truco_called"] == 1 and b["truco_refused"] == 1 and b["matches_won"] == 1
    assert a["tentos_by_source"]["folds_and_refusals"] == 1 and b["tentos_by_source"]["corrections"] == 15
    assert sum(team["matches_played"] for team in teams) == 4  # both round-1 games started: 2 teams each


def test_openapi_describes_every_statistic():
    import yaml

    spec = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
    side = spec["components"]["schemas"]["SideStats"]
    assert side["required"] == list(SideStats().as_dict()) and set(side["properties"]) == set(side["required"])


@pytest.mark.parametrize("lang, asked", [("pt", "Quem ganhou o Envido?"), ("es", "¿Quién ganó el Envido?"),
                                         ("en", "Who won the Envido?")])
def test_the_board_asks_who_won_the_envido_and_takes_both_sides_points(client, lang, asked):
    m = play(client, "uruguaio_falta_in_the_malas", actions=[{"type": "call", "side": 1, "call": "envido"},
                                                              {"type": "quiero", "side": 0}])
    board = client.get(f"/m/{m['id']}/{m['edit_key']}", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert f'id="asking">{asked}</span>' in board and 'name="points0"' in board
    r = client.post(f"/m/{m['id']}/{m['edit_key']}/actions",
                    data={"version": "2", "kind": "envido_points", "points0": "27", "points1": "31"})
    assert r.status_code in (200, 303)
    sides = client.get(f"/api/matches/{m['id']}/stats").get_json()["sides"]
    assert [s["envido_points_sum"] for s in sides] == [27, 31] and sides[1]["envido_won"] == 1
    assert [s["envido_points_missing"] for s in sides] == [0, 0]
    board = client.get(f"/m/{m['id']}/{m['edit_key']}").get_data(as_text=True)
    assert 'id="asking"' not in board


def test_an_envido_settled_by_tapping_the_winner_is_counted_as_without_points(client):
    m = play(client, "uruguaio_falta_in_the_malas", actions=[{"type": "call", "side": 1, "call": "envido"},
                                                              {"type": "quiero", "side": 0},
                                                              {"type": "envido_winner", "side": 0}])
    sides = client.get(f"/api/matches/{m['id']}/stats").get_json()["sides"]
    assert [s["envido_points_missing"] for s in sides] == [1, 1] and sides[0]["envido_points_average"] is None
    page = client.get(f"/matches/{m['id']}/stats").get_data(as_text=True)
    assert 'data-stat="envido_points_missing"' in page


def test_the_finished_board_links_to_the_numbers(client):
    m = play(client, "paulista_mao_de_ferro")
    board = client.get(f"/m/{m['id']}/{m['edit_key']}").get_data(as_text=True)
    assert f'href="/matches/{m["id"]}/stats"' in board
    watch = client.get(f"/w/{m['id']}").get_data(as_text=True)
    assert f'href="/matches/{m["id"]}/stats"' in watch


@pytest.mark.parametrize("lang, words", [("pt", ["Mão", "Vale cuatro", "Falta envido", ">mazo<"]),
                                         ("es", ["Mano", "Vale cuatro", "Falta envido", ">mazo<"]),
                                         ("en", ["Hand", "Vale cuatro", "Falta envido", ">mazo<"])])
def test_the_story_chart_is_an_svg_picture_with_the_deciding_calls(client, lang, words):
    m = play(client, "argentino-30_flor_malas_buenas")
    r = client.get(f"/matches/{m['id']}/chart.svg", headers={"Accept-Language": lang})
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    # pygal writes its config as an inline script: the picture's own CSP runs nothing
    assert r.headers["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"
    assert "<script" not in r.get_data(as_text=True).split("<script", 1)[1].split("</script>", 1)[1]
    text = r.get_data(as_text=True)
    assert text.lstrip().startswith("<?xml") and "Nós 30 × 16 Eles" in text
    for word in words:
        assert word in text, word


def test_the_playing_board_does_not_load_the_chart_but_the_watch_page_does(client):
    m = play(client, "argentino-30_flor_malas_buenas", actions=[{"type": "call", "side": 0, "call": "flor"}])
    board = client.get(f"/m/{m['id']}/{m['edit_key']}").get_data(as_text=True)
    assert "chart.svg" not in board and "stats-link" not in board
    watch = client.get(f"/w/{m['id']}").get_data(as_text=True)
    assert f"/matches/{m['id']}/chart.svg" in watch


def test_series_and_tournament_pictures_and_summary_page(client):
    m = play(client, "paulista_mao_de_ferro")
    client.post(f"/m/{m['id']}/{m['edit_key']}/revanche")
    r = client.get(f"/matches/{m['id']}/series/summary.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml" and "Partidas ganhas" in r.get_data(as_text=True)
    page = client.get(f"/matches/{m['id']}/stats").get_data(as_text=True)
    assert 'id="series-stats"' in page and 'id="series-picture"' in page and page.count('class="story-chart"') == 2
    t = client.post("/api/tournaments", json={"name": "Copa", "variant": "truco-15", "teams": ["A", "B", "C", "D"],
                                              "format": "knockout"}).get_json()
    page = client.get(f"/tournaments/{t['id']}/summary", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "la noche en números" in page and 'id="team-stats"' in page
    assert client.get(f"/tournaments/{t['id']}/summary.svg").mimetype == "image/svg+xml"
    for url in ("/matches/nope/chart.svg", "/matches/nope/series/summary.svg", "/tournaments/nope/summary",
                "/tournaments/nope/summary.svg"):
        assert client.get(url).status_code == 404


def random_actions(seed: int, variant: str, steps: int):
    """A random legal match's actions (undo and corrections included), and the match."""
    import random

    from scorer.core.match import Match
    from scorer.core.variants import VARIANTS

    rng = random.Random(seed)
    m = Match(variant, {"flor": True} if "flor" in VARIANTS[variant].option_specs else {}, seed % 2)
    for _ in range(steps):
        if m.winner is not None:
            break
        choice = {k: v for k, v in rng.choice(m.legal_actions()).items() if k not in ("points", "points_side")}
        if choice["type"] == "declare_points":
            counts = [n for low, high in m.state()["hand"]["counts"] for n in range(low, high + 1)]
            choice = {"type": "envido_points", "points": [rng.choice(counts), rng.choice(counts)]}
        m.apply(choice)
    return m


def test_random_matches_keep_their_numbers_through_export_and_import(tmp_path):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from scorer.app.match_service import EXPORT_FORMAT
    from scorer.core.stats import match_stats
    from scorer.core.variants import VARIANTS

    client = create_app({"TESTING": True, "DATABASE": tmp_path / "h.sqlite3"}).test_client()

    @settings(max_examples=25, deadline=None)
    @given(seed=st.integers(0, 10**6), variant=st.sampled_from(sorted(VARIANTS)), steps=st.integers(0, 150))
    def run(seed, variant, steps):
        m = random_actions(seed, variant, steps)
        want = {"sides": [side.as_dict() for side in match_stats(m)]}
        first = client.post("/api/matches/import", json={"format": EXPORT_FORMAT, "variant": variant,
                                                         "options": m.options, "names": ["Nós", "Eles"],
                                                         "mano": m.first_mano, "actions": m.actions})
        assert first.status_code == 201, first.get_json()
        exported = client.get(f"/api/matches/{first.get_json()['id']}/export").get_json()
        again = client.post("/api/matches/import", json=exported).get_json()
        for match_id in (first.get_json()["id"], again["id"]):
            assert client.get(f"/api/matches/{match_id}/stats").get_json() == want

    run()


def test_the_organizer_page_links_the_night_in_numbers_and_its_csv(client):
    """Issue 22: the night summary and the teams' numbers are one tap from the organizer page;
    the CSV has one row per team with the same numbers as the API."""
    t = client.post("/api/tournaments", json={"variant": "truco-15", "teams": ["Alfa", "Beta"]}).get_json()
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert f'href="/tournaments/{t["id"]}/summary"' in page and "A noite em números" in page
    assert f'href="/tournaments/{t["id"]}/stats.csv"' in page and "Números (CSV)" in page
    rows = list(csv.reader(io.StringIO(client.get(f"/tournaments/{t['id']}/stats.csv").get_data(as_text=True))))
    api = client.get(f"/api/tournaments/{t['id']}/stats").get_json()["teams"]
    assert [r[1] for r in rows[1:]] == ["Alfa", "Beta"] == [team["name"] for team in api]
    assert rows[0][:2] == ["side", "name"] and len(rows) == 3
    column = rows[0].index("hands_won")
    assert [int(r[column]) for r in rows[1:]] == [team["hands_won"] for team in api]
