"""Issue 19 item 8: no button ever loses its words or its points. In Chromium on `truco serve`,
for every variant of the registry (Flor on and off where it is an option), a few states that
together put every button the pad can show on screen (bench/states.py, label_states), in
pt, es and en, at 320x568, 360x640 and 640x360: each button's label and its "vale N" / "+N"
line fit inside it (nothing scrolls or is cut), no word is broken across two lines, and the
points line is on screen inside its button. Screenshots of each language's board with the
most words on its buttons go to test-results/ (labels-<lang>-<size>.png).

The checks live here; each language is its own test file (test_button_labels.py for pt,
test_button_labels_es.py, test_button_labels_en.py), so that parallel workers share the
languages instead of one worker reading all three alone at the end of the suite.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import api_act, create_match, new_context
from live_server import Server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # bench/ (the states)
from bench.states import label_states  # noqa: E402

from scorer.core.variants import VARIANTS  # noqa: E402

SIZES = ((320, 568), (360, 640), (640, 360))
#: The sides' names on every board: the longest of the three languages' defaults (the words
#: on a "+3 Nosotros" line), so each board is made once and read in every language.
NAMES = ("Nosotros", "Ellos")


def configurations() -> list[tuple[str, dict[str, bool]]]:
    """Every variant of the registry, with Flor on and off where it is an option."""
    out = []
    for variant in VARIANTS.values():
        flor = [spec for spec in variant.option_specs if spec.key == "flor"]
        out += [(variant.id, {"flor": on}) for on in flor[0].choices] if flor else [(variant.id, {})]
    return out


#: What is wrong with each button of the pad (and the extra row): a label or points line
#: that scrolls or is cut, a word on two lines, a points line not inside its button.
MEASURE = """() => {
  const inside = (r, box) => r.width > 0 && r.height > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5
                             && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  // (1 px for rounding: clientHeight rounds a box of two 12.67 px lines down, scrollHeight up)
  const cut = el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  const broken = el => {
    const words = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node; (node = walk.nextNode());) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
        if (lines.size > 1) words.push(m[0]);
      }
    }
    return words;
  };
  const out = [];
  document.querySelectorAll('#pad .act, .extra .act').forEach(b => {
    if (!b.getClientRects().length) return;
    const box = b.getBoundingClientRect(), label = b.querySelector('.label'), pts = b.querySelector('.pts');
    const text = (label ? label.textContent : '') + (pts ? ' | ' + pts.textContent : '');
    const faults = [];
    if (cut(b)) faults.push('button cut');
    if (label && cut(label)) faults.push('label cut');
    if (label && !inside(label.getBoundingClientRect(), box)) faults.push('label outside');
    if (pts && cut(pts)) faults.push('points cut');
    if (pts && !inside(pts.getBoundingClientRect(), box)) faults.push('points not shown');
    const words = [label, pts].filter(Boolean).flatMap(broken);
    if (words.length) faults.push('broken: ' + words.join(' '));
    if (faults.length) out.push(`${b.closest('[data-slot]') ? b.closest('[data-slot]').id : 'extra'} «${text}»: ${faults.join(', ')}`);
  });
  return out;
}"""


@pytest.fixture(scope="module")
def boards(tmp_path_factory):
    """A server with every state of every configuration:
    ``(server, [(configuration, actions, board path)])``."""
    server = Server(tmp_path_factory.mktemp("labels") / "labels.sqlite3", threads=8, ghost_tap_ms=0)
    jobs = [(variant, options, actions) for variant, options in configurations()
            for actions in label_states(variant, options)]

    def make(job):
        variant, options, actions = job
        fields = {"flor": "True"} if options.get("flor") else {}
        path, match_id, key = create_match(server, variant=variant, name0=NAMES[0], name1=NAMES[1], **fields)
        for version, action in enumerate(actions):
            api_act(server, match_id, key, action, version)
        return f"{variant} {options or ''}", actions, path

    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(make, jobs))
    yield server, made
    server.stop()


#: How many letters the pad's labels have in all (to pick the board with the longest words).
LETTERS = "() => [...document.querySelectorAll('#pad button.act .label')].reduce((n, l) => n + l.textContent.length, 0)"


def screenshots(page, url: str, lang: str) -> None:
    """The board at ``url`` at each size, in test-results/ (labels-<lang>-<size>.png)."""
    results = ROOT / "test-results"
    results.mkdir(exist_ok=True)
    page.goto(url)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(results / f"labels-{lang}-{width}x{height}.png"))


#: Another match's board drawn in place of the page's, as htmx draws a changed board (a poll
#: or a tap's answer: the same fragment, the same page around it): one open page reads every
#: board (a page load per board was most of this test's time). True once the board shown is
#: that match's.
SHOW_BOARD = """async ([url, matchId]) => {
  await htmx.ajax('GET', url, {target: '#scoreboard', swap: 'outerHTML'});
  return document.getElementById('scoreboard').getAttribute('hx-get').includes(matchId);
}"""


def check_every_button(chromium, boards, lang: str) -> None:
    """Read every board of ``boards`` in ``lang`` at each size; fail with the faults found."""
    server, made = boards
    ctx = new_context(chromium, lang=lang)
    page = ctx.new_page()
    page.goto(server.url + made[0][2])
    faults, longest = [], (0, "")
    for configuration, actions, path in made:
        match_id = path.split("/")[2]
        assert page.evaluate(SHOW_BOARD, [f"{path}/board?version=-1", match_id]), configuration
        longest = max(longest, (page.evaluate(LETTERS), server.url + path))
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            for fault in page.evaluate(MEASURE):
                faults.append(f"{width}x{height} {configuration} after {[a.get('call') or a['type'] for a in actions]}: {fault}")
    screenshots(page, longest[1], lang)
    ctx.close()
    assert not faults, f"{len(faults)} faults:\n" + "\n".join(faults[:60])
