"""A best-of-3 series played to the end on `truco serve`: Revanche keeps the series, the
scoreboard and the watch page show it, the third game decides it, and the next Revanche
starts a new series. Each game is brought near its end through the JSON API; its last
tap and every Revanche are made in the page."""

from __future__ import annotations

from conftest import action_button, api_act, new_context, watch_errors
from playwright.sync_api import expect


def play_game(page, live, winner: int) -> None:
    """Bring the game on ``page`` to 11-0 (or 0-11) by API, then win it with a tap."""
    path = page.url.split(str(live.port), 1)[1]
    _, _, match_id, key = path.split("/")
    api_act(live, match_id, key, {"type": "adjust", "side": winner, "delta": 11}, 0)
    # 11 points: the mão de onze; its side plays it and wins the hand.
    api_act(live, match_id, key, {"type": "special_hand", "side": winner, "decision": "play"}, 1)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")  # the poll brought them
    action_button(page, {"type": "hand_winner", "side": winner}).click()
    expect(page.locator("#game-over")).to_be_visible()


def series(page, game: int, a: int, b: int) -> None:
    expect(page.locator("#series")).to_contain_text(f"Melhor de 3, partida {game}")
    expect(page.locator("#series0")).to_have_text(str(a))
    expect(page.locator("#series1")).to_have_text(str(b))


def test_best_of_three_to_the_end(chromium, live):
    errors: list[str] = []
    ctx = new_context(chromium)
    page, tv = ctx.new_page(), ctx.new_page()
    watch_errors(page, errors)
    watch_errors(tv, errors)
    page.goto(live.url + "/")
    page.select_option("#variant", "paulista")
    page.select_option("#best_of", "3")
    page.click("#start")
    series(page, 1, 0, 0)
    match_id = page.url.split("/")[4]
    tv.goto(f"{live.url}/w/{match_id}")
    series(tv, 1, 0, 0)

    play_game(page, live, 0)
    series(page, 1, 1, 0)
    series(tv, 1, 1, 0)  # the watch page follows through its poll
    page.click("#revanche")
    series(page, 2, 1, 0)
    expect(page.locator("#score0")).to_have_text("0")

    play_game(page, live, 1)
    series(page, 2, 1, 1)
    expect(page.locator("#series-winner")).to_have_count(0)
    page.click("#revanche")
    series(page, 3, 1, 1)
    tv.goto(f"{live.url}/w/{page.url.split('/')[4]}")

    play_game(page, live, 0)
    series(page, 3, 2, 1)
    # Issue 13 item 12 (X1): the name is a label, never the subject of a verb.
    expect(page.locator("#series-winner")).to_contain_text("Série para Nós!")
    expect(tv.locator("#series-winner")).to_contain_text("Série para Nós!")
    series(tv, 3, 2, 1)
    expect(page.locator("#revanche")).to_contain_text("nova série, melhor de 3")

    # The series is decided: the Revanche starts a new one.
    page.click("#revanche")
    series(page, 1, 0, 0)
    assert not errors, errors
    ctx.close()
