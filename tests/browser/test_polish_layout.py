"""What a test client cannot see, at 360x640 in Chromium on `truco serve`: the "mão"
badge and the "+1" never cover a side's name, the history's numbers stay inside the
margin past 10 entries, no closed select cuts its text off, the no-JavaScript button is
hidden and the mano choice names the sides as they are typed, and the Envido answer is
on screen after "Contar". Screenshots go to test-results/ (and the test's tmp_path).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import PHONE, api_act, create_match, new_context, watch_errors
from playwright.sync_api import expect

from scorer.core.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]

BOXES = """() => [...document.querySelectorAll('.scores .side')].map(side => {
  const box = el => { const r = el && el.getBoundingClientRect(); return r && [r.left, r.top, r.right, r.bottom]; };
  const name = side.querySelector('.name');
  const range = document.createRange(); range.selectNodeContents(name);
  const text = range.getBoundingClientRect();
  return {name: [text.left, text.top, text.right, text.bottom], badge: box(side.querySelector('.badge')),
          delta: box(side.querySelector('.delta'))};
})"""

#: Where each history number starts, against the left edge of main's content.
MARKERS = """() => {
  const main = document.querySelector('main'), ol = document.querySelector('ol.log');
  const edge = main.getBoundingClientRect().left + parseFloat(getComputedStyle(main).paddingLeft);
  const ctx = document.createElement('canvas').getContext('2d');
  return [...ol.children].map((li, i) => {
    const cs = getComputedStyle(li);
    ctx.font = cs.font;
    const width = ctx.measureText((ol.start - i) + '. ').width;
    const left = li.getBoundingClientRect().left;
    return {n: ol.start - i, start: cs.listStylePosition === 'inside' ? left : left - width, edge};
  });
}"""

#: Closed selects whose chosen text is wider than the room inside them.
CUT_SELECTS = """() => [...document.querySelectorAll('select')].filter(s => s.offsetParent).map(s => {
  const cs = getComputedStyle(s), ctx = document.createElement('canvas').getContext('2d');
  ctx.font = cs.font;
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;  // the arrow
  const widest = Math.max(...[...s.options].map(o => ctx.measureText(o.text).width));
  return {name: s.name, widest, room};
}).filter(s => s.widest > s.room)"""


def overlap(a, b) -> bool:
    return bool(a and b) and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def save(page, tmp_path: Path, name: str) -> None:
    out = tmp_path / "output"
    out.mkdir(exist_ok=True)
    page.screenshot(path=str(out / name))
    results = ROOT / "test-results"
    results.mkdir(exist_ok=True)
    shutil.copy(out / name, results / name)


@pytest.mark.parametrize(("lang", "name0"), [("pt_BR", "Ana e Bia"), ("es", "Nosotros")])
def test_names_badge_and_history_numbers_at_360(chromium, live, tmp_path, lang, name0):
    path, match_id, key = create_match(live, variant="argentino-30", name0=name0, name1="Eles", flor="True")
    version = 0
    for i in range(12):  # 12 hands: the history's numbers reach two digits
        version = api_act(live, match_id, key, {"type": "hand_winner", "side": i % 2}, version)["version"]
    ctx = new_context(chromium, lang=lang)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(live.url + path)
    expect(page.locator(".badge")).to_be_visible()
    expect(page.locator(".delta")).to_be_visible()
    for side in page.evaluate(BOXES):
        assert not overlap(side["name"], side["badge"]), side
        assert not overlap(side["name"], side["delta"]), side
    save(page, tmp_path, f"polish-board-{lang}.png")
    for marker in page.evaluate(MARKERS):
        assert marker["start"] >= marker["edge"] - 0.5, marker
    page.wait_for_function("() => document.getAnimations().every(a => a.playState === 'finished')")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("lang", ["pt_BR", "es", "en", "ca"])
def test_new_match_form_at_360(chromium, live, tmp_path, lang):
    ctx = new_context(chromium, lang=lang)
    page = ctx.new_page()
    page.goto(live.url + "/")
    for variant in ("argentino-30", "uruguaio", "paulista", "gauderio"):
        page.select_option("#variant", variant)
        expect(page.locator("#options")).to_contain_text("", timeout=5_000)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(CUT_SELECTS) == [], variant
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.select_option("#variant", "argentino-30")
    page.wait_for_load_state("networkidle")
    save(page, tmp_path, f"polish-new-{lang}.png")
    # With JavaScript the options follow the variant: the no-JavaScript button is not shown.
    expect(page.locator("button[formmethod=get]")).to_have_count(0)
    # The mano choice says the names being typed.
    page.fill("input[name=name0]", "Ana e Bia")
    page.fill("input[name=name1]", "Os primos")
    expect(page.locator("fieldset.mano label").nth(0)).to_have_text("Ana e Bia")
    expect(page.locator("fieldset.mano label").nth(1)).to_have_text("Os primos")
    page.fill("input[name=name1]", "")
    expect(page.locator("fieldset.mano label").nth(1)).not_to_have_text("Os primos")
    ctx.close()


def test_new_match_form_without_javascript_shows_the_options_button(chromium, live):
    ctx = new_context(chromium, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(live.url + "/")
    page.select_option("#variant", "argentino-30")
    page.click("button[formmethod=get]")
    # One radio per Falta convention argentino-30 offers (five since issue 20).
    falta = next(spec for spec in VARIANTS["argentino-30"].option_specs if spec.key == "falta")
    expect(page.locator("input[name=falta]")).to_have_count(len(falta.choices))
    assert len(falta.choices) == 5
    ctx.close()


def test_envido_answer_is_on_screen_after_counting(chromium, live, tmp_path):
    ctx = new_context(chromium, lang="es")
    page = ctx.new_page()
    page.goto(live.url + "/envido")
    page.click("details.picker summary")
    for card in ("7♦", "6♦", "5♠"):
        page.locator(f"label.card:has(input[value='{card}'])").click()
    page.click("#envido-form button[type=submit]")
    result = page.locator("#envido-result")
    expect(result).to_contain_text("33")
    box = result.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    save(page, tmp_path, "polish-envido-es.png")
    ctx.close()


def test_long_names_without_spaces_never_scroll_sideways(chromium, live, tmp_path):
    """Found by trying to break the app: 24 letters without a space in a side's or a player's
    name pushed the series and seats lines, and a button's points, past 360 px."""
    long = "W" * 24
    fields = {"name0": long, "name1": "M" * 24, "best_of": "3", "table_size": "4",
              "player0_0": "A" * 24, "player0_1": "B" * 24, "player1_0": "C" * 24, "player1_1": "D" * 24}
    path, match_id, key = create_match(live, variant="paulista", **fields)
    api_act(live, match_id, key, {"type": "call", "side": 0, "call": "truco"}, 0)
    ctx = new_context(chromium)
    page = ctx.new_page()
    for url in (live.url + path, f"{live.url}/w/{match_id}"):
        page.goto(url)
        expect(page.locator("#scoreboard")).to_be_visible()
        page.wait_for_function("() => document.getAnimations().every(a => a.playState === 'finished')")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], url
    save(page, tmp_path, "polish-long-names.png")
    ctx.close()
