"""What keeps a request cheap (issue 6): an action builds one short state, the log's
translations are looked up once, each server thread reuses its SQLite connection
(and still sees other processes' writes), responses are compressed, static files are
cached for good under versioned URLs, and the service worker downloads little."""

from __future__ import annotations

import json
import re
import sqlite3
import threading

import pytest
from flask_babel import force_locale, gettext

from scorer.app import store
from scorer.app.match_service import APPLIED, STALE, MatchService
from scorer.core.match import Match
from scorer.web.db import get_db
from scorer.web.i18n import LANGUAGES, translator
from scorer.web.board import LOG_LIMIT
from tests.web_client import HX, act, new_match

TRUCO = {"type": "call", "side": 0, "call": "truco"}
REFUSE = {"type": "no_quiero", "side": 1}


def play(client, path, hands: int) -> int:
    """``hands`` hands of a Truco refused and its tento taken back (three actions and log
    entries each; the score stays 0-0); the version."""
    v = 0
    for hand in range(hands):
        side = hand % 2
        for a in ({"type": "call", "side": side, "call": "truco"}, {"type": "no_quiero", "side": 1 - side},
                  {"type": "adjust", "side": side, "delta": -1}):
            assert act(client, path, a, v).status_code == 303, act(client, path, a, v).get_data(as_text=True)
            v += 1
    return v


# ---------------------------------------------------------------- one short state per action


def test_an_htmx_action_builds_only_short_states(client, monkeypatch):
    """The action used to build the whole log (every line translated) before the page built
    it again: its cost grew with the match. Now every state built has the page's limit."""
    path, _id, _key = new_match(client)
    v = play(client, path, 2)
    limits = []
    real = Match.state

    def spy(self, *args, **kwargs):
        limits.append(kwargs.get("log_limit"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Match, "state", spy)
    r = act(client, path, TRUCO, v, HX)
    assert r.status_code == 200 and f'data-version="{v + 1}"' in r.get_data(as_text=True)
    assert limits == [LOG_LIMIT]
    limits.clear()
    assert act(client, path, REFUSE, v + 1).status_code == 303  # without JavaScript: no state at all
    assert limits == []


def test_service_act_without_state_stores_score_and_winner(app):
    with app.app_context():
        db = get_db()
        row = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
        svc = MatchService()
        assert svc.act(db, row.id, TRUCO, 0, with_state=False) == (APPLIED, None)
        assert svc.act(db, row.id, REFUSE, 1, with_state=False) == (APPLIED, None)
        stored = store.get_match(db, row.id)
        assert stored.version == 2 and stored.score == (1, 0) and stored.winner is None
        outcome, state = svc.act(db, row.id, TRUCO, 0, log_limit=1)  # stale: the current state
        assert outcome == STALE and state["version"] == 2 and len(state["log"]) == 1
        assert svc.act(db, row.id, TRUCO, 0, with_state=False) == (STALE, None)


def test_the_api_still_answers_the_whole_log(client):
    path, match_id, key = new_match(client)
    v = play(client, path, 15)
    r = client.post(f"/api/matches/{match_id}/actions", json={"action": TRUCO, "version": v},
                    headers={"X-Edit-Key": key})
    assert r.status_code == 200 and len(r.get_json()["log"]) == v + 1 > LOG_LIMIT


@pytest.mark.parametrize("code", LANGUAGES)
def test_translator_translates_like_gettext(app, code):
    messages = ["Us", "Them", "{side} won the hand", "", "not a message in the catalogue"]
    with app.test_request_context("/"), force_locale(code):
        fast = translator()
        assert [fast(m) for m in messages] == [gettext(m) if m else m for m in messages]


# ---------------------------------------------------------------- one connection per thread


def test_requests_reuse_pooled_connections(app):
    """Opening a connection costs more than a poll: requests, on any thread, take one
    from the pool and give it back (issue 12 replaced the per-thread connection by the
    engine's pool, which several processes and PostgreSQL need)."""
    seen = []

    def one_request():
        with app.test_request_context("/"):
            seen.append(id(get_db().raw))
            app.do_teardown_appcontext()

    one_request()
    one_request()
    t = threading.Thread(target=one_request)
    t.start()
    t.join()
    assert len(set(seen)) == 1


def test_a_transaction_left_open_is_rolled_back_at_teardown(app):
    with app.test_request_context("/"):
        db = get_db()
        raw = db.raw
        db.execute("BEGIN IMMEDIATE")
        assert db.in_transaction
    with app.test_request_context("/"):
        again = get_db()
        assert again.raw is raw
        assert not again.in_transaction  # the next request (and other processes) can write


def test_a_poll_sees_a_write_made_by_another_connection(client, app):
    """Another process (here: another connection) records an action: the reused connection
    must not keep an old snapshot, and the service must not answer from its cache."""
    path, match_id, key = new_match(client)
    assert act(client, path, TRUCO, 0, HX).status_code == 200
    assert client.get(f"{path}/board?version=1&rematch=0", headers=HX).status_code == 204
    other = store.connect(app.config["DATABASE"])
    try:
        assert store.append_action(other, match_id, 1, REFUSE, score=(1, 0), winner=None)
    finally:
        other.close()
    r = client.get(f"{path}/board?version=1&rematch=0", headers=HX)
    assert r.status_code == 200 and 'data-version="2"' in r.get_data(as_text=True)
    assert act(client, path, TRUCO, 1, HX).status_code == 409  # stale: the other write counts
    assert act(client, path, TRUCO, 2, HX).status_code == 200


def test_every_action_is_committed_before_the_response(client, app):
    path, match_id, _key = new_match(client)
    assert act(client, path, TRUCO, 0, HX).status_code == 200
    other = sqlite3.connect(app.config["DATABASE"])
    try:
        assert other.execute("SELECT version FROM match WHERE id = ?", (match_id,)).fetchone()[0] == 1
        assert other.execute("SELECT COUNT(*) FROM action WHERE match_id = ?", (match_id,)).fetchone()[0] == 1
    finally:
        other.close()


# ---------------------------------------------------------------- what goes over the wire


BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}


def test_pages_and_fragments_are_compressed_when_the_client_accepts_it(client):
    path, _id, _key = new_match(client)
    page = client.get(path, headers=BROWSER)
    assert page.headers["Content-Encoding"] == "br" and "Accept-Encoding" in page.headers["Vary"]
    assert "Cookie" in page.headers["Vary"]  # the board's own Vary is kept
    gz = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip"
    import gzip
    import re

    def unstamped(body: bytes) -> bytes:  # each render stamps its buttons with the time it was shown
        return re.sub(rb'(name="shown" value|data-now)="[0-9.]+"', b"", body)

    assert unstamped(gzip.decompress(gz.data)) == unstamped(client.get(path).data)  # same page, no encoding asked
    assert "Content-Encoding" not in client.get(path).headers
    assert client.get(f"{path}/board?version=0&rematch=0", headers={**HX, **BROWSER}).status_code == 204
    small = client.get("/static/icons/icon.svg", headers=BROWSER)  # under 1 KB: as it is
    assert "Content-Encoding" not in small.headers
    small.close()


def test_static_files_have_versioned_urls_cached_for_a_year(client, app):
    html = client.get("/").get_data(as_text=True)
    urls = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert urls and all(re.search(r"\?v=[0-9a-f]{12}$", u) for u in urls), urls
    for url in urls:
        r = client.get(url, headers=BROWSER)
        assert r.status_code == 200 and r.headers["Cache-Control"] == "public, max-age=31536000, immutable", url
        r.close()
    htmx = next(u for u in urls if "htmx" in u)
    r = client.get(htmx, headers=BROWSER)
    assert r.headers["Content-Encoding"] in ("br", "zstd") and len(r.data) < 20_000
    r.close()
    bare, _v = htmx.split("?v=")
    for url in (bare, bare + "?v=0123456789ab"):  # no or an old hash: revalidated, not kept
        r = client.get(url)
        assert r.status_code == 200 and "immutable" not in r.headers.get("Cache-Control", ""), url
        r.close()


def test_pages_are_never_cached(client):
    path, _id, _key = new_match(client)
    assert client.get(path).headers["Cache-Control"] == "no-store"


def test_service_worker_installs_the_page_files_and_one_offline_page(client):
    body = client.get("/sw.js").get_data(as_text=True)
    shell = json.loads(re.search(r"const SHELL\s*=\s*(\[.*?\]);", body).group(1))
    assert all("?v=" in u for u in shell)  # the same URLs the pages load: already in the HTTP cache
    body = re.sub(r"\s+", "", body)  # served minified (rjsmin), like our static scripts
    install = body[body.index('addEventListener("install"'):body.index('addEventListener("activate"')]
    assert "ESSENTIAL.concat([OFFLINE[browserLang()]])" in install
    assert "Object.values(OFFLINE)" not in body  # not every language at install
    assert "SHELL.includes(url.pathname+url.search)" in body


def test_versioned_static_files_are_brotli_at_maximum_quality_without_validators(client):
    import brotli

    html = client.get("/").get_data(as_text=True)
    htmx = re.search(r'src="(/static/vendor/htmx[^"]+)"', html).group(1)
    bare = client.get(htmx.split("?v=")[0])
    raw = bare.data
    bare.close()
    for _ in range(2):  # compressed once, then kept
        r = client.get(htmx, headers=BROWSER)
        assert r.headers["Content-Encoding"] == "br"
        assert r.data == brotli.compress(raw, quality=11)
        assert not {"ETag", "Last-Modified", "Content-Disposition"} & set(r.headers.keys())
        r.close()
    page = client.get("/", headers=BROWSER)  # pages: compressed per request, never kept
    assert page.headers["Content-Encoding"] == "br"
