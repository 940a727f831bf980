"""Heavy reads kept per version of what they show (issue 31, item 1; scorer/web/hosting/read_cache.py):
each route's ETag and 304, a 64-team round robin's statistics and summary computed once per
version on SQLite and PostgreSQL, the organizer's page of 64 teams kept small, one computation
shared by concurrent requests, a heavy read beyond the process's slots answered 503 at once,
and the per-tournament budget counting only computations. Times are not asserted here (they
are bench/heavy_reads.py's)."""

from __future__ import annotations

import threading
from urllib.parse import urlsplit

import pytest

from scorer.app import stats_service
from scorer.web import create_app
from scorer.web.hosting.read_cache import Kept, ReadCache
from web_client import EN, ES, PT

TEAMS = [f"Dupla {i + 1:02d}" for i in range(64)]


def big_round_robin(client) -> dict:
    r = client.post("/api/tournaments", json={"name": "Liga", "variant": "truco-15", "teams": TEAMS,
                                              "format": "round_robin"})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def small(client, fmt="knockout") -> dict:
    r = client.post("/api/tournaments", json={"name": "Copa", "variant": "truco-15", "teams": ["A", "B", "C", "D"],
                                              "format": fmt})
    assert r.status_code == 201
    return r.get_json()


def edit_link(match: dict) -> tuple[str, str]:
    _, _, match_id, key = urlsplit(match["edit_url"]).path.split("/")
    return match_id, key


def play(client, match_id: str, key: str, actions: list[dict]) -> None:
    version = client.get(f"/api/matches/{match_id}").get_json()["version"]
    for action in actions:
        r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                        json={"action": action, "version": version})
        assert r.status_code == 200, r.get_json()
        version += 1


def first_match(client, t: dict) -> dict:
    state = client.get(f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]}).get_json()
    return state["rounds"][0]["matches"][0]


def tournament_routes(t: dict, team_key: str) -> dict[str, str]:
    tid, key = t["id"], t["organizer_key"]
    return {
        "stats": f"/api/tournaments/{tid}/stats", "stats_csv": f"/tournaments/{tid}/stats.csv",
        "summary_svg": f"/tournaments/{tid}/summary.svg", "summary": f"/tournaments/{tid}/summary",
        "export": f"/api/tournaments/{tid}/export", "results_csv": f"/api/tournaments/{tid}/results.csv",
        "state": f"/api/tournaments/{tid}", "organizer": f"/t/{tid}/{key}", "cards": f"/t/{tid}/{key}/cards",
        "tv": f"/tv/{tid}", "tv_live": f"/tv/{tid}/live?stamp=old", "team": f"/t/{tid}/team/0/{team_key}",
    }


def match_routes(match_id: str) -> dict[str, str]:
    return {
        "stats": f"/api/matches/{match_id}/stats", "series_stats": f"/api/matches/{match_id}/series/stats",
        "stats_csv": f"/matches/{match_id}/stats.csv", "stats_page": f"/matches/{match_id}/stats",
        "chart": f"/matches/{match_id}/chart.svg", "series_svg": f"/matches/{match_id}/series/summary.svg",
        "export": f"/api/matches/{match_id}/export", "log_csv": f"/api/matches/{match_id}/log.csv",
    }


#: What each route's kept answer says: (public: ``no-cache``, else a keyed page's ``no-store``).
TOURNAMENT_ROUTES = [("stats", True), ("stats_csv", True), ("summary_svg", True), ("summary", True),
                     ("export", True), ("results_csv", True), ("state", True), ("organizer", False),
                     ("cards", False), ("tv", True), ("tv_live", True), ("team", False)]
MATCH_ROUTES = ["stats", "series_stats", "stats_csv", "stats_page", "chart", "series_svg", "export", "log_csv"]


@pytest.fixture
def confirming(client):
    """A small tournament whose teams confirm (so each has a team page), with a game begun."""
    r = client.post("/api/tournaments", json={"name": "Copa", "variant": "truco-15", "teams": ["A", "B", "C", "D"],
                                              "format": "knockout", "confirm": True})
    t = r.get_json()
    match_id, key = edit_link(first_match(client, t))
    play(client, match_id, key, [{"type": "call", "side": 0, "call": "truco"}, {"type": "no_quiero", "side": 1}])
    team_key = client.application.extensions["truco_tournament_keys"].team(t["id"], 0)
    return t, team_key, match_id


@pytest.mark.parametrize("route, public", TOURNAMENT_ROUTES)
def test_every_tournament_read_has_an_etag_and_answers_304(client, confirming, route, public):
    t, team_key, _ = confirming
    path = tournament_routes(t, team_key)[route]
    first = client.get(path)
    assert first.status_code == 200 and first.headers["ETag"]
    assert first.headers["Cache-Control"] == ("no-cache" if public else "no-store")
    again = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert client.get(path).data == first.data  # the kept answer, whole


@pytest.mark.parametrize("route", MATCH_ROUTES)
def test_every_match_read_has_an_etag_and_answers_304_until_the_match_changes(client, confirming, route):
    t, _, match_id = confirming
    path = match_routes(match_id)[route]
    first = client.get(path)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
    key = client.application.extensions["truco_tournament_keys"].table(t["id"], first_match(client, t)["slot"])
    play(client, match_id, key, [{"type": "adjust", "side": 0, "delta": 1}])
    changed = client.get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_the_organizers_state_is_never_stored_by_a_browser(client, confirming):
    t, _, _ = confirming
    mine = client.get(f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]})
    assert mine.headers["Cache-Control"] == "no-store" and "edit_url" in mine.get_data(as_text=True)
    public = client.get(f"/api/tournaments/{t['id']}")
    assert public.headers["Cache-Control"] == "no-cache" and "edit_url" not in public.get_data(as_text=True)


def test_an_etag_holds_through_brotli(client, confirming):
    t, _, _ = confirming
    br = {"Accept-Encoding": "br"}
    first = client.get(f"/tournaments/{t['id']}/summary.svg", headers=br)
    assert first.headers["Content-Encoding"] == "br" and first.headers["ETag"].endswith(':br"')
    again = client.get(f"/tournaments/{t['id']}/summary.svg", headers={**br, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.fixture
def app_on(migrated_db_url, tmp_path):
    return create_app({"TESTING": True, "DATABASE": migrated_db_url, "INSTANCE_SECRET": "s" * 40})


def test_a_64_team_round_robin_is_computed_once_per_version(app_on, monkeypatch):
    """The statistics and the summary of the documented maximum (2,016 games) are computed on
    the first read, served from memory on the next, and computed again after a new result."""
    client = app_on.test_client()
    t = big_round_robin(client)
    calls = []
    real = stats_service.tournament_teams
    monkeypatch.setattr(stats_service, "tournament_teams", lambda *a: calls.append(1) or real(*a))
    stats, svg = f"/api/tournaments/{t['id']}/stats", f"/tournaments/{t['id']}/summary.svg"
    before = client.get(stats).get_json()
    assert [team["matches_played"] for team in before["teams"]] == [63] * 64  # every game linked
    assert client.get(svg).status_code == 200
    assert len(calls) == 2
    assert client.get(stats).get_json() == before and client.get(svg).status_code == 200
    assert len(calls) == 2  # from memory: nothing recomputed
    match = first_match(client, t)
    play(client, *edit_link(match), [{"type": "adjust", "side": 0, "delta": 15}])
    after = client.get(stats).get_json()
    assert client.get(svg).status_code == 200
    assert len(calls) == 4
    winner = match["teams"][0]
    assert after["teams"][winner]["matches_won"] == 1 and before["teams"][winner]["matches_won"] == 0


def test_a_64_team_organizer_page_shows_one_round(client):
    t = big_round_robin(client)
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}", headers=EN)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and len(page.data) < 300_000, len(page.data)
    assert html.count('class="tmatch ') == 32  # round 1, being played
    assert html.count('class="round folded"') == 62 and "0 of 32 decided" in html
    other = client.get(f"/t/{t['id']}/{t['organizer_key']}?round=league:63").get_data(as_text=True)
    assert other.count('class="tmatch ') == 32 and 'id="slot-league-63-1"' in other
    assert 'id="slot-league-1-1"' not in other


def test_other_query_text_shares_the_kept_answer(app_on):
    client = app_on.test_client()
    t = small(client)
    cache = app_on.extensions["truco_read_cache"]
    client.get(f"/tv/{t['id']}")
    done = cache.computed
    for n in range(5):
        assert client.get(f"/tv/{t['id']}?utm={n}").status_code == 200
    assert cache.computed == done


@pytest.mark.parametrize("headers", [PT, ES, EN])
def test_each_language_is_kept_apart(client, headers):
    t = small(client)
    one = client.get(f"/tournaments/{t['id']}/summary", headers=headers).get_data(as_text=True)
    assert client.get(f"/tournaments/{t['id']}/summary", headers=headers).get_data(as_text=True) == one
    assert f'lang="{headers["Accept-Language"][:2]}' in one


def blocked_stats(monkeypatch) -> tuple[threading.Event, threading.Event, list]:
    """Make the tournament statistics wait for ``release`` (``started`` set when one begins)."""
    started, release, calls = threading.Event(), threading.Event(), []
    real = stats_service.tournament_json

    def slow(*args):
        calls.append(1)
        started.set()
        assert release.wait(30)
        return real(*args)

    monkeypatch.setattr(stats_service, "tournament_json", slow)
    return started, release, calls


def test_concurrent_requests_wait_on_one_computation(tmp_path, monkeypatch):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "t.sqlite3", "HEAVY_READS": 3})
    t = small(app.test_client())
    started, release, calls = blocked_stats(monkeypatch)
    answers = []

    def read():
        answers.append(app.test_client().get(f"/api/tournaments/{t['id']}/stats"))

    threads = [threading.Thread(target=read) for _ in range(3)]
    threads[0].start()
    assert started.wait(30)
    for thread in threads[1:]:
        thread.start()
    cache = app.extensions["truco_read_cache"]
    waited = threading.Event()
    for _ in range(3000):  # a state, polled: the two later requests hold a slot each, waiting
        if len(cache.pending) == 1 and cache.slots._value == 0:  # noqa: SLF001
            break
        waited.wait(0.01)
    assert cache.slots._value == 0  # noqa: SLF001
    release.set()
    for thread in threads:
        thread.join(30)
    assert [a.status_code for a in answers] == [200, 200, 200] and len(calls) == 1
    assert len({a.data for a in answers}) == 1


def test_a_heavy_read_beyond_the_slots_is_answered_at_once(tmp_path, monkeypatch):
    """With every heavy-read slot taken (THREADS 2: one slot), another heavy read gets 503 and
    Retry-After at once, the scoreboard and its taps go on, and once computed it is served."""
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "t.sqlite3", "THREADS": 2})
    client = app.test_client()
    t = small(client)
    started, release, _calls = blocked_stats(monkeypatch)
    slow = threading.Thread(target=lambda: app.test_client().get(f"/api/tournaments/{t['id']}/stats"))
    slow.start()
    assert started.wait(30)
    busy = client.get(f"/tournaments/{t['id']}/summary.svg", headers=EN)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
    assert "busy" in busy.get_data(as_text=True)
    match_id, key = edit_link(t["state"]["rounds"][0]["matches"][0])  # as created (the state API is a heavy read)
    play(client, match_id, key, [{"type": "adjust", "side": 0, "delta": 1}])  # a tap is not a heavy read
    release.set()
    slow.join(30)
    assert client.get(f"/tournaments/{t['id']}/summary.svg").status_code == 200


def test_the_budget_counts_computations_per_tournament(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "t.sqlite3", "PUBLIC_URL": "http://127.0.0.1",
                      "RATE_LIMITS": {"heavy_read": "2/minute"}})
    client = app.test_client()
    t, other = small(client), small(client)
    path = f"/tournaments/{t['id']}/summary.svg"
    for _ in range(5):  # kept: counted once
        assert client.get(path, headers=PT).status_code == 200
    assert client.get(path, headers=ES).status_code == 200  # computed: the second of two
    assert client.get(path, headers=EN).status_code == 429  # a third computation: over the budget
    assert client.get(f"/tournaments/{other['id']}/summary.svg").status_code == 200  # another tournament's own


def test_the_cache_keeps_its_bytes():
    cache = ReadCache(max_bytes=3_000)
    for n in range(10):
        cache.put(n, Kept(b"x" * 800, (), str(n)))
    assert cache.bytes <= 3_000 and cache.get(9) is not None and cache.get(0) is None
    cache.compressed_put("br;read:9", b"y" * 800)
    assert cache.bytes <= 3_000 and cache.compressed_get("br;read:9") == b"y" * 800


def test_a_new_process_reads_the_games_numbers_kept_in_the_database(app_on, monkeypatch):
    """After a restart (a new app on the same database) or in another worker, a tournament's
    statistics read each played game's numbers as last counted instead of replaying it."""
    client = app_on.test_client()
    t = small(client)
    match_id, key = edit_link(first_match(client, t))
    play(client, match_id, key, [{"type": "call", "side": 0, "call": "truco"}, {"type": "no_quiero", "side": 1}])
    before = client.get(f"/api/tournaments/{t['id']}/stats").get_json()
    restarted = create_app({"TESTING": True, "DATABASE": app_on.config["DATABASE"], "INSTANCE_SECRET": "s" * 40})

    def no_replay(*_args, **_kw):
        raise AssertionError("a game was replayed")

    monkeypatch.setattr(stats_service.Match, "replay", no_replay)
    assert restarted.test_client().get(f"/api/tournaments/{t['id']}/stats").get_json() == before
