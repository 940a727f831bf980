"""Operating it like a service (issue 23 item 8), on real ``truco serve`` processes:
``/healthz`` (200, then 503 with PostgreSQL stopped, never rate-limited), the metrics on
their own loopback port (Prometheus text, routes without keys, absent from the public
port), logs that never hold a key, and the backup and restore recipe (docs/hosting.md) (a SQLite file
backed up while it serves, a PostgreSQL dump), each restored with every link working.
"""

from __future__ import annotations

import http.client
import logging
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import pg_cluster
from live_server import Client, Server
from project_docs import section
from scorer.web import create_app

METRICS = re.compile(r"Metrics on http://127\.0\.0\.1:(\d+)/metrics")


def get(port, path, headers=None):
    c = Client(port)
    try:
        return c.request("GET", path, headers=headers)
    finally:
        c.close()


def post(port, path, body, headers=None):
    c = Client(port)
    try:
        return c.request("POST", path, body, headers)
    finally:
        c.close()


def local(url: str) -> str:
    """The path of a link the server gave (its host is the public base)."""
    return re.sub(r"^https?://[^/]+", "", url)


def a_table_and_a_tournament(port):
    """A match with one action and a tournament whose teams confirm results; their links."""
    status, match, _ = post(port, "/api/matches", {"variant": "paulista", "names": ["Nós", "Eles"]})
    assert status == 201
    status, _s, _ = post(port, f"/api/matches/{match['id']}/actions",
                         {"action": {"type": "call", "side": 0, "call": "truco"}, "version": 0},
                         {"X-Edit-Key": match["edit_key"]})
    assert status == 200
    status, tournament, _ = post(port, "/api/tournaments",
                                 {"variant": "truco-15", "teams": ["A", "B", "C", "D"], "confirm": True})
    assert status == 201
    status, page, _ = get(port, local(tournament["organizer_url"]))
    assert status == 200
    team_links = re.findall(r'href="([^"]*/team/\d+/[^"]+)"', page)
    assert len(team_links) == 4
    return match, tournament, team_links


def links(match, tournament, team_links):
    """Every link a table or an organizer was given: ``(path, text it shows)``."""
    edit = local(match["edit_url"])
    tables = [m["edit_url"] for r in tournament["state"]["rounds"] for m in r["matches"] if m.get("edit_url")]
    return [(edit, 'data-version="1"'), (local(match["watch_url"]), "Eles"),
            (local(tournament["organizer_url"]), "A"), (local(tournament["tv_url"]), "A"),
            (local(tables[0]), "data-action")] + [(local(t), name) for t, name in zip(team_links, "ABCD")]


def check_links(port, match, tournament, team_links):
    for path, shown in links(match, tournament, team_links):
        status, page, _ = get(port, path)
        assert status == 200 and shown in page, path
    status, _s, _ = post(port, f"/api/matches/{match['id']}/actions",  # the edit key still writes
                         {"action": {"type": "quiero", "side": 1}, "version": 1}, {"X-Edit-Key": match["edit_key"]})
    assert status == 200


# ---------------------------------------------------------------- /healthz


def test_healthz_answers_ok_without_a_key_and_is_never_rate_limited(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "h.sqlite3", "PUBLIC_URL": "https://truco.example",
                      "TRUSTED_HOSTS": ["truco.example"], "RATE_LIMITS": {"create": "2/minute"}})
    client = app.test_client()
    statuses = {client.get("/healthz", base_url="https://truco.example",
                           environ_base={"REMOTE_ADDR": "203.0.113.9"}).status_code for _ in range(300)}
    assert statuses == {200}
    # docs/hosting.md's check on the machine: the public host name sent to the loopback port.
    r = client.get("/healthz", base_url="http://127.0.0.1:8000", headers={"Host": "truco.example"})
    assert r.get_json() == {"status": "ok"} and r.headers["Cache-Control"] == "no-store"


def test_healthz_is_503_while_postgresql_is_stopped_then_200_again(pg_url, postgres):
    server = Server(pg_url)
    try:
        assert get(server.port, "/healthz")[:2] == (200, {"status": "ok"})
        postgres.stop()
        try:
            status, body, _ = get(server.port, "/healthz")
            assert (status, body) == (503, {"status": "unavailable"})
        finally:
            postgres.start()
        assert get(server.port, "/healthz")[:2] == (200, {"status": "ok"})
    finally:
        server.stop()


# ---------------------------------------------------------------- metrics


def test_metrics_are_on_their_own_loopback_port_with_routes_and_never_keys(tmp_path):
    server = Server(tmp_path / "m.sqlite3", args=["--metrics-port", "0"])
    try:
        port = int(METRICS.search("".join(server.output)).group(1))
        match, tournament, team_links = a_table_and_a_tournament(server.port)
        check_links(server.port, match, tournament, team_links)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/metrics")
        r = conn.getresponse()
        text = r.read().decode()
        conn.close()
        assert r.status == 200 and r.getheader("Content-Type").startswith("text/plain; version=0.0.4")
        assert 'route="/m/<match_id>/<key>",status="200"' in text
        assert 'truco_requests_total{method="POST",route="/api/matches/<match_id>/actions",status="200"} 2.0' in text
        assert re.search(r'^truco_request_seconds_bucket\{le="0\.005",route="/m/<match_id>/<key>"\} ', text, re.M)
        playing = [m for r in tournament["state"]["rounds"] for m in r["matches"] if m["id"]]
        assert re.search(rf"^truco_live_tables {1 + len(playing)}\.0$", text, re.M)  # the match, the tournament's
        assert re.search(r"^truco_match_cache_matches [1-9]", text, re.M)
        assert "truco_database_errors_total 0.0" in text and "truco_rate_limited_total" in text
        for secret in [match["edit_key"], tournament["organizer_key"]] + [t.rsplit("/", 1)[1] for t in team_links]:
            assert secret not in text
        assert get(server.port, "/metrics")[0] == 404  # not on the public port
        with pytest.raises(OSError):  # bound to 127.0.0.1 alone, not every local address
            socket.create_connection(("127.0.0.2", port), timeout=5).close()
    finally:
        server.stop()


def test_metrics_count_429s_and_503s_by_route(tmp_path, monkeypatch):
    from prometheus_client import generate_latest

    from scorer.app import health
    from scorer.web.hosting import ops

    app = create_app({"TESTING": True, "DATABASE": tmp_path / "r.sqlite3", "PUBLIC_URL": "https://truco.example",
                      "RATE_LIMITS": {"create": "2/minute"}})
    client = app.test_client()
    statuses = [client.post("/api/matches", json={"variant": "truc"}, base_url="https://truco.example",
                            environ_base={"REMOTE_ADDR": "203.0.113.9"}).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    monkeypatch.setattr(health, "database_answers", lambda _url: False)  # the database away
    assert client.get("/healthz", base_url="https://truco.example").status_code == 503
    text = generate_latest(ops.registry(app)).decode()
    assert 'truco_rate_limited_total{route="/api/matches"} 1.0' in text
    assert 'truco_requests_total{method="POST",route="/api/matches",status="429"} 1.0' in text
    assert "truco_database_errors_total 1.0" in text


def test_each_worker_serves_its_own_metrics_on_loopback(tmp_path):
    from test_reliability_servers import wait_for

    server = Server(tmp_path / "w.sqlite3", args=["--workers", "2", "--metrics-port", "0"])
    try:
        wait_for(lambda: len(METRICS.findall("".join(server.output))) == 2)
        for port in map(int, METRICS.findall("".join(server.output))):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/metrics")
            r = conn.getresponse()
            assert r.status == 200 and "truco_match_cache_matches" in r.read().decode()
            conn.close()
    finally:
        server.stop()


# ---------------------------------------------------------------- logs


def test_a_match_driven_with_its_key_leaves_no_key_in_the_logs(tmp_path):
    server = Server(tmp_path / "l.sqlite3")
    try:
        match, tournament, team_links = a_table_and_a_tournament(server.port)
        check_links(server.port, match, tournament, team_links)
        key, mid = match["edit_key"], match["id"]
        for path in (f"/m/{mid}/{key}/board?version=0&rematch=0", f"/m/{mid}/{key}/undo", f"/m/{mid}/{key}/share",
                     f"/m/{mid}/{key}x", f"/m/{mid}/{key}/nothing"):
            assert get(server.port, path)[0] < 500
        c = Client(server.port)
        c.conn.request("GET", f"/m/{mid}/{key}/board?version=0")  # a phone that leaves before the answer
        c.close()
    finally:
        server.stop()
    output = "".join(server.output)
    for secret in [match["edit_key"], tournament["organizer_key"]] + [t.rsplit("/", 1)[1] for t in team_links]:
        assert secret not in output


def test_an_error_inside_a_view_logs_the_route_not_the_key(tmp_path, caplog, monkeypatch):
    app = create_app({"DATABASE": tmp_path / "e.sqlite3"})
    client = app.test_client()
    match = client.post("/api/matches", json={"variant": "paulista"}).get_json()

    def broken(*_args, **_kw):
        raise RuntimeError("broken on purpose")

    monkeypatch.setitem(app.view_functions, "matches.poll", broken)
    with caplog.at_level(logging.INFO):
        assert client.get(f"/m/{match['id']}/{match['edit_key']}/board").status_code == 500
        logging.getLogger("waitress").error("Exception while serving /m/%s/%s/actions" % (match["id"],
                                                                                          match["edit_key"]))
        logging.getLogger("waitress").info("Client disconnected while serving /t/abc/team/1/%s" % match["edit_key"])
    text = caplog.text
    assert "Exception on /m/<match_id>/<key>/board [GET]" in text and "Client disconnected" in text
    assert match["edit_key"] not in text


# ---------------------------------------------------------------- backup and restore


def recipe(label: str) -> list[str]:
    """The commands of the "Backup and restore" section (docs/hosting.md) after ``label``."""
    part = section("Backup and restore")
    block = part.split(label, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def run(commands: list[str], **env: str) -> None:
    """Run the recipe's commands as written, with ``env`` set (the venv's python3, PostgreSQL's tools)."""
    path = f"{Path(sys.executable).parent}:{pg_cluster.BIN}:/usr/bin:/bin"
    for command in commands:
        done = subprocess.run(command, shell=True, capture_output=True, text=True, env={"PATH": path, **env},
                              timeout=120)
        assert done.returncode == 0, (command, done.stdout, done.stderr)


def test_a_sqlite_file_backed_up_while_it_serves_restores_with_every_link(tmp_path):
    live, backup = tmp_path / "truco.sqlite3", tmp_path / "backup.sqlite3"
    server = Server(live)
    try:
        match, tournament, team_links = a_table_and_a_tournament(server.port)
        run(recipe("SQLite, back up"), TRUCO_DB=str(live), BACKUP=str(backup))
        assert get(server.port, "/healthz")[0] == 200
        later = post(server.port, "/api/matches", {"variant": "truc"})[1]  # after the backup: not in it
    finally:
        server.stop()
    run(recipe("SQLite, restore"), TRUCO_DB=str(live), BACKUP=str(backup))
    server = Server(live)
    try:
        check_links(server.port, match, tournament, team_links)
        assert get(server.port, f"/api/matches/{later['id']}")[0] == 404
    finally:
        server.stop()


def test_a_postgresql_dump_restores_with_every_link(pg_url, postgres, tmp_path):
    server = Server(pg_url)
    try:
        match, tournament, team_links = a_table_and_a_tournament(server.port)
        target = postgres.create_database()
        run(recipe("PostgreSQL, back up"), TRUCO_DB=pg_url, TRUCO_DB_RESTORED=target,
            BACKUP=str(tmp_path / "truco.dump"))
    finally:
        server.stop()
    server = Server(target)
    try:
        check_links(server.port, match, tournament, team_links)
    finally:
        server.stop()
