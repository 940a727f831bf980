"""At the table, in Chromium on `truco serve`: the live region after an action, read aloud,
vibration and highlight, keyboard use, manifest and service worker, the offline state when
the server stops, the wake-lock note on plain http, and the pages with JavaScript off.

Synchronisation is by Playwright's waits on what the page shows, never by sleeping.
"""

from __future__ import annotations

import re

from conftest import PHONE, LAN_HOST, action_button, api_act, create_match, new_context, watch_errors
from playwright.sync_api import expect

WIN0 = {"type": "hand_winner", "side": 0}


def test_live_region_read_aloud_vibration_and_highlight(chromium, live):
    path, match_id, key = create_match(live)
    errors: list[str] = []
    ctx = new_context(chromium)
    page, other = ctx.new_page(), ctx.new_page()
    for p in (page, other):
        watch_errors(p, errors)
    page.goto(live.url + path)
    other.goto(live.url + f"/w/{match_id}")

    action_button(page, WIN0).click()
    announce = "Nós 1, Eles 0. Mão 1: +1 Nós."
    expect(page.locator("#announce")).to_have_text(announce)
    expect(page.locator("#announce")).to_have_attribute("aria-live", "polite")
    # The watch page hears it too, through its poll.
    expect(other.locator("#announce")).to_have_text(announce)
    # A brief highlight of what changed: the side that scored and the newest log line.
    expect(page.locator(".side0.changed .delta")).to_have_text("+1")
    expect(page.locator(".side1.changed")).to_have_count(0)
    expect(page.locator(".log li.fresh")).to_have_count(1)
    # One short vibration for the action this phone recorded (none on the watch page).
    assert page.evaluate("window.__vibrations") == [35]
    assert other.evaluate("window.__vibrations") == []

    # Read the score aloud, in the page's language.
    page.click("#speak")
    spoken = page.evaluate("window.__spoken")
    assert spoken == [{"text": "Nós 1, Eles 0. Mão 2, vale 1.", "lang": "pt-BR"}]

    # Undo is announced as such, with no highlight.
    page.once("dialog", lambda d: d.accept())
    page.click("button.undo")
    expect(page.locator("#announce")).to_have_text("Nós 0, Eles 0. A última ação foi desfeita.")
    expect(page.locator(".changed")).to_have_count(0)
    assert not errors, errors
    ctx.close()


def test_read_aloud_speaks_spanish_on_a_spanish_page(chromium, live):
    path, match_id, key = create_match(live, variant="argentino-30", name0="Nosotros", name1="Ellos")
    api_act(live, match_id, key, {"type": "adjust", "side": 1, "delta": 17}, 0)
    api_act(live, match_id, key, {"type": "call", "side": 0, "call": "truco"}, 1)
    ctx = new_context(chromium, lang="es")
    page = ctx.new_page()
    page.goto(live.url + path)
    page.click("#speak")
    [said] = page.evaluate("window.__spoken")
    assert said["lang"] == "es"
    # Issue 13 item 12 (X8): the bare call, not the button's shout ("!" mid-sentence breaks speech).
    assert said["text"].startswith("Nosotros 0, Ellos 17, en buenas. Mano 1, vale 1. Truco de Nosotros: falta la respuesta")
    ctx.close()


def test_keyboard_alone_records_an_action_and_keeps_the_focus(chromium, live):
    path, _id, _key = create_match(live)
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    target = action_button(page, {"type": "call", "side": 0, "call": "truco"})
    for _ in range(40):  # Tab through the page until the Truco button has the focus
        page.keyboard.press("Tab")
        if target.evaluate("b => b === document.activeElement"):
            break
    else:
        raise AssertionError("Truco! cannot be reached with Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    # The focus stays on the board (not lost to <body>), so Tab goes on from there.
    page.wait_for_function("() => document.getElementById('scoreboard').contains(document.activeElement)")
    ctx.close()


def test_installable_and_offline_when_the_server_stops(chromium, live):
    path, _id, _key = create_match(live)
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    # Manifest with icons, standalone/full screen; the service worker controls the page.
    href = page.get_attribute("link[rel=manifest]", "href")
    manifest = page.evaluate("h => fetch(h).then(r => r.json())", href)
    assert manifest["display"] == "fullscreen" and manifest["start_url"] == "/"
    assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])
    expect(page.locator("html")).to_have_attribute("data-sw", "ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    expect(page.locator("#offline")).to_be_hidden()

    live.stop()
    # The open scoreboard's next poll fails: the state says so, the old score is greyed.
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("Sem conexão com o marcador")
    expect(page.locator("html")).to_have_class(re.compile(r"\bstale\b"))
    # Reloading shows the cached offline page, never a stored scoreboard.
    page.reload()
    expect(page.locator("h1")).to_have_text("Sem conexão com o marcador")
    expect(page.locator("#score0")).to_have_count(0)
    ctx.close()


def test_wake_lock_on_localhost_and_a_one_time_note_on_plain_http(chromium, live):
    path, _id, _key = create_match(live)
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)  # 127.0.0.1 is a secure context
    expect(page.locator("html")).to_have_attribute("data-wake-lock", re.compile("on|denied"))
    expect(page.locator("#wake-note")).to_be_hidden()

    lan = f"http://{LAN_HOST}:{live.port}{path}"  # like http://192.168.x.y on the Wi-Fi
    page.goto(lan)
    assert page.evaluate("window.isSecureContext") is False
    expect(page.locator("html")).to_have_attribute("data-wake-lock", "unavailable")
    expect(page.locator("#wake-note")).to_be_visible()
    expect(page.locator("#wake-note")).to_contain_text("https")
    # It floats over the bottom of the page: the pad is where it is without it (a tester
    # found it pushing the pad below the first screen), and the scores stay in sight.
    hand = page.locator("#slot-0-hand").bounding_box()
    assert hand["y"] + hand["height"] <= PHONE["height"]
    note = page.locator("#wake-note").bounding_box()
    assert note["y"] >= page.locator("#score0").bounding_box()["y"] + page.locator("#score0").bounding_box()["height"]
    page.click("#wake-ok")
    expect(page.locator("#wake-note")).to_be_hidden()
    page.reload()  # said once: not again on this phone
    expect(page.locator("html")).to_have_attribute("data-wake-lock", "unavailable")
    expect(page.locator("#wake-note")).to_be_hidden()
    ctx.close()


def test_pages_work_with_javascript_off(chromium, live):
    ctx = new_context(chromium, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(live.url + "/")
    page.select_option("#best_of", "3")
    page.click("details.players summary")
    page.check("input[name=table_size][value='4']")
    page.fill("input[name=player0_0]", "Ana")
    page.click("#start")
    expect(page.locator("#series")).to_contain_text("Melhor de 3")
    expect(page.locator("#seats")).to_contain_text("Ana")
    expect(page.locator("#speak")).to_be_hidden()  # nothing to speak with
    action_button(page, WIN0).click()  # a plain form post and redirect
    expect(page.locator("#score0")).to_have_text("1")
    ctx.close()
