"""`truco serve`: addresses from the interface list, waitress, the terminal QR."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from scorer.app import addresses
from scorer.cli import serve
from scorer.cli.main import cli


def adapter(*ips):
    return SimpleNamespace(ips=[SimpleNamespace(ip=ip) for ip in ips])


@pytest.fixture
def interfaces(monkeypatch):
    import ifaddr

    fake = [adapter("127.0.0.1", ("::1", 0, 0)), adapter("203.0.113.5", "192.168.1.20", ("fe80::1", 0, 2)),
            adapter("169.254.3.3", "192.168.1.20")]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: fake)


def test_lan_addresses_skip_loopback_and_link_local_private_first(interfaces):
    assert addresses.lan_addresses() == ["192.168.1.20", "203.0.113.5"]


@pytest.mark.parametrize(
    ("host", "port", "public", "expected"),
    [
        ("0.0.0.0", 8000, None, ["http://192.168.1.20:8000", "http://203.0.113.5:8000"]),
        ("127.0.0.1", 8123, None, ["http://127.0.0.1:8123"]),
        ("::1", 80, None, ["http://[::1]:80"]),
        ("0.0.0.0", 8000, "https://truco.example/", ["https://truco.example"]),
    ],
)
def test_urls_for(interfaces, host, port, public, expected):
    assert serve.urls_for(host, port, public) == expected


def test_no_interfaces_falls_back_to_loopback(monkeypatch):
    import ifaddr

    monkeypatch.setattr(ifaddr, "get_adapters", lambda: [])
    assert serve.urls_for("0.0.0.0", 8000) == ["http://127.0.0.1:8000"]


def test_serve_runs_waitress_and_prints_address_and_qr(interfaces, waitress_stub, tmp_path):
    calls = waitress_stub
    db = tmp_path / "sub" / "t.sqlite3"
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(db)])
    assert result.exit_code == 0, result.output
    # Hundreds of phones stay connected at once: more than waitress's default 100
    # connections, and poll() rather than select() (which fails past 1,024 descriptors);
    # no "Server:" header on every response (ident ""); a body over the app's 64 KiB cap
    # is refused by waitress before it is read (issue 12).
    assert calls["kw"] == {"host": "0.0.0.0", "port": 0, "threads": 8,
                           "connection_limit": 4096, "asyncore_use_poll": True, "ident": "",
                           "max_request_body_size": 64 * 1024}
    assert calls["ran"] and calls["closed"]
    assert calls["app"].config["DATABASE"] == str(db.resolve())
    assert db.exists()  # created if missing
    assert "http://192.168.1.20:8765/" in result.output
    assert "█" in result.output or "▀" in result.output  # the QR code


def test_serve_help_lists_the_options():
    result = CliRunner().invoke(cli, ["serve", "--help"])
    for option in ("--host", "--port", "--db", "--public-url"):
        assert option in result.output


def test_serve_on_a_busy_port_says_so_without_a_traceback(tmp_path):
    """Found by a first-time user: a second ``truco serve`` on the same port printed a traceback."""
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        # Issue 13 item 7: messages follow the locale (pt without one); here an English one.
        result = CliRunner().invoke(
            cli, ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "t.sqlite3"), "--no-qr"],
            env={"LC_ALL": "en_US.UTF-8"},
        )
        pt = CliRunner().invoke(
            cli, ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "t.sqlite3"), "--no-qr",
                  "--lang", "pt"],
        )
    assert result.exit_code == 1
    assert "Cannot listen on 127.0.0.1:" in result.output and "Traceback" not in result.output
    assert pt.exit_code == 1 and "Não foi possível escutar em 127.0.0.1:" in pt.output


def test_workers_that_die_at_once_stop_serve_instead_of_looping(capfd):
    """``--workers``: a worker that fails right after starting (a broken setting) is not
    started again forever; after a few in a row ``truco serve`` stops and says so."""
    import signal
    import socket

    import click
    import pytest

    from scorer.cli import serve

    def broken(_index):
        raise RuntimeError("broken setting")

    handlers = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    sock = socket.create_server(("127.0.0.1", 0))
    try:
        with pytest.raises(click.ClickException, match="stopped right after starting"):
            serve.run_workers(2, sock, broken)
    finally:
        sock.close()
        signal.signal(signal.SIGTERM, handlers[0])
        signal.signal(signal.SIGINT, handlers[1])
    assert "broken setting" in capfd.readouterr().err


# ------------------------------------------------------------ the connections of a real truco serve


def open_match(conn):
    """Create a match through the JSON API on ``conn``; ``(id, edit key)``."""
    import json

    body = json.dumps({"variant": "paulista", "options": {}, "names": ["Nós", "Eles"], "mano": 0})
    conn.request("POST", "/api/matches", body=body, headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    made = json.loads(r.read())
    assert r.status == 201, made
    return made["id"], made["edit_key"]


def poll(conn, match_id, key, version, **headers):
    """An htmx scoreboard poll on ``conn`` showing ``version``: ``(status, body, response)``."""
    conn.request("GET", f"/m/{match_id}/{key}/board?version={version}&rematch=0", headers={"HX-Request": "true", **headers})
    r = conn.getresponse()
    return r.status, r.read(), r


def test_an_unchanged_poll_keeps_its_connection_open(tmp_path):
    """A phone polls every second or two: the 204 of an unchanged scoreboard keeps the
    HTTP/1.1 connection open for the next poll (waitress by itself closes it, as the 204
    has no Content-Length), the fragment after it comes on the same connection, and a
    client that asks to close gets it closed."""
    import http.client

    from live_server import Server

    server = Server(tmp_path / "keep.sqlite3")
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        match_id, key = open_match(conn)
        sock = conn.sock
        for _ in range(3):
            status, body, r = poll(conn, match_id, key, 0)
            assert (status, body, r.getheader("Connection")) == (204, b"", None)
            assert conn.sock is sock  # http.client drops the socket when told it closes
        status, body, r = poll(conn, match_id, key, 7)  # a version this phone cannot show: the fragment
        assert status == 200 and b'id="scoreboard"' in body and conn.sock is sock
        status, body, r = poll(conn, match_id, key, 0, Connection="close")
        assert (status, r.getheader("Connection")) == (204, "close")
        assert conn.sock is None
        conn.close()
    finally:
        server.stop()


def worker_holding(port: int, client_sock, pids) -> int | None:
    """Which of ``pids`` holds the server end of the TCP connection ``client_sock`` (from /proc)."""
    import os

    theirs = f"0100007F:{port:04X}", f"0100007F:{client_sock.getsockname()[1]:04X}"
    with open("/proc/net/tcp") as f:
        inodes = {line.split()[9] for line in f.read().splitlines()[1:] if tuple(line.split()[1:3]) == theirs}
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}")[8:-1] in inodes:
                    return pid
            except OSError:
                continue
    return None


def test_two_workers_on_one_port_each_see_the_others_actions_at_once(db_url):
    """``--workers 2`` runs two processes on one port, each with its own cache of replayed
    matches: a phone's connection stays with one worker, and an action through one worker
    is on the other's very next poll (and its next unchanged poll is a 204), every time,
    both ways; the actions end up stored once each, in order."""
    import http.client
    import json
    import re

    from live_server import Server, stored

    server = Server(db_url, args=["--workers", "2"])
    try:
        workers: list[int] = []
        for _ in range(1000):  # the workers are forked after "Listening on" is printed
            with open(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children") as f:
                workers = [int(p) for p in f.read().split()]
            if len(workers) == 2:
                break
            threading_wait(0.01)
        assert len(workers) == 2
        by_worker: dict[int, http.client.HTTPConnection] = {}
        for _ in range(200):  # the kernel hands each new connection to one of them
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.connect()
            holder = None
            for _try in range(50):  # accepted a moment after connect() returns
                holder = worker_holding(server.port, conn.sock, workers)
                if holder:
                    break
                threading_wait(0.01)
            if holder and holder not in by_worker:
                by_worker[holder] = conn
            else:
                conn.close()
            if len(by_worker) == 2:
                break
        assert len(by_worker) == 2, "the second worker never accepted a connection"
        a, b = by_worker.values()
        match_id, key = open_match(a)
        version = 0
        for n in range(12):
            acting, watching = (a, b) if n % 2 == 0 else (b, a)
            assert poll(watching, match_id, key, version)[0] == 204  # this worker has the match cached
            body = json.dumps({"action": {"type": "adjust", "side": n % 2, "delta": 1}, "version": version})
            acting.request("POST", f"/api/matches/{match_id}/actions", body=body,
                           headers={"Content-Type": "application/json", "X-Edit-Key": key})
            r = acting.getresponse()
            assert r.status == 200 and json.loads(r.read())["version"] == version + 1
            status, fragment, _ = poll(watching, match_id, key, version)
            assert status == 200 and re.search(rb'data-version="(\d+)"', fragment).group(1) == str(version + 1).encode()
            version += 1
            assert poll(watching, match_id, key, version)[0] == 204
        for conn in (a, b):
            assert worker_holding(server.port, conn.sock, workers) in workers  # still the same connections
            conn.close()
        assert [body["delta"] for _seq, body in sorted(stored(db_url, match_id).items())] == [1] * 12
    finally:
        server.stop()


def threading_wait(seconds: float) -> None:
    """Wait ``seconds`` between two looks at /proc (a poll interval, not a synchronisation)."""
    import threading

    threading.Event().wait(seconds)


def test_serve_raises_the_open_files_limit_to_its_connection_limit():
    """Each phone holds a connection (a descriptor) between polls: the soft limit of open
    files is raised to waitress's connection limit and some, within the hard limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, soft), hard))
        wanted = serve.CONNECTION_LIMIT + 256
        expected = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        assert serve.allow_open_files() == expected
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (expected, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
