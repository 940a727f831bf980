"""Push through the shipped nginx (issue 34; docs/hosting.md, "Push"): a real nginx with its
push module (Debian's libnginx-mod-nchan) running docs/hosting/nginx.conf, real ``truco serve``
processes publishing to it. A phone's stream, read here as a browser's EventSource reads it,
hears a ping and then ``changed`` after another phone's tap, also when the tap went to another
app process; without ``--push-publish`` the board opens no stream (the laptop polls)."""

from __future__ import annotations

import http.client
import json
import re
import ssl
from urllib.parse import urlencode

import pytest

import nginx_proxy
from live_server import Server
from nginx_proxy import HOST, Phone, Proxy

TAP = {"type": "adjust", "side": 0, "delta": 1}


@pytest.fixture
def pushed(db_url):
    """``pushed(count, args)``: ``count`` truco serve processes (with more ``args``) on one database
    (SQLite, and the hosted recipe's PostgreSQL), each publishing to nginx's push publisher, and
    nginx in front of them (pings every second)."""
    nginx_proxy.require()
    started: list = []
    yield lambda count=1, args=(): nginx_proxy.pushed_servers(db_url, count, 1, started, server_args=args)
    nginx_proxy.stop_all(started)


class Stream:
    """A phone's push stream through the proxy, read line by line (a socket read with a
    timeout: waiting on the next event, never on a clock)."""

    def __init__(self, proxy: Proxy, ident: str, address: str = "127.0.0.9", path: str = "m") -> None:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        self.conn = http.client.HTTPSConnection("127.0.0.1", proxy.https_port, context=context,
                                                source_address=(address, 0), timeout=30)
        self.conn.request("GET", f"/push/{path}/{ident}", headers={"Host": HOST, "Accept": "text/html, text/event-stream",
                                                                  "HX-Request": "true"})
        self.response = self.conn.getresponse()

    def next_event(self) -> str:
        """The name of the next event (``ping``, ``changed``)."""
        while True:
            line = self.response.fp.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            if line.startswith("event:"):
                return line.split(":", 1)[1].strip()

    def wait_for(self, name: str, limit: int = 50) -> None:
        """Read events until ``name`` (at most ``limit`` others first)."""
        for _ in range(limit):
            if self.next_event() == name:
                return
        raise AssertionError(f"no {name} in {limit} events")

    def close(self) -> None:
        self.conn.close()


def new_match(phone: Phone) -> dict:
    status, body, _ = phone.request("POST", "/api/matches", {"variant": "paulista"})
    assert status == 201, body
    return body


def tap(phone: Phone, match: dict, version: int, direct_port: int | None = None) -> None:
    status, body, _ = phone.request("POST", f"/api/matches/{match['id']}/actions", {"action": TAP, "version": version},
                                    {"X-Edit-Key": match["edit_key"]}, direct_port=direct_port)
    assert status == 200, body


def test_a_phones_stream_hears_pings_then_the_other_phones_tap(pushed):
    (server,), proxy = pushed()
    phone = Phone(proxy, "127.0.0.2")
    match = new_match(phone)
    stream = Stream(proxy, match["id"])
    try:
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
        stream.wait_for("ping")  # the stream is alive: the phone trusts it (static/js/push.js)
        tap(Phone(proxy, "127.0.0.3"), match, 0)
        stream.wait_for("changed")
    finally:
        stream.close()


def test_two_app_processes_deliver_each_others_changes(pushed):
    """Taps recorded by either process reach the phones nginx holds (each process publishes)."""
    servers, proxy = pushed(2)
    phone = Phone(proxy, "127.0.0.2")
    match = new_match(phone)
    stream = Stream(proxy, match["id"])
    try:
        stream.wait_for("ping")
        for version, server in enumerate(servers):
            tap(phone, match, version, direct_port=server.port)
            stream.wait_for("changed")
    finally:
        stream.close()


def requests_seen(server: Server, route: str) -> float:
    """How many requests of ``route`` (its URL rule) ``server`` answered, from its metrics."""
    port = int(re.search(r"Metrics on http://127\.0\.0\.1:(\d+)", "".join(server.output)).group(1))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    return sum(float(n) for n in re.findall(rf'^truco_requests_total{{[^}}]*route="{re.escape(route)}"[^}}]*}} (\S+)$',
                                            text, re.M))


def test_a_tables_requests_all_reach_one_app_process(pushed):
    """nginx sends every request of a match to one app process (docs/hosting/nginx.conf hashes
    its id), so the board a tap renders is kept where the table's other phones ask for it next;
    each match is counted by one process only."""
    servers, proxy = pushed(2, ("--metrics-port", "0"))
    phone = Phone(proxy, "127.0.0.2")
    routes = ["/m/<match_id>/<key>/actions", "/m/<match_id>/<key>/board"]
    for _ in range(4):
        match = new_match(phone)
        before = [[requests_seen(server, route) for route in routes] for server in servers]
        board = f"/m/{match['id']}/{match['edit_key']}"
        status, _, _ = phone.request("POST", board + "/actions", urlencode({"action": json.dumps(TAP), "version": 0}).encode(),
                                     {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"})
        assert status == 200
        for _ in range(3):  # the table's other phones, told by their streams
            assert phone.request("GET", board + "/board?version=0&rematch=0", headers={"HX-Request": "true"})[0] == 200
        seen = [[requests_seen(server, route) - was for route, was in zip(routes, old)]
                for server, old in zip(servers, before)]
        assert sorted(seen) == [[0, 0], [1, 3]], seen


def test_a_board_opens_its_stream_only_where_push_is_on(pushed, tmp_path):
    (server,), proxy = pushed()
    phone = Phone(proxy, "127.0.0.2")
    match = new_match(phone)
    status, html, _ = phone.request("GET", f"/m/{match['id']}/{match['edit_key']}")
    assert status == 200 and f'data-stream="/push/m/{match["id"]}"' in html and 'data-ping="1"' in html
    status, html, _ = phone.request("GET", f"/w/{match['id']}")
    assert status == 200 and f'data-stream="/push/m/{match["id"]}"' in html
    laptop = Server(tmp_path / "laptop.sqlite3")  # truco serve as README starts it: no push, the phones poll
    try:
        conn = http.client.HTTPConnection("127.0.0.1", laptop.port, timeout=10)
        conn.request("POST", "/api/matches", body=b'{"variant": "paulista"}', headers={"Content-Type": "application/json"})
        made = json.loads(conn.getresponse().read())
        conn.request("GET", f"/m/{made['id']}/{made['edit_key']}")
        page = conn.getresponse().read().decode()
        conn.close()
        assert "data-stream" not in page and "hx-sse" not in page and 'id="push"' not in page and 'hx-trigger="every 1s' in page
    finally:
        laptop.stop()


def test_a_stream_for_a_path_that_is_no_match_id_is_refused(pushed):
    (_server,), proxy = pushed()
    status, _body, _ = Phone(proxy, "127.0.0.2").request("GET", "/push/m/" + "x" * 80)
    assert status == 404


def test_the_tv_hears_its_tournaments_table_and_the_organizer_page_opens_its_stream(pushed):
    """A tap on a tournament table reaches its TV's stream (the TV and organizer listen on the
    tournament's channel, ``t-<id>``)."""
    (_server,), proxy = pushed()
    phone = Phone(proxy, "127.0.0.2")
    status, t, _ = phone.request("POST", "/api/tournaments", {"variant": "paulista", "teams": ["A", "B", "C", "D"]})
    assert status == 201, t
    status, html, _ = phone.request("GET", f"/tv/{t['id']}")
    assert status == 200 and f'data-stream="/push/t/{t["id"]}"' in html and 'data-target="tv-board"' in html
    status, html, _ = phone.request("GET", t["organizer_url"].split(HOST, 1)[-1])
    assert status == 200 and f'data-stream="/push/t/{t["id"]}"' in html and 'data-target="changed"' in html
    status, state, _ = phone.request("GET", f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]})
    assert status == 200, state
    first_round = state["rounds"][0]["matches"]
    match_id, key = next(m["edit_url"] for m in first_round if m.get("edit_url")).rstrip("/").split("/")[-2:]
    stream = Stream(proxy, t["id"], path="t")
    try:
        stream.wait_for("ping")
        status, body, _ = phone.request("POST", f"/api/matches/{match_id}/actions", {"action": TAP, "version": 0},
                                        {"X-Edit-Key": key})
        assert status == 200, body
        stream.wait_for("changed")
    finally:
        stream.close()


def test_a_table_whose_app_process_stops_is_served_by_the_other(pushed):
    """A server that stops answering has its tables moved to the others (docs/hosting/nginx.conf,
    ``hash ... consistent``): the table's next tap, through nginx, is recorded by the other
    process, its board answers, and its phones' streams still hear the change."""
    servers, proxy = pushed(2, ("--metrics-port", "0"))
    phone = Phone(proxy, "127.0.0.2")
    match = new_match(phone)
    tap(phone, match, 0)
    route = "/api/matches/<match_id>/actions"
    (serving,) = [server for server in servers if requests_seen(server, route) == 1]
    (other,) = [server for server in servers if server is not serving]
    stream = Stream(proxy, match["id"])
    try:
        stream.wait_for("ping")
        serving.stop()
        tap(phone, match, 1)
        stream.wait_for("changed")
        assert requests_seen(other, route) == 1
        status, body, _ = phone.request("GET", f"/api/matches/{match['id']}")
        assert status == 200 and body["version"] == 2, body
    finally:
        stream.close()
