"""Access: nothing changes without the edit key, keys never leak to watchers, names are
text, and every response carries the security headers; cookies are Lax and HttpOnly."""

from __future__ import annotations

import hmac
import io

import pytest

from scorer.app import store
from scorer.web import common, create_app

SCRIPT = "<script>x()</script>"
IMG = "<img src=x onerror=y()>"


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "access.sqlite3"}).test_client()


@pytest.fixture
def match(client):
    r = client.post("/api/matches", json={"variant": "paulista", "names": [SCRIPT, IMG]})
    return r.get_json()


@pytest.mark.parametrize("key", [None, "", "wrong", "x" * 43, "other-match"])
def test_no_action_undo_or_rename_without_the_key(client, match, key):
    if key == "other-match":
        key = client.post("/api/matches", json={"variant": "paulista"}).get_json()["edit_key"]
    headers = {} if key is None else {"X-Edit-Key": key}
    base = f"/api/matches/{match['id']}"
    for action in ({"type": "hand_winner", "side": 0}, {"type": "undo"}):
        r = client.post(f"{base}/actions", json={"action": action, "version": 0}, headers=headers)
        assert r.status_code == 403 and r.get_json()["error"]["message"]
    assert client.post(f"{base}/names", json={"names": ["a", "b"]}, headers=headers).status_code == 403
    if key:
        form = {"action": '{"type": "undo"}', "version": "0", "confirmed": "1"}
        assert client.post(f"/m/{match['id']}/{key}/actions", data=form).status_code == 403
        assert client.post(f"/m/{match['id']}/{key}/revanche").status_code == 403
        assert client.get(f"/m/{match['id']}/{key}").status_code == 403
    state = client.get(base).get_json()
    assert state["version"] == 0 and state["names"] == [SCRIPT, IMG]


def test_keys_are_compared_in_constant_time(client, match, monkeypatch):
    calls, compare = [], hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return compare(a, b)

    monkeypatch.setattr(common.hmac, "compare_digest", spy)
    client.post(f"/api/matches/{match['id']}/actions", json={"action": {"type": "undo"}, "version": 0},
                headers={"X-Edit-Key": "wrong"})
    client.get(f"/m/{match['id']}/{match['edit_key']}")
    # Issue 12: the database keeps the key's hash, so the hashes are what is compared.
    stored = store.hash_key(match["edit_key"]).encode()
    assert calls == [(store.hash_key("wrong").encode(), stored), (stored,) * 2]


def test_watchers_never_see_the_edit_key(client, match):
    key = match["edit_key"]
    for url in (f"/w/{match['id']}", f"/w/{match['id']}/board?version=99", f"/api/matches/{match['id']}",
                f"/api/matches/{match['id']}/export", f"/api/matches/{match['id']}/log.csv"):
        r = client.get(url)
        assert r.status_code == 200 and key not in r.get_data(as_text=True), url
    assert key not in client.get(f"/w/{match['id']}/board", headers={"HX-Request": "true"}).get_data(as_text=True)


def test_names_with_html_are_shown_as_text(client, match):
    for url in (f"/m/{match['id']}/{match['edit_key']}", f"/w/{match['id']}", f"/m/{match['id']}/{match['edit_key']}/share"):
        page = client.get(url).get_data(as_text=True)
        assert SCRIPT not in page and IMG not in page, url
        assert "&lt;script&gt;x()&lt;/script&gt;" in page or url.endswith("/share"), url


def responses(client, match):
    key, mid = match["edit_key"], match["id"]
    yield client.get("/")
    yield client.get(f"/m/{mid}/{key}")
    yield client.get(f"/m/{mid}/{key}/board?version=0")  # 204
    yield client.get(f"/w/{mid}")
    yield client.get(f"/m/{mid}/{key}/share")
    yield client.get("/envido?cards=7o+6o+1e")
    yield client.get("/static/css/app.css")
    yield client.get("/nowhere")  # 404
    yield client.get(f"/m/{mid}/wrong")  # 403
    yield client.post("/api/matches", data=io.BytesIO(b"x" * 100_000), content_type="application/json")  # 413
    yield client.post("/api/matches", json={"variant": "poker"})  # 422
    yield client.post("/matches", data={"variant": "paulista"})  # 303
    yield client.get("/lang/en?next=/")
    yield client.get(f"/api/matches/{mid}")
    yield client.get(f"/api/matches/{mid}/log.csv")
    yield client.delete(f"/api/matches/{mid}")  # 405


def test_every_response_has_the_security_headers(client, match):
    statuses = set()
    for r in responses(client, match):
        statuses.add(r.status_code)
        csp = r.headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, r.status
        assert r.headers.get("X-Content-Type-Options") == "nosniff"
        assert r.headers.get("Referrer-Policy") == "no-referrer"
        r.close()
    assert {200, 204, 303, 403, 404, 405, 413, 422} <= statuses


def test_cookies_are_samesite_lax_and_httponly(client, match):
    cookies = []
    for r in responses(client, match):
        cookies += r.headers.getlist("Set-Cookie")
        r.close()
    assert len(cookies) >= 3  # last settings, recent matches, language
    for cookie in cookies:
        assert "SameSite=Lax" in cookie and "HttpOnly" in cookie, cookie
