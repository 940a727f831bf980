"""The offline engine's memory snapshot (issue 24, the cold start), in real Chromium against a
real ``truco serve``: the worker's first start makes a snapshot of its started Python and keeps
it in Cache Storage; the next start loads it and plays the same rules and board as the
scorekeeper; a snapshot of another bundle is never used, and a broken one is dropped and the
engine starts as usual (static/js/engine-worker.js). Timings belong in bench/offline.py."""

from __future__ import annotations

import pytest

from conftest import action_button, api_act, create_match, request, stored
from offline_phone import (KEPT_JS, SNAPSHOTS, board_with_engine, engine_ready, live,  # noqa: F401 - fixtures
                           needs_pending, open_board, phone, seen, snapshot_of, started_phone, tap)

#: The kept snapshot replaced by ``transform(bytes)`` under ``key`` (the old entry removed).
REWRITE_JS = """
async ([name, key, transform]) => {
  const cache = await caches.open(name);
  const [old] = await cache.keys();
  const bytes = new Uint8Array(await (await cache.match(old)).arrayBuffer());
  const changed = {
    same: (b) => b,
    zeros: (b) => new Uint8Array(1 << 20),
    truncated: (b) => b.slice(0, b.length >> 1),
  }[transform](bytes);
  await cache.delete(old);
  await cache.put(key || old.url, new Response(changed));
  return old.url;
}
"""


@needs_pending
def test_a_second_start_loads_the_kept_snapshot_and_plays_the_scorekeepers_board(phone, live):
    path, match_id, key = create_match(live, variant="truco-15")
    api_act(live, match_id, key, {"type": "call", "side": 0, "call": "envido"}, 0)
    ctx = phone
    errors: list[str] = []
    page = board_with_engine(ctx, live, path, errors)
    assert snapshot_of(page) == ("used", None)
    ctx.set_offline(True)
    for action in ({"type": "quiero", "side": 1}, {"type": "envido_winner", "side": 0},
                   {"type": "call", "side": 1, "call": "truco"}):
        tap(page, action)
    assert page.evaluate("() => document.documentElement.dataset.offline") == "playing"
    assert action_button(page, {"type": "quiero", "side": 0}).count()  # after "Truco!", "Quiero"
    phone_board = page.locator("#scoreboard").evaluate("b => b.outerHTML")
    ctx.set_offline(False)
    page.wait_for_function(f"() => !window.trucoPending.list('{match_id}').length", timeout=30_000)
    assert stored(live, match_id)["version"] == 4  # each tap once
    _s, _h, server = request(live, "GET", f"{path}/board?version=-1", headers={"HX-Request": "true",
                                                                                "Accept-Language": "es"})
    assert seen(phone_board) == seen(server)
    assert not errors


def test_a_snapshot_of_another_bundle_is_not_used_and_is_dropped(phone, live):
    path, _id, _key = create_match(live)
    page = open_board(phone, live, path, "used")
    [current] = page.evaluate(KEPT_JS, SNAPSHOTS)
    digest = current.split("/engine/")[1][:12]
    older = current.replace(digest, "0" * 12)  # what the phone kept before the scorekeeper was updated
    page.evaluate(REWRITE_JS, [SNAPSHOTS, older, "same"])
    assert page.evaluate(KEPT_JS, SNAPSHOTS) == [older]
    page.reload()
    engine_ready(page)
    assert snapshot_of(page) == ("made", None)
    assert page.evaluate(KEPT_JS, SNAPSHOTS) == [current]
    # The engine that made the snapshot plays on (a phone's first drop comes on that start).
    phone.set_offline(True)
    tap(page, {"type": "hand_winner", "side": 0})
    assert page.evaluate("() => document.documentElement.dataset.offline") == "playing"
    assert page.locator("#score0").text_content() == "1"


@pytest.mark.parametrize("broken", ["zeros", "truncated"])
def test_a_broken_snapshot_is_dropped_and_the_engine_starts_as_usual(phone, live, broken):
    path, _id, _key = create_match(live, variant="truco-15")
    page = open_board(phone, live, path, "used")
    [current] = page.evaluate(KEPT_JS, SNAPSHOTS)
    page.evaluate(REWRITE_JS, [SNAPSHOTS, None, broken])
    page.reload()
    engine_ready(page)
    state, error = snapshot_of(page)
    assert state == "made" and error  # not used, said why, and a good one kept in its place
    assert page.evaluate(KEPT_JS, SNAPSHOTS) == [current]
    page.reload()
    engine_ready(page)
    assert snapshot_of(page) == ("used", None)
