"""Limits shared by several app processes (issue 31, item 3): two ``truco serve`` processes on
one database and one Redis (Debian's ``redis-server``, started on a free loopback port by
``tests/redis_server.py``) with ``--rate-limit-storage redis://...`` give a client one budget
between them, where without it each process counts alone (docs/hosting.md). Clients on their
own loopback addresses (127.0.0.N), straight to each process; a public URL, so loopback is
not exempt."""

from __future__ import annotations

import http.client
import json

import pytest

import redis_server
from live_server import Server

HOST = "truco.example"
TAP = {"type": "adjust", "side": 0, "delta": 1}


@pytest.fixture
def redis_url():
    redis_server.require()
    server = redis_server.RedisServer()
    yield server
    server.stop()


@pytest.fixture
def servers(tmp_path):
    """``servers(*args)``: two ``truco serve`` on one SQLite file with the same options."""
    started: list[Server] = []

    def start(*args: str) -> tuple[Server, Server]:
        db = tmp_path / f"shared{len(started)}.sqlite3"
        options = ["--public-url", f"https://{HOST}", *args]
        for _ in range(2):
            started.append(Server(db, args=options))
        return started[-2], started[-1]

    yield start
    for server in started:
        server.stop()


def ask(server: Server, address: str, method: str, path: str, body=None, headers=None) -> tuple[int, dict | str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, source_address=(address, 0), timeout=10)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Host": HOST, "Content-Type": "application/json",
                                                       **(headers or {})})
        r = conn.getresponse()
        text = r.read().decode()
        return r.status, (json.loads(text) if r.getheader("Content-Type", "").startswith("application/json") else text)
    finally:
        conn.close()


def create(server: Server, address: str) -> tuple[int, dict | str]:
    return ask(server, address, "POST", "/api/matches", {"variant": "paulista"})


LIMITS = ("--rate-limit", "create=4/minute", "--rate-limit", "wrong_key=3/minute")


def test_two_processes_share_one_budget_through_redis(servers, redis_url):
    a, b = servers(*LIMITS, "--rate-limit-storage", redis_url.url)
    # One client's creations, alternately on each process: 4 in all, not 4 each.
    made = [create(server, "127.0.0.61")[0] for server in (a, b) * 3]
    assert made == [201] * 4 + [429] * 2
    assert create(a, "127.0.0.62")[0] == 201  # another client has its own budget
    # A guest's wrong keys on one match, alternately: 3 in all, then 429 from both.
    match = create(b, "127.0.0.62")[1]
    wrong = [ask(server, "127.0.0.63", "POST", f"/api/matches/{match['id']}/actions", {"action": TAP, "version": 0},
                 {"X-Edit-Key": "guess"})[0] for server in (a, b) * 3]
    assert wrong == [403] * 3 + [429] * 3
    # The store stops: each process counts alone meanwhile, and nobody gets a 500.
    redis_url.stop()
    assert create(a, "127.0.0.64")[0] == 201
    assert ask(b, "127.0.0.64", "POST", f"/api/matches/{match['id']}/actions", {"action": TAP, "version": 0},
               {"X-Edit-Key": match["edit_key"]})[0] == 200


def test_without_a_shared_store_each_process_counts_alone(servers):
    """What docs/hosting.md says of ``memory://`` (the default): with N processes a client
    gets up to N budgets."""
    a, b = servers(*LIMITS)
    made = [create(server, "127.0.0.65")[0] for server in (a, b) * 5]
    assert made == [201] * 8 + [429] * 2


def test_serve_refuses_a_store_it_cannot_use_or_reach(tmp_path):
    from click.testing import CliRunner

    from scorer.cli.main import cli

    base = ["serve", "--port", "0", "--no-qr", "--lang", "en", "--db", str(tmp_path / "s.sqlite3")]
    unknown = CliRunner().invoke(cli, [*base, "--rate-limit-storage", "nowhere://x"])
    assert unknown.exit_code == 2 and "nowhere://x cannot be used" in unknown.output
    away = CliRunner().invoke(cli, [*base, "--rate-limit-storage", "redis://user:secret@127.0.0.1:1"])
    assert away.exit_code == 1 and "Cannot reach the rate-limit storage redis://127.0.0.1:1" in away.output
    assert "secret" not in away.output
