"""A public instance survives strangers (issue 12): rate limits (429 with Retry-After),
an early 413 from waitress, Secure cookies and HSTS with an https public URL, Host
checking, trusted proxies only, cross-site posts refused, keys hashed at rest, 503 when
the database is away, the replay cache's bounds and per-match locks, pruning."""

from __future__ import annotations

import socket
import threading

import pytest
from click.testing import CliRunner

from live_server import Server
from scorer.app import store
from scorer.app.match_service import MatchService
from scorer.cli.main import cli
from scorer.core.match import Match
from scorer.web import create_app
from scorer.web.db import get_db
from scorer.web.hosting.security import RATE_LIMITS

EN = {"Accept-Language": "en"}
STRANGER = {"REMOTE_ADDR": "203.0.113.9"}


def make(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "s.sqlite3", **config})


# ------------------------------------------------------------------ rate limits


def test_creating_too_fast_gets_429_with_retry_after(tmp_path):
    client = make(tmp_path, RATE_LIMITS={"create": "2/minute"}).test_client()
    for _ in range(2):
        assert client.post("/api/matches", json={"variant": "paulista"}, environ_base=STRANGER).status_code == 201
    r = client.post("/api/matches", json={"variant": "paulista"}, environ_base=STRANGER, headers=EN)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert r.get_json()["error"]["code"] == "too_many_requests"
    assert "Too many requests from this device" in r.get_json()["error"]["message"]
    # The form shares the budget, and answers a page in the user's language.
    r = client.post("/matches", data={"variant": "paulista"}, environ_base=STRANGER,
                    headers={"Accept-Language": "pt-BR"})
    assert r.status_code == 429 and "Pedidos demais" in r.get_data(as_text=True) and r.headers["Retry-After"]
    # Another client is not held up by this one.
    other = {"REMOTE_ADDR": "198.51.100.4"}
    assert client.post("/api/matches", json={"variant": "paulista"}, environ_base=other).status_code == 201


@pytest.mark.parametrize(
    ("kind", "limit", "request_"),
    [
        ("import", "1/minute", lambda c, m: c.post("/api/matches/import", json=c.get(
            f"/api/matches/{m['id']}/export").get_json(), environ_base=STRANGER)),
        ("action", "1/minute", lambda c, m: c.post(f"/api/matches/{m['id']}/actions", json={
            "action": {"type": "adjust", "side": 0, "delta": 1}, "version": 0}, headers={"X-Edit-Key": m["edit_key"]},
            environ_base=STRANGER)),
        ("read", "1/minute", lambda c, m: c.get(f"/api/matches/{m['id']}/log.csv", environ_base=STRANGER)),
    ],
)
def test_each_kind_has_its_limit(tmp_path, kind, limit, request_):
    client = make(tmp_path, RATE_LIMITS={kind: limit}).test_client()
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    assert request_(client, m).status_code < 400
    assert request_(client, m).status_code == 429


def test_the_machine_itself_is_exempt_until_there_is_a_public_url(tmp_path):
    client = make(tmp_path, RATE_LIMITS={"create": "1/minute"}).test_client()
    for _ in range(3):  # loopback: the laptop at the table, its tests and bench
        assert client.post("/api/matches", json={"variant": "paulista"}).status_code == 201
    public = make(tmp_path, RATE_LIMITS={"create": "1/minute"}, PUBLIC_URL="https://truco.example").test_client()
    assert public.post("/api/matches", json={"variant": "paulista"}).status_code == 201
    assert public.post("/api/matches", json={"variant": "paulista"}).status_code == 429


def test_forwarded_addresses_are_believed_only_from_a_configured_proxy(tmp_path):
    app = make(tmp_path, RATE_LIMITS={"create": "1/minute"}, PUBLIC_URL="https://truco.example",
               PROXY_ADDRESSES=["127.0.0.1"])
    client = app.test_client()

    def create(peer, forwarded):
        return client.post("/api/matches", json={"variant": "paulista"}, environ_base={"REMOTE_ADDR": peer},
                           headers={"X-Forwarded-For": forwarded}).status_code

    assert create("127.0.0.1", "198.51.100.1") == 201  # through the proxy: each client its own budget
    assert create("127.0.0.1", "198.51.100.2") == 201
    assert create("127.0.0.1", "198.51.100.1") == 429
    assert create("203.0.113.7", "198.51.100.3") == 201  # not the proxy: its header is ignored...
    assert create("203.0.113.7", "198.51.100.4") == 429  # ...so a new made-up address buys nothing


def test_serve_takes_rate_limit_options():
    result = CliRunner().invoke(cli, ["serve", "--rate-limit", "create=often"])
    assert result.exit_code == 2 and "not a limit" in result.output
    result = CliRunner().invoke(cli, ["serve", "--rate-limit", "everything=1/second"])
    assert result.exit_code == 2 and ", ".join(RATE_LIMITS) in result.output


# ------------------------------------------------------------------ bodies, https, hosts


def test_a_large_declared_body_gets_413_before_it_is_sent(tmp_path):
    server = Server(tmp_path / "big.sqlite3")
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"POST /api/matches/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 1073741824\r\n\r\n")  # 1 GiB announced, not a byte of it sent
            answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413")
    finally:
        server.stop()


def test_https_public_url_makes_cookies_secure_and_sends_hsts(tmp_path):
    client = make(tmp_path, PUBLIC_URL="https://truco.example").test_client()
    r = client.post("/matches", data={"variant": "paulista"})
    cookies = r.headers.getlist("Set-Cookie")
    assert r.status_code == 303 and cookies and all("; Secure" in c for c in cookies)
    assert r.headers["Strict-Transport-Security"] == "max-age=31536000"
    lang = client.get("/lang/en").headers.getlist("Set-Cookie")
    assert all("; Secure" in c for c in lang)


def test_plain_http_sends_neither(tmp_path):
    r = make(tmp_path).test_client().post("/matches", data={"variant": "paulista"})
    assert all("Secure" not in c for c in r.headers.getlist("Set-Cookie"))
    assert "Strict-Transport-Security" not in r.headers


def test_serve_restricts_host_to_the_public_urls(tmp_path, waitress_stub):
    seen = waitress_stub
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(tmp_path / "h.sqlite3"), "--no-qr",
                                      "--public-url", "https://truco.example/", "--retention-days", "0"])
    assert result.exit_code == 0, result.output
    app = seen["app"]
    assert app.config["TRUSTED_HOSTS"] == ["truco.example"] and app.config["COOKIE_SECURE"]
    client = app.test_client()
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"Host": "truco.example"}).status_code == 200


# ------------------------------------------------------------------ cross-site posts


@pytest.mark.parametrize(
    "headers",
    [{"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}, {"Origin": "https://evil.example"},
     {"Origin": "null"}],
)
def test_cross_site_posts_are_refused_and_change_nothing(tmp_path, headers):
    app = make(tmp_path)
    client = app.test_client()
    r = client.post("/matches", data={"variant": "paulista"}, headers={**headers, **EN})
    assert r.status_code == 403 and "another site" in r.get_data(as_text=True)
    assert "Set-Cookie" not in r.headers  # the visitor's saved matches stay as they were
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    r = client.post(f"/api/matches/{m['id']}/actions", json={"action": {"type": "adjust", "side": 0, "delta": 1},
                    "version": 0}, headers={**headers, "X-Edit-Key": m["edit_key"]})
    assert r.status_code == 403
    assert client.get(f"/api/matches/{m['id']}").get_json()["version"] == 0


@pytest.mark.parametrize("headers", [{"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"},
                                     {"Origin": "http://localhost"}, {}])
def test_same_site_posts_pass(tmp_path, headers):
    r = make(tmp_path).test_client().post("/matches", data={"variant": "paulista"}, headers=headers)
    assert r.status_code == 303


@pytest.mark.parametrize(("public_url", "base_url", "origin", "status"), [
    ("https://truco.example", "https://truco.example", "http://truco.example", 403),  # issue 31, item 4
    ("https://truco.example", "https://truco.example", "https://truco.example", 303),
    (None, "https://localhost", "http://localhost", 403),  # served over https (a trusted proxy's scheme)
    (None, "https://localhost", "https://localhost", 303),
    ("http://truco.example", "http://truco.example", "http://truco.example", 303),  # a plain-http instance
])
def test_a_plain_http_page_of_an_https_site_is_another_site(tmp_path, public_url, base_url, origin, status):
    """An https site's own plain-http address is a page anyone on the network can write: a
    post whose ``Origin`` names it is refused like any cross-site post, and changes nothing."""
    client = make(tmp_path, PUBLIC_URL=public_url).test_client()
    r = client.post("/matches", data={"variant": "paulista"}, base_url=base_url,
                    headers={"Origin": origin, **EN}, environ_base=STRANGER)
    assert r.status_code == status
    if status == 403:
        assert "another site" in r.get_data(as_text=True) and "Set-Cookie" not in r.headers


# ------------------------------------------------------------------ keys at rest


def test_no_plain_edit_key_is_stored(tmp_path):
    app = make(tmp_path)
    client = app.test_client()
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    form = client.post("/matches", data={"variant": "truco-15"})
    form_key = form.headers["Location"].rsplit("/", 1)[1]
    store.dispose_all()  # every write is in the file itself
    data = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for key in (m["edit_key"], form_key):
        assert key.encode() not in data and store.hash_key(key).encode() in data
    assert client.get(f"/m/{m['id']}/{m['edit_key']}").status_code == 200  # and the key still opens it


def test_the_revanche_opens_with_the_same_key(tmp_path):
    client = make(tmp_path).test_client()
    r = client.post("/matches", data={"variant": "paulista"})
    path = r.headers["Location"]
    client.post(path + "/actions", data={"action": '{"type":"adjust","side":0,"delta":12}', "version": "0"})
    r = client.post(path + "/revanche")
    assert r.status_code == 303 and r.headers["Location"].rsplit("/", 1)[1] == path.rsplit("/", 1)[1]
    assert client.get(r.headers["Location"]).status_code == 200


# ------------------------------------------------------------------ database away


@pytest.mark.parametrize(("path", "kind"), [("/api/matches/x", "json"), ("/w/x", "page"), ("/w/x/board", "page")])
def test_database_away_is_503_in_the_users_language(tmp_path, monkeypatch, path, kind):
    app = make(tmp_path)

    def away(*_a, **_k):
        raise store.OperationalError("SELECT", {}, ConnectionRefusedError("connection refused"))

    monkeypatch.setattr(store, "get_match", away)
    r = app.test_client().get(path, headers=EN)
    assert r.status_code == 503 and r.headers["Retry-After"] == "2"
    text = r.get_json()["error"]["message"] if kind == "json" else r.get_data(as_text=True)
    assert "cannot reach its database" in text


@pytest.mark.parametrize(("method", "path"), [("GET", "/api/matches/x"), ("GET", "/api/matches/x/export"),
                                            ("POST", "/api/matches/x/actions"), ("GET", "/w/x")])
def test_database_away_says_the_documented_retry_after_on_limited_routes_too(tmp_path, monkeypatch, method, path):
    """Issue 31, item 4: on a public instance the rate limiter's own headers put its window's
    end (up to 60 s) in the 503's ``Retry-After``; it is the app's 2 s, as docs/hosting.md says."""
    import re

    from project_docs import section
    from scorer.web.db import RETRY_AFTER

    documented = re.search(r"503 with `Retry-After: (\d+)`", section("Hosting many tables"))
    assert documented and int(documented.group(1)) == RETRY_AFTER
    app = make(tmp_path, PUBLIC_URL="https://truco.example")

    def away(*_a, **_k):
        raise store.OperationalError("SELECT", {}, ConnectionRefusedError("connection refused"))

    monkeypatch.setattr(store, "get_match", away)
    r = app.test_client().open(path, method=method, json={} if method == "POST" else None, headers=EN,
                               base_url="https://truco.example", environ_base=STRANGER)
    assert r.status_code == 503 and r.headers["Retry-After"] == str(RETRY_AFTER)


# ------------------------------------------------------------------ memory and locks


def test_the_replay_cache_is_bounded_by_actions(tmp_path):
    app = make(tmp_path)
    with app.app_context():
        db = get_db()
        svc = MatchService(size=100, max_cached_actions=25)
        ids = []
        for _ in range(5):
            row = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
            for v in range(10):
                svc.act(db, row.id, {"type": "adjust", "side": 0, "delta": 1}, v, with_state=False)
            ids.append(row.id)
            assert svc.cached_actions <= 25
        state = svc.state(db, store.get_match(db, ids[0]))  # evicted, replayed again from the database
        assert state["version"] == 10 and state["score"] == [10, 0]


def test_a_slow_read_of_one_match_does_not_hold_up_another(tmp_path, monkeypatch):
    app = make(tmp_path)
    entered, release = threading.Event(), threading.Event()
    original = Match.state

    def slow(self, *a, **k):
        if getattr(self, "slow", False):
            entered.set()
            assert release.wait(timeout=30)
        return original(self, *a, **k)

    monkeypatch.setattr(Match, "state", slow)
    with app.app_context():
        db = get_db()
        svc = MatchService()
        a = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
        b = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
        while svc.lock(a.id) is svc.lock(b.id):  # two matches on different locks
            b = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
        svc.state(db, a)
        svc._cache[a.id].slow = True

    def read_a():
        with app.app_context():
            svc.state(get_db(), store.get_match(get_db(), a.id))

    reader = threading.Thread(target=read_a)
    reader.start()
    assert entered.wait(timeout=30)
    try:
        with app.app_context():  # another table records while the long read holds match a
            outcome, _ = svc.act(get_db(), b.id, {"type": "adjust", "side": 0, "delta": 1}, 0, with_state=False)
        assert outcome == "applied"
    finally:
        release.set()
        reader.join(timeout=30)


def test_the_api_pages_the_log(tmp_path):
    client = make(tmp_path).test_client()
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    for v in range(6):
        client.post(f"/api/matches/{m['id']}/actions", json={"action": {"type": "adjust", "side": 0, "delta": 1},
                    "version": v}, headers={"X-Edit-Key": m["edit_key"]})
    assert len(client.get(f"/api/matches/{m['id']}").get_json()["log"]) == 6
    assert len(client.get(f"/api/matches/{m['id']}?log_limit=2").get_json()["log"]) == 2
    for bad in ("0", "-1", "x", "9999999"):
        assert client.get(f"/api/matches/{m['id']}?log_limit={bad}").status_code == 422


# ------------------------------------------------------------------ prune


def test_prune_command_deletes_idle_matches(tmp_path):
    path = tmp_path / "p.sqlite3"
    db = store.connect(path)
    store.init_db(db)
    old = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
    new = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
    db.execute("UPDATE match SET updated = updated - 40 * 86400 WHERE id = :id", {"id": old.id})
    db.close()
    result = CliRunner().invoke(cli, ["db", "prune", "--db", str(path), "--idle-days", "30", "--dry-run"])
    assert result.exit_code == 0 and "Would delete 1 matches" in result.output and old.id in result.output
    result = CliRunner().invoke(cli, ["db", "prune", "--db", str(path), "--idle-days", "30"])
    assert result.exit_code == 0 and "Deleted 1 matches" in result.output
    db = store.connect(path)
    assert store.get_match(db, old.id) is None and store.get_match(db, new.id) is not None
    db.close()
