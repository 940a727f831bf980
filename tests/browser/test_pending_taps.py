"""Issue 24 in Chromium on `truco serve`: a tap made without an answer stays on the phone,
shown as waiting (never in the score), survives a reload, and is sent again with its own key
when the scorekeeper answers; the scorekeeper records it once. If another phone acted
meanwhile, the phone shows the match as it is and asks to apply or discard; nothing is merged
until the player chooses. JavaScript off works as before.

No sleeps: every wait is on the page (a DOM state) or on a request the page makes."""

from __future__ import annotations

import json
import re

import pytest
from conftest import action_button, api_act, create_match, new_context, stored, watch_errors
from playwright.sync_api import expect

WON0 = {"side": 0, "type": "hand_winner"}
WON1 = {"side": 1, "type": "hand_winner"}
#: Long enough for the page's retry timer (2 s, then 4 s) after the scorekeeper comes back.
BACK = 20_000


def open_board(chromium, live, path, version: int = 0, **kw):
    ctx = new_context(chromium, **kw)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(live.url + path)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(version))
    return ctx, page, errors


def scorekeeper_unreachable(page) -> None:
    """From now on, the page's taps and uploads get no answer (the connection refused)."""
    page.route("**/actions", lambda route: route.abort("connectionrefused"))
    page.route("**/taps", lambda route: route.abort("connectionrefused"))


def kept(page, match_id) -> list[dict]:
    return json.loads(page.evaluate(f"() => localStorage.getItem('truco:pending:{match_id}') || '[]'"))



def test_an_offline_tap_waits_on_the_phone_then_is_recorded_once(chromium, live):
    path, match_id, _key = create_match(live)
    ctx, page, errors = open_board(chromium, live, path)

    def drop(route):  # the Wi-Fi goes as the tap leaves
        ctx.set_offline(True)
        route.abort("internetdisconnected")

    page.route("**/actions", drop)
    action_button(page, WON0).click()
    strip = page.locator("#pending")
    expect(strip).to_be_visible()
    expect(page.locator("#pending-what")).to_have_text("1 toque esperando envio:")
    expect(page.locator("#pending-list li")).to_have_count(1)
    expect(page.locator("#pending-list li")).to_contain_text("(Nós)")
    expect(page.locator("#pending-list li .hand-of")).to_have_text("Mão 1")  # the hand it was made in
    expect(page.locator("#score0")).to_have_text("0")  # waiting, never drawn as counted
    expect(page.locator("#score0")).not_to_have_class(re.compile(r"\btentative\b"))
    expect(page.locator("#offline")).to_be_visible()
    assert len(kept(page, match_id)) == 1 and stored(live, match_id)["version"] == 0
    page.unroute("**/actions")
    with page.expect_response("**/taps") as sent:
        ctx.set_offline(False)
    assert sent.value.json() == {"applied": 1, "repeated": 0, "refused": [], "version": 1}
    expect(strip).to_be_hidden()
    expect(page.locator("#score0")).to_have_text("1")
    expect(page.locator("#offline")).to_be_hidden()
    assert stored(live, match_id)["version"] == 1 and kept(page, match_id) == []
    assert errors == []
    ctx.close()


def test_the_write_done_but_the_answer_lost_is_recorded_once(chromium, live):
    """The scorekeeper stored the tap, its answer never reached the phone (Playwright fetches
    the answer, then fails the request): the phone sends the same key again, the scorekeeper
    answers it as known, and the match holds the tap once."""
    path, match_id, _key = create_match(live)
    ctx, page, errors = open_board(chromium, live, path)
    posted = []

    def lose_the_answer(route):
        posted.append(route.request.post_data)
        route.fetch()  # the write is done on the scorekeeper
        route.abort("connectionreset")

    page.route("**/actions", lose_the_answer)
    with page.expect_request("**/taps") as repeat:
        action_button(page, WON0).click()
    first_key = re.search(r"tap_key=([\w-]+)", posted[0]).group(1)
    assert [t["tap_key"] for t in repeat.value.post_data_json["taps"]] == [first_key]
    assert repeat.value.response().json() == {"applied": 0, "repeated": 1, "refused": [], "version": 1}
    expect(page.locator("#pending")).to_be_hidden()
    expect(page.locator("#score0")).to_have_text("1")
    state = stored(live, match_id)
    assert state["version"] == 1 and state["score"] == [1, 0]
    assert errors == []
    ctx.close()


def test_a_pending_tap_survives_a_reload(chromium, live):
    path, match_id, _key = create_match(live)
    ctx, page, errors = open_board(chromium, live, path)
    scorekeeper_unreachable(page)
    action_button(page, WON0).click()
    expect(page.locator("#pending")).to_be_visible()
    page.reload()
    expect(page.locator("#pending")).to_be_visible()
    expect(page.locator("#pending-what")).to_have_text("1 toque esperando envio:")
    expect(page.locator("#score0")).to_have_text("0")
    assert stored(live, match_id)["version"] == 0
    page.unroute("**/taps")  # the scorekeeper takes them again: the page's retry sends it
    expect(page.locator("#pending")).to_be_hidden(timeout=BACK)
    expect(page.locator("#score0")).to_have_text("1")
    assert stored(live, match_id)["version"] == 1 and kept(page, match_id) == []
    assert errors == []
    ctx.close()


TRICK1 = {"type": "trick", "winner": 1}


@pytest.mark.parametrize("choice", ["apply", "discard"])
def test_a_conflict_with_a_second_phone_asks_and_merges_nothing_until_told(chromium, live, choice):
    path, match_id, key = create_match(live)
    ctx, page, errors = open_board(chromium, live, path)
    scorekeeper_unreachable(page)
    action_button(page, WON0).click()
    expect(page.locator("#pending")).to_be_visible()
    api_act(live, match_id, key, TRICK1, 0)  # the second phone records first (a trick: the hand goes on)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")  # this phone's poll shows it
    page.unroute("**/taps")
    with page.expect_response("**/taps", timeout=BACK) as asked:
        pass
    assert asked.value.status == 409
    expect(page.locator("#pending-what")).to_have_text(
        "1 toque não registrado: outro celular marcou antes.")
    expect(page.locator("#pending-apply")).to_be_visible()
    expect(page.locator("#score0")).to_have_text("0")
    # The page goes on polling and asking nothing more: still nothing merged.
    with page.expect_response(lambda r: "/board?" in r.url):
        pass
    assert stored(live, match_id)["version"] == 1 and len(kept(page, match_id)) == 1
    page.click(f"#pending-{choice}")
    expect(page.locator("#pending")).to_be_hidden()
    if choice == "apply":
        expect(page.locator("#score0")).to_have_text("1")
        assert stored(live, match_id)["score"] == [1, 0] and stored(live, match_id)["version"] == 2
    else:
        assert stored(live, match_id)["version"] == 1
        page.reload()
        expect(page.locator("#pending")).to_be_hidden()
    assert kept(page, match_id) == [] and errors == []
    ctx.close()


def test_applying_reports_the_taps_the_rules_now_refuse(chromium, live):
    """A "Quero" kept while the other phone ended the hand: applied, the rules refuse it,
    and the phone says so; nothing recorded for it."""
    path, match_id, key = create_match(live)
    api_act(live, match_id, key, {"type": "call", "side": 0, "call": "truco"}, 0)
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    scorekeeper_unreachable(page)
    action_button(page, {"side": 1, "type": "quiero"}).click()
    expect(page.locator("#pending")).to_be_visible()
    api_act(live, match_id, key, {"type": "no_quiero", "side": 1}, 1)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    page.unroute("**/taps")
    expect(page.locator("#pending-apply")).to_be_visible(timeout=BACK)
    page.click("#pending-apply")
    expect(page.locator("#pending-refused")).to_be_visible()
    expect(page.locator("#pending")).to_be_hidden()
    assert stored(live, match_id)["version"] == 2
    ctx.close()


def test_javascript_off_is_unchanged(chromium, live):
    """No key, no strip: the form posts and the redirect shows the new score, as before."""
    path, match_id, _key = create_match(live)
    ctx = new_context(chromium, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(live.url + path)
    assert page.locator("input[name=tap_key]").count() == 0
    expect(page.locator("#pending")).to_be_hidden()
    with page.expect_request(lambda r: r.method == "POST") as posted:
        action_button(page, WON0).click()
    assert "tap_key" not in posted.value.post_data
    expect(page.locator("#score0")).to_have_text("1")
    expect(page.locator("#pending")).to_be_hidden()
    assert stored(live, match_id)["version"] == 1
    ctx.close()


def test_many_kept_taps_go_up_in_several_uploads_each_recorded_once(chromium, live):
    """250 taps kept on one board (more than one upload holds): sent in two uploads, the second
    starting with the last tap the first recorded, so the taps made on one board raise no conflict;
    every tap recorded once."""
    path, match_id, _key = create_match(live)
    ctx, page, errors = open_board(chromium, live, path)
    taps = [{"tap_key": f"kept-tap-{n:04d}", "version": 0, "made_at": 0, "offline": False,
             "action": {"type": "adjust", "side": 0, "delta": 1 if n % 2 == 0 else -1}} for n in range(250)]
    page.route("**/taps", lambda route: route.abort("connectionrefused"))  # held until the page is ready
    page.evaluate("taps => localStorage.setItem('truco:pending:' + taps.id, JSON.stringify(taps.list))",
                  {"id": match_id, "list": taps})
    page.reload()
    expect(page.locator("#pending-what")).to_have_text("250 toques esperando envio:")
    uploads = []
    page.on("requestfinished", lambda r: uploads.append(r.post_data_json["taps"]) if r.url.endswith("/taps") else None)
    page.unroute("**/taps")
    expect(page.locator("#pending")).to_be_hidden(timeout=BACK)
    assert [len(u) for u in uploads] == [200, 51] and uploads[1][0]["tap_key"] == "kept-tap-0199"
    state = stored(live, match_id)
    assert state["version"] == 250 and state["score"] == [0, 0]
    assert kept(page, match_id) == [] and errors == []
    ctx.close()


def test_apply_leaves_out_the_taps_of_a_hand_that_ended_and_each_tap_has_its_own_buttons(chromium, live):
    """Issue 30's measurement: phone A, with no answer, records "Truco!" (Eles) and "Não quero"
    (Nós) in hand 3 while phone B records "won the hand (Nós)" for hand 3. The strip lists both
    taps in full with their hand ("Mão 3"), each with its own Apply and Discard; Apply records
    neither in hand 4 (which nobody played) and says why; the scorekeeper keeps hand 3 once."""
    path, match_id, key = create_match(live)
    for version, side in enumerate((0, 1)):  # hands 1 and 2
        api_act(live, match_id, key, {"type": "hand_winner", "side": side}, version)
    ctx, page, errors = open_board(chromium, live, path, version=2)
    expect(page.locator("#scoreboard")).to_have_attribute("data-hand", "3")
    scorekeeper_unreachable(page)
    action_button(page, {"type": "call", "side": 1, "call": "truco"}).click()
    expect(page.locator("#pending-list li")).to_have_count(1)
    api_act(live, match_id, key, WON0, 2)  # phone B ends hand 3 meanwhile
    page.evaluate("""id => { const t = window.trucoPending.list(id)[0];
        window.trucoPending.add(id, {tap_key: window.trucoPending.key(), version: t.version + 1, hand: 3, made_at: Date.now(),
                                     offline: false, words: "Não quero (Nós)", action: {type: "no_quiero", side: 0}}); }""",
                  match_id)  # the second tap, made on the board the first one painted (as offline play keeps it)
    page.unroute("**/taps")
    expect(page.locator("#pending-apply")).to_be_visible(timeout=BACK)
    items = page.locator("#pending-list li")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text("Mão 3")
    expect(items.nth(1)).to_contain_text("Mão 3")
    expect(items.nth(1)).to_contain_text("Não quero (Nós)")
    expect(items.nth(0).locator(".pending-apply-one")).to_be_visible()
    expect(items.nth(0).locator(".pending-discard-one")).to_be_visible()
    # Every tap in full at 360x640: the strip's list can be scrolled to its last tap.
    items.nth(1).scroll_into_view_if_needed()
    expect(items.nth(1)).to_be_in_viewport()
    page.click("#pending-apply")
    expect(page.locator("#pending-refused")).to_be_visible()
    expect(page.locator("#pending-refused")).to_contain_text("mão 3")
    expect(page.locator("#pending")).to_be_hidden()
    state = stored(live, match_id)
    assert state["version"] == 3 and state["score"] == [2, 1]  # hand 3 once, hand 4 untouched
    assert kept(page, match_id) == [] and errors == []
    ctx.close()


def test_one_waiting_tap_can_be_discarded_alone(chromium, live):
    path, match_id, _key = create_match(live)
    ctx, page, errors = open_board(chromium, live, path)
    scorekeeper_unreachable(page)
    action_button(page, WON0).click()
    expect(page.locator("#pending-list li")).to_have_count(1)
    action_button(page, WON1).click()
    expect(page.locator("#pending-list li")).to_have_count(2)
    page.locator("#pending-list li").nth(0).locator(".pending-discard-one").click()
    expect(page.locator("#pending-list li")).to_have_count(1)
    assert [t["action"] for t in kept(page, match_id)] == [WON1]
    ctx.close()
