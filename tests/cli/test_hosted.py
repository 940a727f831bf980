"""``truco serve --server gunicorn`` (scorer/cli/hosted.py) and ``--server granian``
(scorer/cli/granian_server.py): the hosted recipe's servers, for real."""

from __future__ import annotations

import http.client
import json
import re
import urllib.parse

import pytest

from scorer.cli import granian_server, hosted

#: The hosted servers: each test that runs one runs both.
HOSTED = ["gunicorn", "granian"]
VERSION = re.compile(rb'data-version="(\d+)"')


def request(conn, method, path, body=None, headers=None):
    """``(status, body bytes, response)`` of one request on the keep-alive ``conn``."""
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    return r.status, r.read(), r


@pytest.mark.parametrize("name", HOSTED)
@pytest.mark.parametrize("shortcut", [["--no-poll-shortcut"], []], ids=["app", "poll-shortcut-by-default"])
def test_a_hosted_server_serves_a_board_records_a_tap_and_answers_an_unchanged_poll_with_204(db_url, shortcut,
                                                                                            name):
    """Two workers on one port, on SQLite and PostgreSQL, with and without the poll
    shortcut: the scoreboard page, a tap (the htmx form post, answered with the new board),
    then the phones' polls: 204 while nothing changed, on the same kept-alive connection,
    the new board for a phone that shows an older version."""
    from live_server import Server

    server = Server(db_url, args=["--server", name, "--workers", "2", *shortcut])
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        assert any(f"{name} worker" in line for line in server.output)
        status, body, _ = request(conn, "POST", "/api/matches", json.dumps({"variant": "paulista"}),
                                  {"Content-Type": "application/json"})
        assert status == 201
        made = json.loads(body)
        board = f"/m/{made['id']}/{made['edit_key']}"
        status, page, _ = request(conn, "GET", board)
        assert status == 200 and b'id="score0"' in page and b"data-action" in page
        form = urllib.parse.urlencode({"version": "0", "action": json.dumps({"type": "hand_winner", "side": 0})})
        status, fragment, _ = request(conn, "POST", board + "/actions", form, {
            "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"})
        assert status == 200 and VERSION.search(fragment).group(1) == b"1"
        sock = conn.sock
        for _ in range(3):
            status, body, r = request(conn, "GET", board + "/board?version=1&rematch=0", headers={"HX-Request": "true"})
            assert (status, body) == (204, b"") and r.getheader("Connection") != "close"
            assert conn.sock is sock  # the connection stays open for the next poll
        status, body, _ = request(conn, "GET", board + "/board?version=0&rematch=0", headers={"HX-Request": "true"})
        assert status == 200 and VERSION.search(body).group(1) == b"1"
        status, state, _ = request(conn, "GET", f"/api/matches/{made['id']}")
        assert status == 200 and json.loads(state)["score"] == [1, 0]
    finally:
        conn.close()
        server.stop()


@pytest.mark.parametrize(
    ("proxies", "trusted"),
    [
        ((), ""),  # gunicorn's own default would trust 127.0.0.1 and ::1
        (("127.0.0.1",), "127.0.0.1/32"),
        (("10.0.0.7/24", "::1"), "10.0.0.0/24,::1/128"),
    ],
)
def test_gunicorn_believes_forwarded_headers_only_from_the_proxies_named(proxies, trusted):
    options = hosted.gunicorn_options("127.0.0.1", 0, 2, 8, 4096, proxies)
    assert options["forwarded_allow_ips"] == trusted
    assert (options["worker_class"], options["workers"], options["threads"]) == ("gthread", 2, 8)
    assert options["worker_connections"] == 4096 and options["keepalive"] > 2  # a phone keeps its connection
    assert options["accesslog"] is None  # edit keys travel in URL paths


def test_gunicorn_binds_ipv6_hosts_in_brackets():
    assert hosted.gunicorn_options("::1", 8000, 1, 8, 4096, ())["bind"] == ["[::1]:8000"]


def test_granian_serves_http1_with_keep_alive_and_no_access_log():
    options = granian_server.granian_options("127.0.0.1", 0, 2, 8)
    assert (options["workers"], options["blocking_threads"], options["interface"].value) == (2, 8, "wsgi")
    assert options["http"].value == "1" and options["http1_settings"].keep_alive  # a phone keeps its connection
    assert options["log_access"] is False  # edit keys travel in URL paths
    assert options["respawn_failed_workers"]  # a worker that dies is started again


def test_granian_workers_take_the_lowest_free_slot():
    """A worker started in place of one that died takes its slot (its metrics port, and
    pruning for slot 0); a living worker's slot is never given twice."""
    import os
    import subprocess
    import sys

    slots = granian_server.Slots(4)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert slots.take(os.getpid()) == 0
    assert slots.take(gone.pid) == 1  # a worker that then died
    assert slots.take(os.getppid()) == 1  # its slot, given again; slot 0's holder lives
    assert [slots.take(os.getpid()) for _ in range(2)] == [2, 3]
    with pytest.raises(RuntimeError):
        slots.take(os.getpid())


@pytest.mark.parametrize("name", HOSTED)
def test_the_first_hosted_worker_prunes_idle_matches_at_start(tmp_path, name):
    """``--retention-days`` on gunicorn and granian: one worker (the first) deletes the idle
    series at start, as waitress's worker 0 does; a live match stays."""
    import time

    from live_server import Server

    from scorer.app import store

    path = tmp_path / "prune.sqlite3"
    db = store.connect(path)
    store.init_db(db)
    old = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
    live = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
    db.execute("UPDATE match SET updated = updated - 40 * 86400 WHERE id = :id", {"id": old.id})
    db.close()
    store.dispose_all()
    server = Server(path, args=["--server", name, "--workers", "2", "--retention-days", "30"])
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        deadline = time.monotonic() + 15
        status = 200
        while status == 200 and time.monotonic() < deadline:  # each try is a real request
            status, _, _ = request(conn, "GET", f"/api/matches/{old.id}")
        assert status == 404
        assert request(conn, "GET", f"/api/matches/{live.id}")[0] == 200
    finally:
        conn.close()
        server.stop()


@pytest.mark.parametrize("name", HOSTED)
def test_a_hosted_server_counts_each_client_the_trusted_proxy_names(tmp_path, name):
    """Behind ``--proxy 127.0.0.1`` on gunicorn and granian, the limits count the address the
    proxy reports (``X-Forwarded-For``), and https from ``X-Forwarded-Proto`` gives HSTS."""
    from live_server import Server

    server = Server(tmp_path / "proxy.sqlite3", args=[
        "--server", name, "--proxy", "127.0.0.1", "--public-url", "https://truco.example",
        "--rate-limit", "create=2/minute"])
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    body = json.dumps({"variant": "paulista"})

    def create(client: str):
        return request(conn, "POST", "/api/matches", body, {
            "Content-Type": "application/json", "Host": "truco.example",
            "X-Forwarded-For": client, "X-Forwarded-Proto": "https"})

    try:
        first = [create("198.51.100.7") for _ in range(3)]
        assert [s for s, _, _ in first] == [201, 201, 429]
        assert first[0][2].getheader("Strict-Transport-Security")
        assert create("198.51.100.8")[0] == 201  # another client behind the same proxy
    finally:
        conn.close()
        server.stop()


@pytest.mark.parametrize(("args", "shortcut"), [
    (["--server", "gunicorn"], True),  # the hosted recipe: on
    (["--server", "gunicorn", "--no-poll-shortcut"], False),
    (["--server", "granian"], True),
    (["--server", "granian", "--no-poll-shortcut"], False),
    ([], False),  # the laptop's waitress: off
    (["--poll-shortcut"], True),
])
def test_the_poll_shortcut_is_on_for_the_hosted_server_and_off_for_the_laptop(tmp_path, monkeypatch,
                                                                                waitress_stub, args, shortcut):
    from click.testing import CliRunner

    from scorer.cli.main import cli

    seen = {}
    monkeypatch.setattr(hosted, "serve", lambda *a, **kw: seen.setdefault("config", a[4]))
    monkeypatch.setattr(granian_server, "serve", lambda *a, **kw: seen.setdefault("config", a[4]))
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--no-qr", "--retention-days", "0",
                                      "--db", str(tmp_path / "s.sqlite3"), *args])
    assert result.exit_code == 0, result.output
    config = seen["config"] if "config" in seen else waitress_stub["app"].config
    assert bool(config["POLL_SHORTCUT"]) is shortcut


def two_free_ports() -> int:
    """A port P of 127.0.0.1 such that P and P+1 were free a moment ago, below Linux's
    ephemeral range (so no outgoing connection takes P+1 meanwhile)."""
    import random
    import socket

    for base in random.sample(range(20000, 32000, 2), 200):
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", base))
                b.bind(("127.0.0.1", base + 1))
            return base
        except OSError:
            continue
    raise RuntimeError("no two free ports in a row")


@pytest.mark.parametrize("name", HOSTED)
def test_hosted_workers_serve_their_metrics_on_their_slots_port(tmp_path, name):
    """``--metrics-port P --workers 2`` on granian and gunicorn (where it once did nothing:
    issue 31, item 4): worker slots 0 and 1 serve their metrics on 127.0.0.1:P and P+1, as
    waitress's workers do."""
    from live_server import Server

    base = two_free_ports()
    server = Server(tmp_path / "metrics.sqlite3",
                    args=["--server", name, "--workers", "2", "--metrics-port", str(base)])
    try:
        seen = {line.strip() for line in server.output if line.startswith("Metrics on")}
        while len(seen) < 2:
            seen.add(server._pump.wait_for(lambda line: line.startswith("Metrics on") and line.strip(), 20,
                                           "the second worker's metrics"))
        assert seen == {f"Metrics on http://127.0.0.1:{base + i}/metrics" for i in (0, 1)}
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        assert request(conn, "GET", "/healthz")[0] == 200
        conn.close()
        pages = []
        for port in (base, base + 1):
            metrics = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            pages.append(request(metrics, "GET", "/metrics")[1].decode())
            metrics.close()
        assert all("truco_requests_total" in page for page in pages)
    finally:
        server.stop()


def test_a_taken_metrics_port_stops_gunicorn_with_a_clear_message(tmp_path):
    """A worker that cannot serve its metrics stops the server (gunicorn's arbiter halts on a
    worker that cannot start) with the reason, instead of running without them."""
    import socket
    import subprocess
    import sys
    from pathlib import Path

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        truco = Path(sys.executable).with_name("truco")
        done = subprocess.run([str(truco), "serve", "--server", "gunicorn", "--host", "127.0.0.1", "--port", "0",
                               "--no-qr", "--retention-days", "0", "--db", str(tmp_path / "taken.sqlite3"),
                               "--metrics-port", str(port)], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert f"--metrics-port: cannot listen on 127.0.0.1:{port}" in done.stdout + done.stderr
