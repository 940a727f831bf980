"""The shipped nginx configuration (docs/hosting/nginx.conf) in front of a real ``truco
serve --proxy 127.0.0.1`` (issue 23, item 1): clients on distinct loopback addresses
(127.0.0.2, 127.0.0.3, ...) are distinct peers to nginx, and the limits count each of them
apart; a client that goes around the proxy is counted by its own address whatever
``X-Forwarded-For`` it sends; a stranger's flood slows that stranger alone; the access log
never holds a key."""

from __future__ import annotations

import http.client
import json
import re

import pytest

import nginx_proxy
from live_server import Server
from nginx_proxy import HOST, Phone, Proxy

PAULISTA = {"variant": "paulista"}
TAP = {"type": "adjust", "side": 0, "delta": 1}


@pytest.fixture
def hosted(tmp_path):
    """``hosted(*limits, more=())``: a ``truco serve`` as docs/hosting.md's recipe runs it (https
    public URL, ``--proxy 127.0.0.1``; ``limits`` as ``--rate-limit`` values, ``more`` options) and
    nginx in front."""
    nginx_proxy.require()
    started = []

    def start(*limits: str, more: tuple[str, ...] = ()):
        args = ["--server", "granian", "--public-url", f"https://{HOST}", "--proxy", "127.0.0.1", *more]
        for limit in limits:
            args += ["--rate-limit", limit]
        server = Server(tmp_path / f"hosted{len(started)}.sqlite3", args=args)
        try:
            proxy = Proxy(server.port)
        except BaseException:
            server.stop()
            raise
        started.append((server, proxy))
        return server, proxy

    yield start
    for server, proxy in started:
        proxy.destroy()
        server.stop()


def create(phone: Phone, headers=None, **kw) -> tuple[int, dict]:
    status, body, _ = phone.request("POST", "/api/matches", PAULISTA, headers, **kw)
    return status, body


def tap(phone: Phone, match: dict, version: int, key: str | None = None) -> int:
    return phone.request("POST", f"/api/matches/{match['id']}/actions", {"action": TAP, "version": version},
                         {"X-Edit-Key": key or match["edit_key"]})[0]


def test_each_client_behind_the_proxy_has_its_own_budget(hosted):
    _server, proxy = hosted("create=2/minute")
    a, b = Phone(proxy, "127.0.0.2"), Phone(proxy, "127.0.0.3")
    status, match = create(a)
    assert status == 201 and match["edit_url"].startswith(f"https://{HOST}/m/")  # X-Forwarded-Proto believed
    assert create(a)[0] == 201
    assert create(a)[0] == 429
    # What a client writes in X-Forwarded-For is replaced by nginx: still its own count.
    assert create(a, {"X-Forwarded-For": "198.51.100.7"})[0] == 429
    assert create(b)[0] == 201  # another phone behind the same proxy: a budget of its own
    assert create(b)[0] == 201


def test_a_client_that_skips_the_proxy_is_counted_by_its_own_address(hosted):
    server, proxy = hosted("create=2/minute")
    direct = Phone(proxy, "127.0.0.4")
    statuses = [create(direct, {"X-Forwarded-For": f"198.51.100.{n}"}, direct_port=server.port)[0] for n in range(3)]
    assert statuses == [201, 201, 429]  # a made-up address per request buys nothing
    assert create(direct)[0] == 429  # through the proxy it is still 127.0.0.4
    assert create(Phone(proxy, "127.0.0.5"))[0] == 201


def test_a_stranger_flooding_wrong_keys_or_one_match_is_slowed_alone(hosted):
    _server, proxy = hosted("wrong_key=5/minute", "match_action=6/minute", "action=20/minute")
    table, stranger, other = Phone(proxy, "127.0.0.6"), Phone(proxy, "127.0.0.7"), Phone(proxy, "127.0.0.8")
    match = create(table)[1]
    flood = [tap(stranger, match, 0, key="not-the-key") for _ in range(25)]
    assert flood[:5] == [403] * 5 and set(flood[5:]) == {429}
    # The table (another address) taps on: the flood used up neither its address's budget
    # nor its match's (wrong keys never count for the match).
    assert [tap(table, match, v) for v in range(6)] == [200] * 6
    assert tap(table, match, 6) == 429  # more taps on one match than a table makes
    second = create(other)[1]
    assert [tap(other, second, v) for v in range(3)] == [200] * 3  # another match is not held up


def test_the_access_log_never_holds_a_key(hosted):
    _server, proxy = hosted()
    phone = Phone(proxy, "127.0.0.9")
    match = create(phone)[1]
    tid_status, t, _ = phone.request("POST", "/api/tournaments", {"variant": "paulista", "teams": ["A", "B", "C", "D"],
                                                                       "confirm": True})
    assert tid_status == 201
    organizer = f"/t/{t['id']}/{t['organizer_key']}"
    status, page, _ = phone.request("GET", organizer)
    assert status == 200
    team_link = re.search(rf"https://{re.escape(HOST)}(/t/{t['id']}/team/0/[^\"<\s]+)", page).group(1)
    team_key = team_link.rsplit("/", 1)[1]
    table_links = re.findall(rf"https://{re.escape(HOST)}/m/([^/\"]+)/([^/\"<\s]+)", page)
    assert table_links
    for path in (f"/m/{match['id']}/{match['edit_key']}", f"/m/{match['id']}/{match['edit_key']}/board?v=0",
                 f"{organizer}/cards", team_link, f"/m/{table_links[0][0]}/{table_links[0][1]}"):
        assert phone.request("GET", path)[0] == 200, path
    assert tap(phone, match, 0) == 200
    plain = http.client.HTTPConnection("127.0.0.1", proxy.http_port, source_address=("127.0.0.9", 0), timeout=10)
    plain.request("GET", f"/m/{match['id']}/{match['edit_key']}", headers={"Host": HOST})
    moved = plain.getresponse()
    assert moved.status == 301 and moved.getheader("Location") == f"https://{HOST}/m/{match['id']}/{match['edit_key']}"
    plain.close()
    proxy.stop()
    log = proxy.access_log()
    for key in (match["edit_key"], t["organizer_key"], team_key, table_links[0][1]):
        assert key not in log
    assert f"GET /m/{match['id']}/- HTTP/" in log and f"GET /m/{match['id']}/-/board HTTP/" in log
    assert f"GET /t/{t['id']}/- HTTP/" in log and f"GET /t/{t['id']}/-/cards HTTP/" in log
    assert f"GET /t/{t['id']}/team/0/- HTTP/" in log and " 301 " in log
    assert f"POST /api/matches/{match['id']}/actions HTTP/" in log and "127.0.0.9 " in log


def test_the_access_log_holds_no_key_however_the_path_is_spelled(hosted):
    """Issue 31, item 4: ``/%6D/<id>/<key>/board`` reaches the board (200) and was logged with
    its key. Every spelling the app answers (percent-encoded letters, doubled slashes, a key
    with an encoded character, a tournament's and a team's links spelled so), and some it
    refuses (another case, dot segments, an unknown first part), is logged without the key."""
    _server, proxy = hosted()
    phone = Phone(proxy, "127.0.0.10")
    match = create(phone)[1]
    status, t, _ = phone.request("POST", "/api/tournaments", {"variant": "paulista", "teams": ["A", "B", "C", "D"],
                                                               "confirm": True})
    assert status == 201
    page = phone.request("GET", f"/t/{t['id']}/{t['organizer_key']}")[1]
    team_key = re.search(rf"/t/{t['id']}/team/0/([^\"<\s/]+)", page).group(1)
    mid, key, tid, org = match["id"], match["edit_key"], t["id"], t["organizer_key"]
    encoded = "".join(f"%{ord(c):02X}" for c in key[:3]) + key[3:]
    answered = {
        f"/%6D/{mid}/{key}/board?version=0&rematch=0": 204,
        f"/%6d/{mid}/{key}": 200,
        f"//m//{mid}//{key}": None,
        f"/m/{mid}/{encoded}/board?version=0&rematch=0": 204,
        f"/%74/{tid}/{org}": 200,
        f"/t/{tid}/%74eam/0/{team_key}": 200,
        f"/M/{mid}/{key}": 404,
        f"/x/../m/{mid}/{key}": None,
        f"/nowhere/{mid}/{key}/board": 404,
    }
    for path, expected in answered.items():
        got = phone.request("GET", path)[0]
        assert got < 500 and (expected is None or got == expected), (path, got)
    proxy.stop()
    log = proxy.access_log()
    for secret in (key, org, team_key, key[3:]):
        assert secret not in log
    assert f"GET /m/{mid}/-/board HTTP/" in log and f"GET /t/{tid}/team/0/- HTTP/" in log
    assert f"GET /nowhere/{mid}/- HTTP/" in log


def test_serve_hands_the_proxys_headers_to_the_app(tmp_path, waitress_stub):
    """waitress drops X-Forwarded-* unless told otherwise: with ``--proxy`` it leaves them to
    the app, whose ProxyFix believes them from the named proxy only; without, it drops them."""
    from click.testing import CliRunner

    from scorer.cli.main import cli

    base = ["serve", "--port", "0", "--no-qr", "--retention-days", "0", "--db", str(tmp_path / "p.sqlite3")]
    assert CliRunner().invoke(cli, base + ["--proxy", "127.0.0.1"]).exit_code == 0
    assert waitress_stub["kw"]["clear_untrusted_proxy_headers"] is False
    assert waitress_stub["app"].config["PROXY_ADDRESSES"] == ["127.0.0.1"]
    assert CliRunner().invoke(cli, base).exit_code == 0
    assert "clear_untrusted_proxy_headers" not in waitress_stub["kw"]  # waitress's default: dropped


def test_the_proxy_refuses_one_addresss_flood_of_writes_before_truco_serve(hosted):
    """Past 240 writes a second (bursts of 480) from one address, nginx answers 429 itself;
    another address writes on. Four keep-alive connections post wrong keys as fast as they
    are answered until nginx refuses one (at most 4 x 1,500 posts)."""
    import threading

    _server, proxy = hosted()
    table = Phone(proxy, "127.0.0.11")
    match = create(table)[1]
    answers: list[tuple[int, str]] = []
    lock = threading.Lock()
    refused = threading.Event()

    def flood() -> None:  # one keep-alive connection, as fast as it goes
        conn = http.client.HTTPSConnection("127.0.0.1", proxy.https_port, context=table.context,
                                           source_address=("127.0.0.12", 0), timeout=10)
        body = b'{"action": {"type": "adjust", "side": 0, "delta": 1}, "version": 0}'
        for _ in range(1500):
            if refused.is_set():
                break
            conn.request("POST", f"/api/matches/{match['id']}/actions", body=body,
                         headers={"Host": HOST, "Content-Type": "application/json", "X-Edit-Key": "guess"})
            r = conn.getresponse()
            text = r.read().decode()
            with lock:
                answers.append((r.status, text))
            if r.status == 429 and "from this address" in text:
                refused.set()
        conn.close()

    threads = [threading.Thread(target=flood) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    by_nginx = [text for status, text in answers if status == 429 and "from this address" in text]
    reached = [status for status, text in answers if "from this address" not in text]
    assert by_nginx and len(reached) >= 480  # nginx let the burst through, then refused
    assert set(reached) <= {403, 429}  # what got through met the app's wrong-key limit
    assert tap(table, match, 0) == 200  # another address taps on


@pytest.fixture(params=["one process", "two workers sharing Redis"])
def bar_server(request, hosted):
    """The recipe's ``truco serve`` behind nginx: one process, or two granian workers whose
    limits count in one Redis (issue 31, item 3: ``--rate-limit-storage``)."""
    if request.param == "one process":
        yield hosted()
        return
    import redis_server

    redis_server.require()
    store = redis_server.RedisServer()
    try:
        yield hosted(more=("--workers", "2", "--rate-limit-storage", store.url))
    finally:
        store.stop()


def test_a_bar_behind_one_address_plays_on_through_a_guests_wrong_keys(bar_server):
    """Issue 31, items 2 and 3, through the shipped nginx and ``truco serve`` as the recipe
    runs them (default limits; one process, or two workers sharing one count in Redis): a
    bar's address opens 60 tables in under a minute; one guest there posts 100 wrong keys on
    the first (60 refused as wrong, then 429: one budget however many processes); then the
    other 59 tables, from the same address, tap at a busy bar's rate (600 tables each tapping
    every 5 s: 120 taps a second, paced as the phones would send them), each tap followed by
    a poll of its board, and open their boards: 0 refusals, from nginx or from ``truco serve``."""
    import threading
    import time

    _server, proxy = bar_server
    bar = Phone(proxy, "127.0.0.50")
    started = time.monotonic()
    made = [create(bar) for _ in range(60)]
    assert [status for status, _ in made] == [201] * 60
    assert time.monotonic() - started < 60  # 60 tables within the create limit's minute
    target, *tables = [m for _, m in made]
    guest = [tap(bar, target, 0, key="not-the-key") for _ in range(100)]
    assert guest[:60] == [403] * 60 and set(guest[60:]) == {429}
    rate, rounds, connections = 120, 10, 6  # taps a second; taps per table; the bar's connections
    answers: list[tuple[str, int]] = []
    lock = threading.Lock()
    begin = time.monotonic()

    def phones(k: int) -> None:
        mine = tables[k::connections]
        conn = http.client.HTTPSConnection("127.0.0.1", proxy.https_port, context=bar.context,
                                           source_address=("127.0.0.50", 0), timeout=30)
        sent = 0
        for version in range(rounds):
            for m in mine:
                due = begin + (sent * connections + k) / rate
                sent += 1
                time.sleep(max(0.0, due - time.monotonic()))  # the load's pace, not a synchronisation
                key = {"Host": HOST, "X-Edit-Key": m["edit_key"], "Content-Type": "application/json"}
                body = json.dumps({"action": TAP, "version": version}).encode()
                for method, path, payload, headers in (
                        ("POST", f"/api/matches/{m['id']}/actions", body, key),
                        ("GET", f"/m/{m['id']}/{m['edit_key']}/board?version={version + 1}&rematch=0", None,
                         {"Host": HOST}),
                        *((("GET", f"/m/{m['id']}/{m['edit_key']}", None, {"Host": HOST}),) if version == 0 else ())):
                    conn.request(method, path, body=payload, headers=headers)
                    r = conn.getresponse()
                    r.read()
                    with lock:
                        answers.append((method, r.status))
        conn.close()

    threads = [threading.Thread(target=phones, args=(k,)) for k in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    taps = [status for method, status in answers if method == "POST"]
    assert len(taps) == 59 * rounds and len(answers) == 59 * (2 * rounds + 1)
    assert [status for _, status in answers].count(429) == 0
    assert set(taps) == {200} and {status for method, status in answers if method == "GET"} <= {200, 204}


def flood(proxy: Proxy, addresses: list[str], count: int, method: str, path: str, body: bytes | None = None,
          headers: dict | None = None) -> list[tuple[int, str]]:
    """Each of ``addresses`` sends ``count`` requests on one keep-alive https connection, all
    at once, as fast as answered: ``(status, body)`` of every answer."""
    import threading

    answers: list[tuple[int, str]] = []
    lock = threading.Lock()
    context = Phone(proxy, addresses[0]).context

    def one(address: str) -> None:
        conn = http.client.HTTPSConnection("127.0.0.1", proxy.https_port, context=context,
                                           source_address=(address, 0), timeout=10)
        for _ in range(count):
            conn.request(method, path, body=body, headers={"Host": HOST, **(headers or {})})
            r = conn.getresponse()
            with lock:
                answers.append((r.status, r.read().decode("utf-8", "replace")))
        conn.close()

    threads = [threading.Thread(target=one, args=(a,)) for a in addresses]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return answers


def by_nginx(answers: list[tuple[int, str]]) -> list[int]:
    """The statuses nginx answered itself (its 429 page), and the ones truco serve did."""
    return [status for status, text in answers if status == 429 and "from this address, or for this match" in text]


def test_the_proxy_refuses_one_addresss_polls_flooding_one_match(hosted):
    """One address's reads of one match past 50 a second (bursts of 200) get nginx's 429;
    the table's own phones poll that match on, and the flooder's other matches too."""
    _server, proxy = hosted()
    table = Phone(proxy, "127.0.0.14")
    match, other = create(table)[1], create(table)[1]
    poll = "/m/{id}/{edit_key}/board?version=0&rematch=0"
    answers = flood(proxy, ["127.0.0.30"] * 4, 100, "GET", poll.format(**match))
    assert len(answers) == 400 and by_nginx(answers)
    assert {s for s, text in answers if "or for this match" not in text} == {204}
    assert table.request("GET", poll.format(**match))[0] == 204  # the table's phone, another address
    assert Phone(proxy, "127.0.0.30").request("GET", poll.format(**other))[0] == 204


def test_the_proxy_refuses_one_addresss_flood_of_heavy_reads(hosted):
    """Exports, statistics, state and TV reads from one address past 20 a second (bursts of
    100) get nginx's 429 (truco serve's own read limits are off here, so every 429 is
    nginx's); another address reads on."""
    _server, proxy = hosted("read=off", "match_read=off")
    table = Phone(proxy, "127.0.0.15")
    match = create(table)[1]
    answers = flood(proxy, ["127.0.0.40"] * 3, 100, "GET", f"/api/matches/{match['id']}/export")
    assert len(answers) == 300 and by_nginx(answers)
    assert {s for s, text in answers if "or for this match" not in text} == {200}
    assert table.request("GET", f"/api/matches/{match['id']}/export")[0] == 200
