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


def test_serve_runs_waitress_and_prints_address_and_qr(interfaces, monkeypatch, tmp_path):
    import waitress

    calls = {}

    class FakeServer:
        effective_port = 8765

        def run(self):
            calls["ran"] = True

        def close(self):
            calls["closed"] = True

    def create_server(app, **kw):
        calls["app"], calls["kw"] = app, kw
        return FakeServer()

    monkeypatch.setattr(waitress, "create_server", create_server)
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
