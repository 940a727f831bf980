"""Issue #14 in Chromium on `truco serve`: a steady board on one screen, the score painted
as the finger lifts, the guard by places, the TV size, the Revanche followed, the
corrections panel and the Undo confirmation, and share links that phones can open."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest
from conftest import (PHONE, action_button, api_act, create_match, new_context, pump,
                      shown_long_ago, stored, tap_answered_on_paused_clock, watch_errors)
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ (the states)
from bench.states import VARIANTS, states  # noqa: E402

#: Every place of the pad, and the box of each: ``{slot id: [x, y, w, h]}``, plus what a
#: player must reach on the first screen: every live button of the hand, answer and trick
#: rows (and the scores, and Undo).
PLACES = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  const slots = {};
  document.querySelectorAll('#pad [data-slot]').forEach(c => slots[c.id] = box(c));
  const live = [...document.querySelectorAll('#pad button.act')].map(b => ({action: b.dataset.action, bottom: b.getBoundingClientRect().bottom}));
  const undo = document.querySelector('#undo');
  return {slots, live, scores: [0, 1].map(i => document.getElementById('score' + i).getBoundingClientRect().bottom),
          undo: undo ? undo.getBoundingClientRect().bottom : null, scrollWidth: document.documentElement.scrollWidth};
}"""


@pytest.fixture
def guarded(servers):
    """``truco serve`` with the double-tap guard as shipped (``--ghost-tap-ms 350``)."""
    return servers(350)


def set_up(live, variant, fields, actions):
    path, match_id, key = create_match(live, variant=variant, **fields)
    version = 0
    for action in actions:
        version = api_act(live, match_id, key, action, version)["version"]
    return path, match_id, key


@pytest.mark.parametrize(("variant", "fields"), VARIANTS, ids=[v for v, _f in VARIANTS])
def test_places_stay_put_and_everything_fits_one_screen(chromium, live, variant, fields):
    ctx = new_context(chromium)
    page = ctx.new_page()
    first = None
    for name, actions in states(variant).items():
        path, _id, _key = set_up(live, variant, fields, actions)
        page.goto(live.url + path)
        seen = page.evaluate(PLACES)
        # Every side's places are where they were at the start of the match.
        if first is None:
            first = seen["slots"]
        assert seen["slots"] == first, (variant, name)
        # Both scores, every live button of the pad and Undo on the first 640 px, no sideways scroll.
        assert max(seen["scores"]) <= PHONE["height"], (variant, name)
        late = [b for b in seen["live"] if b["bottom"] > PHONE["height"]]
        assert not late, (variant, name, late)
        if seen["undo"] is not None:
            assert seen["undo"] <= PHONE["height"], (variant, name)
        assert seen["scrollWidth"] <= PHONE["width"], (variant, name)
    ctx.close()


@pytest.mark.parametrize(("viewport", "variant"), [((640, 360), "argentino-30"), ((640, 360), "paulista"),
                                                   ((320, 568), "argentino-30"), ((320, 568), "paulista")])
def test_landscape_and_small_phone(chromium, live, viewport, variant):
    width, height = viewport
    ctx = chromium.new_context(viewport={"width": width, "height": height}, locale="pt-BR", has_touch=True)
    page = ctx.new_page()
    fields = dict(VARIANTS)[variant]
    for name, actions in states(variant).items():
        path, _id, _key = set_up(live, variant, fields, actions)
        page.goto(live.url + path)
        seen = page.evaluate(PLACES)
        assert seen["scrollWidth"] <= width, name
        if width > height:  # landscape: the scores beside the buttons, all on one screen
            scores = page.locator(".scores").bounding_box()
            pad = page.locator("#pad").bounding_box()
            assert scores["x"] + scores["width"] <= pad["x"], name
            assert all(b["bottom"] <= height for b in seen["live"]), (name, seen["live"])
            assert seen["undo"] is None or seen["undo"] <= height, name
    ctx.close()


#: A call, then the answer's button that a slow double tap hits twice: Paulista's Truco
#: (after "Quero!" its place is left empty) and Argentine Envido (after "Quiero" the same
#: place offers "won the Envido": the guard's case).
QUERO_CASES = [
    ("paulista", {}, {"type": "call", "side": 0, "call": "truco"}),
    ("argentino-30", {"flor": "True"}, {"type": "call", "side": 0, "call": "envido"}),
]


def quero_board(chromium, server, variant, fields, call):
    """A match waiting for Eles' answer to ``call``, open on a phone whose clock is Playwright's
    and paused (the page's time moves only as the test runs it): ``(context, page, match id,
    (x, y) of "Quero")``. The board counts as read a while ago (:func:`shown_long_ago`)."""
    path, match_id, _key = set_up(server, variant, fields, [call])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.clock.install()
    page.goto(server.url + path)
    shown_long_ago(page)
    box = action_button(page, {"side": 1, "type": "quiero"}).bounding_box()
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    return ctx, page, match_id, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def double_tap_after_quero(chromium, server, variant, fields, call, gap):
    """Tap Eles' "Quero" and again at the same point ``gap`` ms later by the page's clock, its
    answer having come in between; the stored state. The server's double-tap guard is told the
    answer's board was shown long ago: what a second tap meets is the page's own guard."""
    ctx, page, match_id, (x, y) = quero_board(chromium, server, variant, fields, call)
    tap_answered_on_paused_clock(page, lambda: page.touchscreen.tap(x, y))
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    shown_long_ago(page)  # the server's guard would take a second tap: the page's guard is what holds
    page.clock.run_for(gap - 150)  # the finger's rhythm
    page.touchscreen.tap(x, y)
    page.clock.resume()
    # A poll sent after the second tap: the page sends none while a tap of its own is waiting
    # or on its way, so by then that tap, if it was taken, has been answered.
    with page.expect_request(lambda r: "/board?" in r.url, timeout=10_000):
        pass
    ctx.close()
    return stored(server, match_id)


@pytest.mark.parametrize("gap", [400, 800])
@pytest.mark.parametrize(("variant", "fields", "call"), QUERO_CASES, ids=["paulista-truco", "argentino-envido"])
def test_slow_double_taps_after_quero_record_nothing_more(chromium, guarded, variant, fields, call, gap):
    """The measured case: a call, then "Quero" tapped again at the same point 400 and 800 ms
    later (the finger's second tap): nothing more is recorded."""
    state = double_tap_after_quero(chromium, guarded, variant, fields, call, gap)
    assert state["version"] == 2 and state["score"] == [0, 0], (gap, state["log"])


@pytest.mark.parametrize("gap", [400, 800])
@pytest.mark.parametrize(("variant", "fields", "call"), QUERO_CASES, ids=["paulista-truco", "argentino-envido"])
def test_slow_double_taps_after_quero_answered_late_record_nothing_more(chromium, guarded, variant, fields, call, gap):
    """The same double tap on a slow Wi-Fi: "Quero"'s answer comes after the second tap, which
    lands on "Quero" again and waits; once the answer has taken "Quero" away, the waiting tap
    is dropped (a second tap on the same answer), not sent."""
    ctx, page, match_id, (x, y) = quero_board(chromium, guarded, variant, fields, call)
    held = held_posts(page)
    page.touchscreen.tap(x, y)
    page.clock.run_for(100)  # the frame and the two turns before the tap is sent
    pump(page, until=lambda: held)
    page.clock.run_for(gap - 100)  # the finger's rhythm
    page.touchscreen.tap(x, y)
    assert len(held) == 1, held
    held[0].continue_()
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    page.clock.resume()
    with page.expect_request(lambda r: "/board?" in r.url, timeout=10_000):
        pass
    state = stored(guarded, match_id)
    assert len(held) == 1, held
    expect(page.locator("#not-sent")).to_be_hidden()
    ctx.close()
    assert state["version"] == 2 and state["score"] == [0, 0], (gap, state["log"])


@pytest.mark.parametrize("gap", [400, 800])
def test_a_poll_answered_after_the_tap_keeps_the_guard_on_the_new_button(chromium, guarded, gap):
    """Found by trying to break it: a poll already on its way when "Quiero" is tapped reaches
    the server after the tap, so it brings the same new board, after the tap's answer. Its
    morph must not take the guard off "won the Envido", which took Quiero's place under the
    finger less than a second ago: the slow second tap still records nothing."""
    ctx, page, match_id, (x, y) = quero_board(chromium, guarded, "argentino-30", {"flor": "True"}, QUERO_CASES[1][2])
    polls, holding = [], [True]
    page.route("**/board?*", lambda route: polls.append(route) if holding[0] else route.continue_())
    page.clock.run_for(1000)  # the board polls every second: a poll on its way (held here), then the tap
    pump(page, until=lambda: polls)
    assert polls, "no poll was sent"
    tap_answered_on_paused_clock(page, lambda: page.touchscreen.tap(x, y))
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    expect(page.locator("#slot-1-yes")).to_have_class(re.compile(r"\bfresh\b"))
    holding[0] = False
    page.evaluate("""() => { window.__pollSwapped = false;
      document.addEventListener('htmx:after:swap', (e) => {
        if (e.detail.ctx.request.method === 'GET') window.__pollSwapped = true; }); }""")
    with page.expect_response(lambda r: "/board?" in r.url and r.status == 200):
        for route in polls:
            route.continue_()
    pump(page, until=lambda: page.evaluate("() => window.__pollSwapped"))  # its morph
    assert page.evaluate("() => window.__pollSwapped")
    assert stored(guarded, match_id)["version"] == 2
    expect(page.locator("#slot-1-yes")).to_have_class(re.compile(r"\bfresh\b"))
    shown_long_ago(page)  # the server's guard would take a second tap: the page's guard is what holds
    page.clock.run_for(gap - 150)  # the finger's rhythm
    page.touchscreen.tap(x, y)
    page.clock.resume()
    with page.expect_request(lambda r: "/board?" in r.url, timeout=10_000):
        pass
    state = stored(guarded, match_id)
    ctx.close()
    assert state["version"] == 2 and state["score"] == [0, 0], (gap, state["log"])


def test_without_the_guard_the_slow_second_tap_would_count(chromium, live):
    """The control: with the guard off (--ghost-tap-ms 0) the second tap on Envido's "Quiero"
    lands on "won the Envido", which takes its place, and is recorded."""
    state = double_tap_after_quero(chromium, live, *QUERO_CASES[1], gap=400)
    assert state["version"] == 3, state["log"]


def test_two_deliberate_taps_on_the_same_trick_count_twice(chromium, guarded):
    path, match_id, _key = set_up(guarded, "paulista", {}, [])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(guarded.url + path)
    shown_long_ago(page)
    box = action_button(page, {"type": "trick", "winner": 0}).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(500)  # the finger's rhythm
    page.touchscreen.tap(x, y)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    state = stored(guarded, match_id)
    assert state["score"] == [1, 0]  # two tricks: the hand
    ctx.close()


def test_a_touch_is_taken_as_the_finger_lifts_with_no_emulated_click(chromium, guarded):
    """A touch on a pad button is taken at pointerup and its touchend cancelled: the browser
    sends no emulated mouse events or click after it (their hit tests and hover work would
    come before the frame that shows the score), and it counts once. A screen reader's
    activation (a click with no touch before it) is still taken."""
    path, match_id, _key = set_up(guarded, "paulista", {}, [])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(guarded.url + path)
    shown_long_ago(page)
    page.evaluate("""() => { window.__seen = [];
      for (const type of ['mousedown', 'mouseup', 'click'])
        document.addEventListener(type, () => window.__seen.push(type), true); }""")
    box = action_button(page, {"type": "trick", "winner": 0}).bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    assert page.evaluate("() => window.__seen") == []
    # Assistive technology: a bare click on the other side's trick.
    action_button(page, {"type": "trick", "winner": 1}).evaluate("b => b.click()")
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    log = stored(guarded, match_id)["log"]
    assert len(log) == 2, log
    ctx.close()


def test_what_changed_is_marked_then_settles_with_no_animation_running(chromium, live):
    """The scoring card's mark, its "+1" and the newest log line are classes, not animations
    (a running animation made a slow phone's next tap wait); the card's mark is switched off
    after a second ("settled"), the "+1" and the log line stay until the next change."""
    path, _match_id, _key = set_up(live, "paulista", {}, [])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    action_button(page, {"side": 0, "type": "hand_winner"}).click()
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    running = "() => document.getAnimations().filter(a => a.playState === 'running').length"
    assert page.evaluate(running) == 0
    card = page.locator(".scores .side0")
    expect(card).to_have_class(re.compile(r"\bchanged\b.*\bsettled\b|\bsettled\b.*\bchanged\b"))
    assert page.evaluate("() => getComputedStyle(document.querySelector('.side0 .score'), '::before').content") == "none"
    expect(page.locator(".side0.changed .delta")).to_have_text("+1")
    expect(page.locator(".log li.fresh")).to_have_count(1)
    ctx.close()


def held_posts(page):
    """Hold every action POST (the list of held routes) until :func:`release`."""
    held = []
    page.route("**/actions", lambda route: held.append(route))
    return held


def release(page, held, n: int = 1, *, paused: bool = False) -> None:
    """Let held POST number ``n`` go on. Playwright runs the route handler while the test
    talks to the page, so this gives it a bounded number of turns to arrive (the page posts
    one frame after the tap; ``paused``: the page's clock is paused and the tap already sent,
    so the turns are plain round trips, :func:`pump`)."""
    if paused:
        pump(page, until=lambda: len(held) >= n)
    else:
        for _ in range(250):
            if len(held) >= n:
                break
            # A frame, or a short turn where none comes (a page that does not draw: its evaluate
            # once waited forever for a frame, and the suite with it).
            page.evaluate("() => new Promise(r => { requestAnimationFrame(() => setTimeout(r, 0)); setTimeout(r, 100); })")
    assert len(held) == n, held
    held[n - 1].continue_()


def paused_board(chromium, server, path):
    """The board at ``path`` on a new phone whose clock is Playwright's, paused (the page's time
    moves only as the test runs it): a tap held on its way (:func:`held_posts`) is answered when
    the test says, never after the page gave up on it (its 8 s wait, which a loaded machine once
    reached between the tap and the test's check). ``(context, page)``."""
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.clock.install()
    page.goto(server.url + path)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    return ctx, page


def tap_paused(page, action: dict) -> None:
    """Tap ``action``'s button on a :func:`paused_board` and run the page's clock through the
    frame and the two turns before the tap is sent."""
    box = action_button(page, action).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.clock.run_for(100)


def test_tap_paints_at_once_then_the_answer_confirms(chromium, live):
    path, match_id, _key = set_up(live, "paulista", {}, [])
    ctx, page = paused_board(chromium, live, path)
    errors: list[str] = []
    watch_errors(page, errors)
    held = held_posts(page)
    tap_paused(page, {"side": 0, "type": "hand_winner"})
    # Painted before any answer, and marked as pending.
    expect(page.locator("#score0")).to_have_text("1")
    expect(page.locator("#score0")).to_have_class(re.compile(r"\btentative\b"))
    assert stored(live, match_id)["version"] == 0
    release(page, held, paused=True)
    page.clock.resume()
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    expect(page.locator("#score0")).not_to_have_class(re.compile(r"\btentative\b"))
    expect(page.locator("#score0")).to_have_text("1")
    assert not errors, errors
    ctx.close()


def test_a_tap_made_while_the_first_is_on_its_way_is_sent_after_it(chromium, live):
    """Two tricks tapped while the first is still unanswered (a slow Wi-Fi; 0.3 s apart, as a
    finger can: closer is a bounce, issue 19): the second waits, is painted, and goes out on the
    answer's board with its version; both count."""
    path, match_id, _key = set_up(live, "paulista", {}, [{"type": "call", "side": 0, "call": "truco"},
                                                          {"type": "quiero", "side": 1}])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    held = held_posts(page)
    trick = action_button(page, {"type": "trick", "winner": 0})
    trick.click()
    tapped = time.monotonic()
    page.wait_for_timeout(max(0.0, 300 - (time.monotonic() - tapped) * 1000))  # the finger's rhythm
    trick.click()
    release(page, held, 1)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "3")
    expect(page.locator("#score0")).to_have_text("3")  # the second trick, painted: the hand (+3)
    expect(page.locator("#score0")).to_have_class(re.compile(r"\btentative\b"))
    release(page, held, 2)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "4")
    expect(page.locator("#score0")).not_to_have_class(re.compile(r"\btentative\b"))
    assert stored(live, match_id)["score"] == [3, 0]
    ctx.close()


def test_tap_refused_because_another_phone_acted_first_shows_the_server_state(chromium, live):
    path, match_id, key = set_up(live, "paulista", {}, [])
    ctx, page = paused_board(chromium, live, path)
    held = held_posts(page)
    page.route("**/board?*", lambda route: route.abort())  # this phone hears nothing meanwhile
    tap_paused(page, {"side": 0, "type": "hand_winner"})
    expect(page.locator("#score0")).to_have_text("1")
    api_act(live, match_id, key, {"type": "hand_winner", "side": 1}, 0)  # the other phone, first
    release(page, held, paused=True)
    page.clock.resume()
    expect(page.locator("#scoreboard .msg")).to_be_visible()
    expect(page.locator("#score0")).to_have_text("0")
    expect(page.locator("#score1")).to_have_text("1")
    assert stored(live, match_id)["score"] == [0, 1]
    ctx.close()


def test_a_tap_the_scorekeeper_never_answered_is_shown_as_waiting_not_as_counted(chromium, live):
    """Issue 24 replaced "not recorded, not queued" by "kept on the phone, sent again once":
    the score goes back to the server's last one and the tap waits in its strip."""
    path, match_id, _key = set_up(live, "paulista", {}, [])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    page.route("**/actions", lambda route: route.abort("connectionrefused"))
    page.route("**/taps", lambda route: route.abort("connectionrefused"))
    action_button(page, {"side": 0, "type": "hand_winner"}).click()
    expect(page.locator("#pending")).to_be_visible()
    expect(page.locator("#score0")).to_have_text("0")  # the server's last score, not the tapped one
    expect(page.locator("#score0")).not_to_have_class(re.compile(r"\btentative\b"))
    assert stored(live, match_id)["version"] == 0
    ctx.close()


def test_the_offline_and_database_banners_never_move_the_pad(chromium, live):
    """A lost connection (polls refused) or an unreachable database (503) shows its banner over
    the page: every place of the pad stays where it was (found by a tester: the banner pushed
    "won the hand" from y=227 to y=474)."""
    path, _match_id, _key = set_up(live, "truco-15", {}, [])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    slots = ("#slot-0-hand", "#slot-1-hand", "#slot-0-trick", "#slot-1-trick")
    before = {s: page.locator(s).bounding_box() for s in slots}
    page.route("**/board*", lambda route: route.abort("connectionrefused"))
    expect(page.locator("#offline")).to_be_visible(timeout=10_000)
    assert {s: page.locator(s).bounding_box() for s in slots} == before
    assert_scores_in_sight(page, "#offline")
    page.unroute("**/board*")
    page.route("**/board*", lambda route: route.fulfill(status=503, body="down"))
    expect(page.locator("#nodb")).to_be_visible(timeout=10_000)
    assert {s: page.locator(s).bounding_box() for s in slots} == before
    assert_scores_in_sight(page, "#nodb")
    ctx.close()


def assert_scores_in_sight(page, banner: str) -> None:
    """The banner says the score on screen is the last one received: it must not cover it (a
    tester found the offline banner hiding both score cards at 360x640)."""
    top = page.locator(banner).bounding_box()["y"]
    for score in ("#score0", "#score1"):
        box = page.locator(score).bounding_box()
        assert box["y"] + box["height"] <= top, (banner, score, box, top)


SETTLED = re.compile(r"\bsettled\b")


def clocked_board(chromium, live):
    """A new paulista match on a phone whose clock is Playwright's, paused (the page's time
    moves only as the test runs it, however long the machine takes between two steps):
    ``(context, page, the card of Nós's score)``."""
    path, _match_id, _key = set_up(live, "paulista", {}, [])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.clock.install()
    page.goto(live.url + path)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    return ctx, page, page.locator(".scores .side0")


def test_a_second_change_keeps_its_mark_a_whole_second(chromium, live):
    """Two changes 0.7 s apart: the second one's mark gets its whole second (a tester saw the
    first change's timer switch it off after 0.3 s). The page's clock is Playwright's."""
    ctx, page, card = clocked_board(chromium, live)
    for version in ("1", "2"):
        action_button(page, {"side": 0, "type": "hand_winner"}).click()
        page.clock.run_for(100)  # the frame and the two turns before the tap is sent
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", version)
        expect(card).not_to_have_class(SETTLED)
        page.clock.run_for(700)
    page.clock.run_for(200)  # 1.0 s after the first answer, 0.9 s after the second
    expect(card).not_to_have_class(SETTLED)
    page.clock.run_for(300)
    expect(card).to_have_class(SETTLED)
    ctx.close()


def test_an_unchanged_poll_does_not_hold_the_mark_longer(chromium, live):
    """htmx 4 fires its swap events for an unchanged poll too (204: nothing swapped); such a
    poll, answered within the second after a change, must not restart that second (a tester
    read that it did, and that only the timing of the polls kept the mark from staying)."""
    ctx, page, card = clocked_board(chromium, live)
    action_button(page, {"side": 0, "type": "hand_winner"}).click()
    page.clock.run_for(100)  # the frame and the two turns before the tap is sent
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    page.clock.run_for(500)
    page.evaluate("""() => { window.__polled = null;
      document.addEventListener('htmx:finally:request', (e) => { window.__polled = e.detail.ctx.response.status; }, {once: true});
      htmx.ajax('GET', document.getElementById('scoreboard').getAttribute('hx-get'), {source: '#scoreboard'}); }""")
    pump(page, until=lambda: page.evaluate("() => window.__polled") is not None)  # the poll's answer and its events
    assert page.evaluate("() => window.__polled") == 204
    assert not SETTLED.search(card.get_attribute("class"))
    page.clock.run_for(500)  # 1.0 s after the change
    assert SETTLED.search(card.get_attribute("class")), card.get_attribute("class")
    ctx.close()


def test_tv_watch_page_shows_a_big_score(chromium, live):
    path, match_id, _key = set_up(live, "truco-15", {}, [{"type": "hand_winner", "side": 0}])
    ctx = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="pt-BR")
    page = ctx.new_page()
    page.goto(f"{live.url}/w/{match_id}")
    for side in (0, 1):
        assert page.locator(f"#score{side}").bounding_box()["height"] >= 180
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    ctx.close()


@pytest.mark.parametrize(("variant", "fields"), VARIANTS, ids=[v for v, _f in VARIANTS])
def test_on_a_laptop_the_scorekeepers_board_is_scaled_up_and_still_fits(chromium, live, variant, fields):
    """The scorekeeper's own page on a 1920x1080 screen at the table: the board is the phone's,
    scaled up (the score at least 1.5x the phone's 51 px), and in every state every live
    button of the pad is still on the screen (a tester found the score too small to read
    across the table)."""
    ctx = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="pt-BR")
    page = ctx.new_page()
    for name, actions in states(variant).items():
        path, _id, _key = set_up(live, variant, fields, actions)
        page.goto(live.url + path)
        seen = page.evaluate(PLACES)
        assert page.locator("#score0").bounding_box()["height"] >= 1.5 * 51, (variant, name)
        late = [b for b in seen["live"] if b["bottom"] > 1080]
        assert not late, (variant, name, late)
        assert seen["scrollWidth"] <= 1920
    ctx.close()


def test_revanche_takes_the_watch_page_and_the_other_phone_along(chromium, live):
    path, match_id, key = set_up(live, "paulista", {}, [{"type": "adjust", "side": 0, "delta": 12}])
    ctx = new_context(chromium)
    phone_a, phone_b, tv = ctx.new_page(), ctx.new_page(), ctx.new_page()
    for p, url in ((phone_a, path), (phone_b, path), (tv, f"/w/{match_id}")):
        p.goto(live.url + url)
    phone_a.click("#revanche")
    expect(phone_a.locator("#scoreboard")).to_have_attribute("data-version", "0")
    new_path = phone_a.url.replace(live.url, "")
    new_id = new_path.split("/")[2]
    assert new_id != match_id
    phone_b.wait_for_url(f"**{new_path}?revanche=1")
    tv.wait_for_url(f"**/w/{new_id}?revanche=1")
    for p in (phone_b, tv):
        expect(p.locator("#scoreboard .msg")).to_contain_text("Revanche")
    ctx.close()


def test_corrections_panel_stays_open_and_undo_names_the_action(chromium, live):
    path, match_id, _key = set_up(live, "paulista", {}, [{"type": "call", "side": 0, "call": "truco"}])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    page.click("#adjust summary")
    for n in (1, 2, 3):
        page.locator("#adjust button[data-action='{\"delta\":1,\"side\":0,\"type\":\"adjust\"}']").click()
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(1 + n))
        expect(page.locator("#adjust")).to_have_attribute("open", "")
    expect(page.locator("#score0")).to_have_text("3")
    api_act(live, match_id, _key, {"type": "quiero", "side": 1}, 4)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "5")
    newest = page.locator(".log li .text").first.inner_text()
    messages = []

    def answer(dialog):
        messages.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", answer)
    page.click("#undo")
    assert messages == [f"Desfazer «{newest}»?"], (messages, newest)
    assert "quero" in newest.lower() or "Eles" in newest
    ctx.close()


def test_share_links_from_a_loopback_host_on_a_loopback_only_server(chromium, live):
    """The test server listens on 127.0.0.1 only (--host 127.0.0.1): a LAN address would not
    reach it, so the links keep the address the page was opened with, and the share page
    says so. (A server on every interface names its LAN address: tests/web/test_pages.py.)"""
    path, _id, _key = set_up(live, "paulista", {}, [])
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(f"{live.url}{path}/share")
    link = page.locator("#edit-url").get_attribute("href")
    assert link.startswith(f"{live.url}/m/"), link
    expect(page.locator("#address-choice")).to_contain_text(live.url)
    ctx.close()
