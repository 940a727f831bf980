"""The season table and a player's page in Chromium (issue 32; docs/club.md): a club of eight
players over three nights, imported through the API of a real ``truco serve``, read on a phone
(360x640) and a TV (1920x1080): nothing wider than the screen, the table and the chart shown,
no serious accessibility fault (axe, on the phone).
With ``CLUB_SHOTS=<folder>`` the pages are also saved there as PNG (the issue's screenshots)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import PHONE, axe_violations, new_context, request

NIGHTS = ("2026-11-06T22:00", "2026-11-13T22:00", "2026-11-20T22:00")
PLAYERS = ["Ana Souza", "Beto Lima", "Caio Prado", "Duda Reis", "Eva Nunes", "Fabi Costa", "Gui Alves", "Helô Dias"]
SIDES = [([1, 2], [3, 4]), ([5, 6], [7, 8]), ([1, 3], [5, 7]), ([2, 4], [6, 8]), ([1, 5], [2, 6]), ([3, 7], [4, 8]),
         ([1, 2], [5, 6]), ([3, 4], [7, 8]), ([1, 8], [2, 7])]


def game(winner: int) -> list[dict]:
    """A short real game: the winner calls Truco, the other side refuses, then +1s to 15."""
    return [{"type": "call", "side": winner, "call": "truco"}, {"type": "no_quiero", "side": 1 - winner},
            *({"type": "adjust", "side": winner, "delta": 1} for _ in range(14))]


def export() -> dict:
    from datetime import datetime, timezone

    games = []
    for i, (a, b) in enumerate(SIDES * 2):
        night = datetime.fromisoformat(NIGHTS[min(i // 6, 2)]).replace(tzinfo=timezone.utc).timestamp()
        winner = (i * 7 + a[0]) % 3 % 2
        games.append({"sides": [a, b], "winner": winner, "ended": night + i * 600, "variant": "truco-15",
                      "options": {}, "mano": 0, "actions": game(winner)})
    return {"format": "truco-scorer-club/1", "name": "Peña del Jueves",
            "players": [{"player": i, "name": n, "nickname": n.split()[0]} for i, n in enumerate(PLAYERS, start=1)],
            "seasons": [{"name": "Primavera 2026", "first_night": "2026-09-01", "last_night": "2026-12-20"}],
            "games": games}


@pytest.fixture(scope="module")
def club(servers):
    server = servers(0)
    status, _headers, text = request(server, "POST", "/api/clubs/import", body=export())
    assert status == 201, text
    import json

    return server, json.loads(text)["id"]


@pytest.mark.parametrize(("width", "height"), [(360, 640), (1920, 1080)])
def test_season_table_and_player_page_fit_the_screen(chromium, club, width, height):
    server, cid = club
    shots = Path(os.environ["CLUB_SHOTS"]) if os.environ.get("CLUB_SHOTS") else None
    phone = {"width": width, "height": height} == PHONE
    ctx = new_context(chromium) if phone else chromium.new_context(viewport={"width": width, "height": height},
                                                                    locale="pt-BR")
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/club/{cid}?season=1")
        page.wait_for_selector("#season-table tbody tr")
        assert page.locator("#season-table tbody tr").count() == len(PLAYERS)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.locator("#best-pairs li").count() >= 1
        if phone:  # the phone context carries axe (tests/browser/conftest.py)
            assert axe_violations(page) == []
        if shots:
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / f"season-{width}x{height}.png"), full_page=width < 1000)
        # The chart comes through the test (as over a slow line), so the wait below polls.
        page.route("**/rating.svg*", lambda route: route.fulfill(response=route.fetch()))
        page.locator("#season-table tbody tr").first.locator("a").click()
        page.wait_for_selector("#rating-chart")
        # A function, not a bare expression: Playwright polls a string with eval, which the
        # page's Content-Security-Policy refuses (it passed only when the chart was already in).
        page.wait_for_function("() => { const chart = document.getElementById('rating-chart');"
                               " return chart.complete && chart.naturalWidth > 0; }")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.locator("#nights tbody tr").count() == 3
        if phone:
            assert axe_violations(page) == []
        if shots:
            page.screenshot(path=str(shots / f"player-{width}x{height}.png"), full_page=width < 1000)
    finally:
        ctx.close()
