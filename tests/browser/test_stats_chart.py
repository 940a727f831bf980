"""The evening's pictures in Chromium (issue 22): the score's story on the finished board and
the watch page at 360x640, the numbers page at 1920x1080; the picture loads, fits the screen
without sideways scrolling, and the screenshots (test-results/stats-*.png) are kept to look at."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import AXE, LOCALES, PHONE, api_act, axe_violations, create_match, new_context, request, watch_errors

MATCHES = Path(__file__).resolve().parents[1] / "matches"
RESULTS = Path(__file__).resolve().parents[2] / "test-results"
TV = {"width": 1920, "height": 1080}


def played(live, upto=None):
    _path, match_id, key = create_match(live, variant="argentino-30", flor="True")
    actions = [json.loads(x) for x in (MATCHES / "argentino-30_flor_malas_buenas.jsonl").read_text().splitlines() if x.strip()]
    for version, action in enumerate(actions[:upto]):
        api_act(live, match_id, key, action, version)
    return match_id, key


def loaded(page, selector):
    img = page.locator(selector)
    img.scroll_into_view_if_needed()
    page.wait_for_function("(el) => el.complete && el.naturalWidth > 0", arg=img.element_handle())
    return img


@pytest.mark.parametrize("where, size", [("board", PHONE), ("board", TV), ("watch", PHONE), ("numbers", PHONE),
                                         ("numbers", TV)])
def test_the_story_chart_on_the_phone_and_the_tv(live, chromium, where, size):
    RESULTS.mkdir(exist_ok=True)
    match_id, key = played(live, upto=30 if where == "watch" else None)
    if size == PHONE:
        ctx = new_context(chromium)
    else:  # the TV: a big screen, no touch
        ctx = chromium.new_context(viewport=size, locale=LOCALES["pt_BR"])
        ctx.add_init_script(path=str(AXE))
    page, errors = ctx.new_page(), []
    watch_errors(page, errors)
    url = {"board": f"/m/{match_id}/{key}", "watch": f"/w/{match_id}", "numbers": f"/matches/{match_id}/stats"}[where]
    page.goto(live.url + url)
    img = loaded(page, "#story img" if where != "numbers" else "img.story-chart")
    box = img.bounding_box()
    assert box["width"] >= min(size["width"] - 48, 600) and box["x"] >= 0
    assert box["x"] + box["width"] <= size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    img.screenshot(path=str(RESULTS / f"stats-{where}-{size['width']}x{size['height']}.png"))
    page.screenshot(path=str(RESULTS / f"stats-{where}-page-{size['width']}x{size['height']}.png"), full_page=True)
    assert not axe_violations(page)
    assert not errors
    ctx.close()


def test_the_night_summary_of_a_tournament(live, chromium):
    """A 4-team knockout played to its champion: the summary page with its picture, in
    Spanish, at 1920x1080 and 360x640."""

    RESULTS.mkdir(exist_ok=True)
    _s, _h, text = request(live, "POST", "/api/tournaments", body={"name": "Copa del Bar", "variant": "truco-15",
                                                                  "teams": ["Los Pibes", "Las Chicas", "Abuelos", "Vecinos"],
                                                                  "format": "knockout"})
    t = json.loads(text)
    actions = [json.loads(x) for x in (MATCHES / "truco-15_falta_ends_game.jsonl").read_text().splitlines() if x.strip()]
    for _ in range(3):
        _s, _h, text = request(live, "GET", f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]})
        todo = [m for r in json.loads(text)["rounds"] for m in r["matches"]
                if m.get("edit_url") and m.get("result") is None and None not in m["teams"]]
        for m in todo[:1]:
            match_id, key = m["edit_url"].split("/")[-2:]
            for version, action in enumerate(actions):
                if api_act(live, match_id, key, action, version)["winner"] is not None:
                    break
    for size in (TV, PHONE):
        ctx = chromium.new_context(viewport=size, locale="es-AR")
        ctx.add_init_script(path=str(AXE))
        page, errors = ctx.new_page(), []
        watch_errors(page, errors)
        page.goto(f"{live.url}/tournaments/{t['id']}/summary")
        assert "la noche en números" in page.title()
        assert page.locator("#champion").is_visible()
        loaded(page, "#summary-picture")
        loaded(page, "img.story-chart >> nth=0")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.screenshot(path=str(RESULTS / f"stats-tournament-summary-{size['width']}x{size['height']}.png"), full_page=True)
        assert not axe_violations(page)
        assert not errors
        ctx.close()
