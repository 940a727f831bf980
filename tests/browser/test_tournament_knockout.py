"""A 4-team knockout in Chromium (issue 11): the organizer creates it with the form, two
phones each score a semifinal from their table's link, the TV page follows by itself
(htmx polling), the final appears once both semifinals are over, and the champion shows
on the TV. Synchronisation is by Playwright's waits on what the pages show, never sleeps.

A tap paints its score at once (issue 14's instant score, marked tentative) and the
server's answer confirms it: a table counts as played once its board shows the answer's
version (``data-version``), not when the number first changes.

Screenshots (test-results/): the TV at 1920x1080 and on a landscape phone/tablet
(640x360), the organizer page and the printable cards at 360x640.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import PHONE, api_act, axe_violations, new_context, request
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "test-results"

#: Paulista: Truco, Seis, Nove and Doze accepted, then side 0 wins the hand: 12, game over.
TO_TWELVE = [
    {"type": "call", "side": 0, "call": "truco"}, {"type": "quiero", "side": 1},
    {"type": "call", "side": 1, "call": "seis"}, {"type": "quiero", "side": 0},
    {"type": "call", "side": 0, "call": "nove"}, {"type": "quiero", "side": 1},
    {"type": "call", "side": 1, "call": "doze"}, {"type": "quiero", "side": 0},
    {"type": "hand_winner", "side": 0},
]


def play_to_twelve(page) -> None:
    """Tap through :data:`TO_TWELVE` on a scoreboard, waiting for each new version."""
    for version, action in enumerate(TO_TWELVE):
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(version), timeout=10_000)
        code = json.dumps(action, separators=(",", ":"), sort_keys=True)
        page.locator(f"button[data-action='{code}']").click()
    game_stored(page)


def game_stored(page) -> None:
    """The board shows the server's answer to the last tap of :data:`TO_TWELVE`: 12, stored
    (the painted, tentative 12 comes before the server has it)."""
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(len(TO_TWELVE)), timeout=10_000)
    expect(page.locator("#score0")).to_have_text("12", timeout=10_000)
    expect(page.locator("#score0")).not_to_have_class(re.compile(r"\btentative\b"))


def score_link(organizer, teams: str) -> str:
    """The organizer page's "Score" link of the match between ``teams`` ("A v D")."""
    a, b = teams.split(" v ")
    match = organizer.locator(".tmatch", has=organizer.locator(".tname", has_text=a)).filter(
        has=organizer.locator(".tname", has_text=b))
    return match.locator("a.edit-link").get_attribute("href")


def test_four_team_knockout_on_two_phones_and_a_tv(live, chromium):
    errors: list[str] = []
    org_ctx = chromium.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    tv_ctx = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    phones = [chromium.new_context(viewport=PHONE, locale="pt-BR", has_touch=True) for _ in range(2)]
    org, tv = org_ctx.new_page(), tv_ctx.new_page()
    a, b = (ctx.new_page() for ctx in phones)
    for page in (org, tv, a, b):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    # The organizer creates the tournament with the form.
    org.goto(live.url + "/tournaments/new")
    org.fill("input[name=name]", "Copa da Vila")
    org.select_option("#variant", "paulista")
    org.fill("#teams", "Alfa\nBeta\nGama\nDelta")
    org.click("#create")
    expect(org.locator("#organizer h1")).to_have_text("Copa da Vila")
    expect(org.locator(".tmatch")).to_have_count(3)  # 2 semifinals and the final, waiting

    # The printable cards: one per table now playing, each with its QR code (A4 at 96 dpi).
    cards = org_ctx.new_page()
    cards.set_viewport_size({"width": 794, "height": 1123})
    cards.goto(live.url + org.locator("#cards-link").get_attribute("href"))
    expect(cards.locator(".card")).to_have_count(2)
    expect(cards.locator(".card svg.qr")).to_have_count(2)
    RESULTS.mkdir(exist_ok=True)
    cards.screenshot(path=str(RESULTS / "tournament-cards-a4.png"), full_page=True)
    cards.emulate_media(media="print")
    assert cards.pdf(format="A4")[:4] == b"%PDF"
    cards.close()

    # The TV opens its page (no key) and shows the bracket.
    tv.goto(live.url + org.locator("#tv-link").get_attribute("href"))
    expect(tv.locator("h1")).to_have_text("Copa da Vila")
    assert "/m/" not in tv.content()  # no table's edit link on the TV

    # Each phone opens its table's link (what the card's QR code holds) and plays.
    a.goto(score_link(org, "Alfa v Delta"))
    b.goto(score_link(org, "Beta v Gama"))
    play_to_twelve(a)
    for version, action in enumerate(TO_TWELVE[:2]):  # Beta v Gama: Truco accepted...
        expect(b.locator("#scoreboard")).to_have_attribute("data-version", str(version), timeout=10_000)
        code = json.dumps(action, separators=(",", ":"), sort_keys=True)
        b.locator(f"button[data-action='{code}']").click()
    # ...the TV follows the semifinal already won and the one still going.
    expect(tv.locator(".tside.won .tname", has_text="Alfa")).to_be_visible(timeout=10_000)
    live_row = tv.locator(".live-table", has=tv.locator(".tname", has_text="Beta"))
    expect(live_row).to_have_count(1, timeout=10_000)
    expect(live_row.locator(".lscore").first).to_have_text("0")
    expect(tv.locator(".live-table")).to_have_count(1)
    RESULTS.mkdir(exist_ok=True)
    tv.screenshot(path=str(RESULTS / "tournament-tv-1920x1080.png"), full_page=True)
    for version, action in enumerate(TO_TWELVE[2:], start=2):
        expect(b.locator("#scoreboard")).to_have_attribute("data-version", str(version), timeout=10_000)
        code = json.dumps(action, separators=(",", ":"), sort_keys=True)
        b.locator(f"button[data-action='{code}']").click()
    game_stored(b)

    # The final appears by itself: Alfa v Beta, with its own link. (The round titled
    # exactly "Final": "Semifinals" contains the word too, and Beta plays there.)
    final = tv.locator(".round", has=tv.locator("h3", has_text=re.compile(r"^\s*Final\s*$")))
    expect(final.locator(".tname", has_text="Beta")).to_be_visible(timeout=10_000)
    org.reload()
    a.goto(score_link(org, "Alfa v Beta"))
    play_to_twelve(a)
    expect(tv.locator("#champion")).to_contain_text("Alfa", timeout=10_000)
    tv.screenshot(path=str(RESULTS / "tournament-tv-champion-1920x1080.png"), full_page=True)
    for page in (tv,):
        page.set_viewport_size({"width": 640, "height": 360})
        page.screenshot(path=str(RESULTS / "tournament-tv-640x360.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 640 + 1
    org.reload()
    expect(org.locator("#champion")).to_contain_text("Alfa")
    expect(org.locator(".audit")).to_contain_text("Table 1")
    org.screenshot(path=str(RESULTS / "tournament-organizer-360x640.png"), full_page=True)
    assert org.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    assert not errors, errors
    for ctx in (org_ctx, tv_ctx, *phones):
        ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_tournament_pages_pass_axe(chromium, live, scheme):
    """axe-core on the tournament pages (form, organizer, TV, cards, team link, reopen)."""
    status, _h, text = request(live, "POST", "/api/tournaments", body={
        "name": "Copa", "variant": "truco-15", "teams": ["Alfa", "Beta", "Gama", "Delta", "Épsilon"],
        "confirm": True})
    assert status == 201, text
    t = json.loads(text)
    m = t["state"]["rounds"][0]["matches"][0]
    match_id, key = m["id"], m["edit_url"].rsplit("/", 1)[1]
    api_act(live, match_id, key, {"type": "adjust", "side": 0, "delta": 15}, 0)
    base = f"/t/{t['id']}/{t['organizer_key']}"
    ctx = new_context(chromium, lang="pt_BR", scheme=scheme)
    page = ctx.new_page()
    page.goto(live.url + base)
    team_link = page.locator("details.teams a").first.get_attribute("href")
    found = {}
    for name, path in (("new", "/tournaments/new"), ("organizer", base), ("tv", f"/tv/{t['id']}"),
                       ("cards", base + "/cards"), ("reopen", base + "/reopen/main:1:1"),
                       ("team", "/" + team_link.split("//", 1)[1].split("/", 1)[1])):
        page.goto(live.url + path)
        if name in ("new", "organizer"):
            for summary in page.locator("details summary").all():
                summary.click()
        violations = axe_violations(page)
        if violations:
            found[name] = violations
    ctx.close()
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def test_a_long_tournament_name_wraps_instead_of_scrolling_sideways(chromium, live):
    """A 55-character name without spaces made the organizer page 826 px wide on a 360 px
    phone and the TV page 2,187 px wide (a tester's finding): it wraps."""
    name = "CopaDaVila" + "X" * 45
    status, _headers, text = request(live, "POST", "/api/tournaments",
                                     body={"name": name, "variant": "truco-15", "teams": ["A", "B", "C", "D"]})
    assert status == 201, text
    created = json.loads(text)
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + urlsplit(created["organizer_url"]).path)
    expect(page.locator("h1")).to_contain_text("CopaDaVila")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(live.url + urlsplit(created["tv_url"]).path)
    expect(page.locator("h1")).to_contain_text("CopaDaVila")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920 + 1
    ctx.close()
