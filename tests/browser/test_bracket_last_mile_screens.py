"""The bracket's last mile (issue 32) in Chromium: an 8-team knockout played with real calls; at
1366x768 the organizer's Final column and the night summary's 8th team column are in sight, the
summary picture's legend and the score story's call marks overlap nothing and stay in their
picture, the TV's "The night in numbers" is the bracket's gold (not the browser's blue) and a
knockout lists no tiebreaks; a board whose match a reopening dropped says so within its poll
and takes it back when the reopened match keeps its winner.

Screenshots (test-results/): last-mile-<page>-<width>x<height>.png.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import AXE, LOCALES, api_act, axe_violations, new_context, request, stored
from playwright.sync_api import expect

RESULTS = Path(__file__).resolve().parents[2] / "test-results"
LAPTOP, TV = {"width": 1366, "height": 768}, {"width": 1920, "height": 1080}
ACTIONS = [json.loads(x) for x in (Path(__file__).resolve().parents[1] / "matches" / "truco-15_falta_ends_game.jsonl")
           .read_text().splitlines() if x.strip()]
TEAMS = ["Os Gaúchos", "Trio Parada Dura", "Los Pibes del Barrio", "Zap e Espadilha", "Peña La Flor",
         "Os Manilheiros", "El Ancho de Espadas", "Quatro Paus"]
#: The boxes ``[x, y, width, height, text]`` of an SVG document's elements matching a selector, in
#: the picture's own units (its viewBox), transforms included.
BOXES = """sel => { const inv = document.documentElement.getScreenCTM().inverse();
  return [...document.querySelectorAll(sel)].map(e => { const b = e.getBBox(), m = inv.multiply(e.getScreenCTM());
    const p = new DOMPoint(b.x, b.y).matrixTransform(m), q = new DOMPoint(b.x + b.width, b.y + b.height).matrixTransform(m);
    return [p.x, p.y, q.x - p.x, q.y - p.y, e.textContent]; }); }"""


def api(live, method, path, body=None, headers=None):
    status, _h, text = request(live, method, path, body=body, headers=headers)
    assert status < 300, text
    return json.loads(text) if text else None


def rounds(live, t):
    return api(live, "GET", f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]})["rounds"]


def flipped(action):
    """The same action with the sides swapped (so the other team wins)."""
    out = dict(action)
    for field in ("side", "winner"):
        if isinstance(out.get(field), int):
            out[field] = 1 - out[field]
    if isinstance(out.get("points"), list):
        out["points"] = out["points"][::-1]
    return out


def play_with_calls(live, m, flip: bool) -> None:
    """The whole-match file (Truco, Envido, Real Envido, Falta...) on ``m``'s board, sides swapped or not."""
    key = m["edit_url"].rsplit("/", 1)[1]
    for action in ACTIONS:
        now = stored(live, m["id"])
        if now["winner"] is not None:
            return
        api_act(live, m["id"], key, flipped(action) if flip else action, now["version"])


@pytest.fixture(scope="module")
def night(servers):
    """The 8-team knockout played to its champion (one per file: 7 matches of real calls)."""
    live = servers(0)
    t = api(live, "POST", "/api/tournaments", body={"name": "Copa do Boteco", "variant": "truco-15", "teams": TEAMS})
    n = 0
    for _round in range(3):
        for m in [m for r in rounds(live, t) for m in r["matches"] if m["edit_url"] and m["result"] is None]:
            play_with_calls(live, m, flip=n % 2 == 1)
            n += 1
    return live, t


def shot(page, name, size):
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / f"last-mile-{name}-{size['width']}x{size['height']}.png"))


def disjoint(boxes) -> list:
    """The pairs of boxes ``[x, y, w, h, text]`` that overlap."""
    return [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > 0.5 and min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > 0.5]


@pytest.mark.parametrize("size", [LAPTOP, TV], ids=["1366", "1920"])
def test_the_bracket_and_the_summary_are_whole_on_a_laptop_and_a_tv(chromium, night, size):
    live, t = night
    ctx = chromium.new_context(viewport=size, locale=LOCALES["pt_BR"])
    ctx.add_init_script(path=str(AXE))
    page = ctx.new_page()
    page.goto(live.url + urlsplit(t["organizer_url"]).path)
    final = page.locator("#slot-main-3-1")
    expect(final).to_be_in_viewport(ratio=1)
    assert page.locator(".bracket").evaluate("e => e.scrollWidth <= e.clientWidth")
    assert page.locator(".tmatch.decided .table-no").count() == 7  # a finished match keeps its Table N
    assert page.locator(".tiebreaks").count() == 0
    shot(page, "bracket", size)
    page.goto(f"{live.url}/tournaments/{t['id']}/summary")
    heads = page.locator("#team-stats thead th")
    expect(heads).to_have_count(9)
    assert page.locator(".night-top .table-scroll").evaluate("e => e.scrollWidth <= e.clientWidth")
    expect(heads.nth(8)).to_be_in_viewport(ratio=1)
    assert not axe_violations(page)
    shot(page, "summary", size)
    page.goto(live.url + urlsplit(t["tv_url"]).path)
    link = page.locator(".summary-link a")
    expect(link).to_have_css("color", "rgb(242, 201, 76)")  # the bracket's gold on the dark green
    assert page.locator(".tiebreaks").count() == 0
    shot(page, "tv", size)
    ctx.close()


def test_the_pictures_overlap_nothing(chromium, night):
    """The summary's legend (8 teams) and each game's call marks: no two overlap, all inside the picture."""
    live, t = night
    ctx = chromium.new_context(viewport=TV)
    page = ctx.new_page()
    page.goto(f"{live.url}/tournaments/{t['id']}/summary.svg")
    width = float(page.evaluate("document.documentElement.viewBox.baseVal.width"))
    legend = page.evaluate(BOXES, ".legends .legend text")
    assert [b[4] for b in legend] == TEAMS and not disjoint(legend)
    assert all(b[0] >= 0 and b[0] + b[2] <= width for b in legend), legend
    export = api(live, "GET", f"/api/tournaments/{t['id']}/export")
    marks = 0
    for game in (g for s in export["slots"] for g in s["games"]):
        page.goto(f"{live.url}/matches/{game['id']}/chart.svg")
        labels = page.evaluate(BOXES, ".text-overlay text.label")
        marks += len(labels)
        assert not disjoint(labels), (game["id"], labels)
        assert all(0 <= b[0] and b[0] + b[2] <= 640 and 0 <= b[1] and b[1] + b[3] <= 480 for b in labels), labels
    assert marks >= 7 * 5  # every game has its calls marked
    ctx.close()


def test_a_dropped_board_says_so_within_its_poll_and_comes_back(chromium, live):
    """On the real pages: the final's board, open on a phone, says at once that the organizer's
    reopening of a semi-final dropped it; taken back unchanged, the same board plays on."""
    t = api(live, "POST", "/api/tournaments", body={"name": "Copa", "variant": "truco-15", "teams": ["A", "B", "C", "D"]})
    semis = [m for m in rounds(live, t)[0]["matches"]]
    for m in semis:
        api_act(live, m["id"], m["edit_url"].rsplit("/", 1)[1], {"type": "adjust", "side": 0, "delta": 15}, 0)
    final = rounds(live, t)[1]["matches"][0]
    api_act(live, final["id"], final["edit_url"].rsplit("/", 1)[1], {"type": "adjust", "side": 0, "delta": 5}, 0)
    ctx = new_context(chromium, lang="en")
    page = ctx.new_page()
    page.goto(live.url + urlsplit(final["edit_url"]).path)
    expect(page.locator("#score0")).to_have_text("5")
    expect(page.locator("[data-action]").first).to_be_visible()
    organizer = {"X-Organizer-Key": t["organizer_key"]}
    api(live, "POST", f"/api/tournaments/{t['id']}/corrections", headers=organizer,
        body={"kind": "reopen", "slot": "main:1:1", "confirmed": True})
    expect(page.locator("#dropped")).to_contain_text("This match no longer counts for now", timeout=10_000)
    expect(page.locator("[data-action]")).to_have_count(0)
    expect(page.locator("#score0")).to_have_text("5")
    assert not axe_violations(page)
    shot(page, "dropped-board", {"width": 360, "height": 640})
    api(live, "POST", f"/api/tournaments/{t['id']}/corrections", headers=organizer, body={"kind": "take", "slot": "main:1:1"})
    expect(page.locator("#dropped")).to_have_count(0, timeout=10_000)
    expect(page.locator("[data-action]").first).to_be_visible()
    ctx.close()
