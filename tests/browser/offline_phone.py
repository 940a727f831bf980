"""Shared pieces of the offline engine's browser tests (test_offline_play.py,
test_offline_snapshot.py): a ``truco serve`` with the engine on, one phone per test file
whose engine has started once (the first start, the long one: Pyodide, the bundle, a
memory snapshot made), and helpers to wait for the engine and tap with no connection.

The fixtures are module-scoped: each test file that imports them has its own server and
phone, and each test plays matches of its own on new pages of that phone."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from conftest import action_button, create_match, new_context, watch_errors
from live_server import Server

ROOT = Path(__file__).resolve().parents[2]
#: The pending taps' keeper (window.trucoPending, docs/offline.md) is wt-idem's; the
#: tests that upload taps through it need it on the page.
HAS_PENDING = "window.trucoPending" in "".join(p.read_text() for p in (ROOT / "static" / "js").rglob("*.js")
                                               if p.name not in ("offline.js", "engine-worker.js"))
needs_pending = pytest.mark.skipif(not HAS_PENDING, reason="window.trucoPending (wt-idem) is not on the page yet")
#: Starting the engine the first time (download and start of Pyodide) on a shared, loaded machine.
ENGINE_MS = 120_000
#: The worker's Cache Storage cache of the snapshot.
SNAPSHOTS = "truco-engine-snapshot"
KEPT_JS = "async (name) => (await (await caches.open(name)).keys()).map((r) => r.url)"


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """``truco serve`` with the offline engine on (the shared fixture turns it off), one for
    the test file's tests (each plays its own matches): the engine's files are compressed once."""
    server = Server(tmp_path_factory.mktemp("offline") / "serve.sqlite3", threads=4, ghost_tap_ms=0,
                    offline_engine=True)
    yield server
    if server.proc.poll() is None:
        server.stop()


def engine_ready(page) -> None:
    page.wait_for_function("() => ['ready', 'failed'].includes(document.documentElement.dataset.offline)",
                           timeout=ENGINE_MS)
    assert page.evaluate("() => document.documentElement.dataset.offline") == "ready", \
        page.evaluate("() => document.documentElement.dataset.offlineError")


def snapshot_of(page) -> tuple[str, str | None]:
    """How the page's engine started (``used``, ``made`` or ``off``) and why a kept snapshot
    was not used (None: nothing went wrong)."""
    return tuple(page.evaluate("() => [document.documentElement.dataset.engineSnapshot,"
                                 " document.documentElement.dataset.engineSnapshotError || null]"))


def board_with_engine(ctx, live, path: str, errors: list[str] | None = None):
    """The board at ``path`` opened on a new page of the phone ``ctx``, once its engine is
    ready; the page's uncaught errors go to ``errors`` (if given)."""
    page = ctx.new_page()
    if errors is not None:
        watch_errors(page, errors)
    page.goto(live.url + path)
    engine_ready(page)
    # Its copy of the match holds the board shown: the phone could play on now (the board says so).
    page.wait_for_function("() => document.documentElement.dataset.offlineReady === 'yes'", timeout=ENGINE_MS)
    return page


def open_board(ctx, live, path: str, snapshot: str):
    """The board opened on the phone ``ctx``; its engine started as ``snapshot`` says
    (``made``: the phone held nothing; ``used``: from the kept snapshot), and it keeps one."""
    page = board_with_engine(ctx, live, path)
    assert snapshot_of(page) == (snapshot, None)
    assert len(page.evaluate(KEPT_JS, SNAPSHOTS)) == 1
    return page


@pytest.fixture(scope="module")
def started_phone(chromium, live):
    """One phone (a browser context, in es) whose engine has started once and made its
    snapshot: the first start, the long one, is had once for the test file's tests."""
    ctx = new_context(chromium, lang="es")
    path, _id, _key = create_match(live, variant="truco-15")
    open_board(ctx, live, path, "made").close()
    yield ctx
    ctx.close()


@pytest.fixture
def phone(started_phone):
    """The started phone, online, with no page open, holding one snapshot (each test leaves it
    so: a broken or foreign one is replaced by the current one at the next start)."""
    yield started_phone
    started_phone.set_offline(False)
    for page in started_phone.pages:
        page.close()


def tap(page, action: dict) -> None:
    """Tap ``action``'s button and wait until the phone counts one more tap waiting."""
    before = page.evaluate("() => document.documentElement.dataset.waiting || '0'")
    action_button(page, action).first.click()
    page.wait_for_function(f"() => (document.documentElement.dataset.waiting || '0') !== '{before}'")


def seen(html: str) -> dict:
    """What a player sees on a board: scores, buttons (action, words), points, hand line, log."""
    text = re.sub(r"\s+", " ", html)
    return {
        "scores": re.findall(r'id="score\d">(\d+)<', text),
        "buttons": sorted((unescape(a), unescape(b)) for a, b in
                          re.findall(r'data-action="([^"]+)"><span class="label">([^<]+)', text)),
        "notes": sorted(re.findall(r'<small class="pts[^"]*">([^<]+)</small>', text)),
        "hand": re.findall(r'<p class="hand-info">(.*?)</p>', text),
        "log": re.findall(r'<span class="text">([^<]+)</span> <span class="at">([^<]+)</span>', text),
    }
