"""Several app servers on one database are one scorekeeper (issue 12).

Two real ``truco serve`` processes on one database (PostgreSQL, and a SQLite file on one
machine): eight clients split across them race on one match; ``kill -9`` of one server
mid-traffic loses nothing it acknowledged while the other keeps serving; a PostgreSQL
restart mid-traffic gives 503s (never a 500, never a false 200), then both servers
recover by themselves with nothing acknowledged lost; ``--workers 2`` replaces a killed
worker. Every wait polls for a condition with a deadline; nothing sleeps.
"""

from __future__ import annotations

import http.client
import os
import random
import signal
import threading
import time

import pytest

from live_server import Client, Server, pick, race, stored
from scorer.core.match import Match, normalize_action

CLIENTS = 8
SECONDS = 3.0


def wait_for(condition, timeout=30.0, every=0.02):
    """Poll ``condition`` until it is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        threading.Event().wait(every)  # a poll interval, not a synchronisation
    raise AssertionError("condition not met in time")


def create(port, variant="argentino-30", **body):
    c = Client(port)
    try:
        status, data, _ = c.request("POST", "/api/matches", {"variant": variant, **body})
    finally:
        c.close()
    assert status == 201, data
    return data


def get_state(port, match_id):
    c = Client(port)
    try:
        return c.request("GET", f"/api/matches/{match_id}")
    finally:
        c.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "shared.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def two_servers(database):
    servers = [Server(database), Server(database)]
    yield servers
    for s in servers:
        s.stop()


def test_eight_clients_split_across_two_servers_store_each_action_once(two_servers, database):
    match = create(two_servers[0].port, options={"flor": True})
    # Half the clients on each server.
    accepted, refused, other = race([s.port for s in two_servers], match, CLIENTS, SECONDS)
    assert other == []
    accepted.sort(key=lambda va: va[0])
    log = stored(database, match["id"])
    assert [v for v, _a in accepted] == list(range(len(accepted)))  # each version accepted once, by one server
    assert sorted(log.items()) == accepted
    assert set(refused) <= {"stale_version", "already_recorded"} and refused
    finals = [get_state(s.port, match["id"])[1] for s in two_servers]
    assert finals[0]["version"] == finals[1]["version"] == len(log)  # both servers show the stored version
    replayed = Match.replay("argentino-30", finals[0]["options"], 0, [log[i] for i in range(len(log))])
    assert replayed.state()["score"] == finals[0]["score"] == finals[1]["score"]
    print(f"\ntwo servers: {len(accepted) + len(refused)} actions posted by {CLIENTS} clients on 2 servers, "
          f"{len(accepted)} accepted, {len(refused)} refused with 409, 0 lost")


def test_a_poll_on_one_server_sees_an_action_made_on_the_other(two_servers):
    a, b = two_servers
    match = create(a.port, "paulista")
    key, mid = match["edit_key"], match["id"]
    c = Client(b.port)
    status, _body, _ = c.request("GET", f"/m/{mid}/{key}/board?version=0&rematch=0", headers={"HX-Request": "true"})
    assert status == 204  # b caches the match at version 0
    ca = Client(a.port)
    status, _s, _ = ca.request("POST", f"/api/matches/{mid}/actions",
                               {"action": {"type": "call", "side": 0, "call": "truco"}, "version": 0},
                               {"X-Edit-Key": key})
    assert status == 200
    status, body, _ = c.request("GET", f"/m/{mid}/{key}/board?version=0&rematch=0", headers={"HX-Request": "true"})
    assert status == 200 and 'data-version="1"' in body
    status, state, _ = c.request("GET", f"/api/matches/{mid}")
    assert state["version"] == 1 and state["pending"] is not None if "pending" in state else state["version"] == 1
    c.close()
    ca.close()


def drive(port, match, accepted, counts, progress, rng, stop):
    """Post legal actions until ``stop`` is set; log each 200 in ``accepted``. A 503 or a
    lost connection is counted, and the driver reads the state again before going on."""
    path = f"/api/matches/{match['id']}/actions"
    headers = {"X-Edit-Key": match["edit_key"]}
    c = Client(port, timeout=10)
    state = None
    while not stop.is_set():
        try:
            if state is None:
                status, body, _ = c.request("GET", f"/api/matches/{match['id']}")
                if status != 200:
                    counts[status] = counts.get(status, 0) + 1
                    if status >= 500 and status != 503:
                        counts.setdefault("bodies", []).append(body)
                    continue
                state = body
            action = pick(state, rng)
            status, body, _ = c.request("POST", path, {"action": action, "version": state["version"]}, headers)
        except (OSError, http.client.HTTPException):
            counts["lost"] = counts.get("lost", 0) + 1
            c.close()
            c = Client(port, timeout=10)
            state = None
            if counts["lost"] > 50:
                return  # the server is gone for good
            continue
        counts[status] = counts.get(status, 0) + 1
        if status >= 500 and status != 503:
            counts.setdefault("bodies", []).append(body)
        if status == 200:
            with progress:
                accepted.append((state["version"], normalize_action(action)))
                progress.notify_all()
            state = body
        else:
            state = None  # 503 (or a 409 after an unanswered retry): read again
    c.close()


def check_log(database, match, accepted):
    log = stored(database, match["id"])
    for version, action in accepted:
        assert log.get(version) == action, version
    assert sorted(log) == list(range(len(log)))
    return log


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_kill_9_of_one_server_loses_nothing_and_the_other_keeps_serving(two_servers, database):
    a, b = two_servers
    matches = [create(a.port), create(a.port, "paulista")]
    accepted = [[], []]
    counts = [{}, {}]
    progress, stop = threading.Condition(), threading.Event()
    threads = [threading.Thread(target=drive, args=(s.port, m, accepted[i], counts[i], progress, random.Random(i), stop))
               for i, (s, m) in enumerate(zip((a, b), matches))]
    for t in threads:
        t.start()
    try:
        with progress:
            assert progress.wait_for(lambda: len(accepted[0]) >= 20 and len(accepted[1]) >= 20, timeout=60)
        a.kill()  # SIGKILL with requests in flight
        on_b = len(accepted[1])
        with progress:
            assert progress.wait_for(lambda: len(accepted[1]) >= on_b + 20, timeout=60)  # b goes on
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    for i in (0, 1):
        log = check_log(database, matches[i], accepted[i])
        assert len(log) - len(accepted[i]) in (0, 1)  # at most the answer the kill swallowed
    assert 500 not in counts[0] and 500 not in counts[1]
    status, state, _ = get_state(b.port, matches[0]["id"])  # b serves a's match too
    assert status == 200 and state["version"] == len(stored(database, matches[0]["id"]))
    print(f"\nkill -9 of one server: {len(accepted[0])} + {len(accepted[1])} acknowledged, 0 lost")


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_a_postgresql_restart_gives_503s_then_both_servers_recover(two_servers, database, postgres):
    a, b = two_servers
    matches = [create(a.port), create(b.port, "paulista")]
    accepted = [[], []]
    counts = [{}, {}]
    progress, stop = threading.Condition(), threading.Event()
    threads = [threading.Thread(target=drive, args=(s.port, m, accepted[i], counts[i], progress, random.Random(10 + i),
                                                    stop))
               for i, (s, m) in enumerate(zip((a, b), matches))]
    for t in threads:
        t.start()
    try:
        with progress:
            assert progress.wait_for(lambda: min(map(len, accepted)) >= 10, timeout=60)
        postgres.stop()
        # While it is down: 503 with the message, as JSON and as a page, on both servers.
        for s in (a, b):
            status, body, headers = get_state(s.port, matches[0]["id"])
            assert status == 503 and body["error"]["code"] == "database_unavailable"
            assert "banco de dados" in body["error"]["message"] and headers["Retry-After"]  # pt-BR by default
            c = Client(s.port)
            status, page, _ = c.request("GET", f"/w/{matches[0]['id']}", headers={"Accept-Language": "pt-BR"})
            c.close()
            assert status == 503 and "banco de dados" in page
        before = [len(x) for x in accepted]
        postgres.start()
        with progress:  # both recover by themselves
            assert progress.wait_for(lambda: all(len(accepted[i]) >= before[i] + 10 for i in (0, 1)), timeout=60)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
    for i in (0, 1):
        log = check_log(database, matches[i], accepted[i])
        assert len(log) >= len(accepted[i])
        assert set(counts[i]) <= {200, 409, 503, "lost"}, (counts[i], [ln for ln in a.output + b.output
                                                                     if "Error" in ln][-5:])  # never a 500
    print(f"\npostgresql restart: {sum(map(len, accepted))} acknowledged, 0 lost; "
          f"503s: {counts[0].get(503, 0) + counts[1].get(503, 0)}")


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return {int(p) for p in f.read().split()}
    except FileNotFoundError:
        return set()


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_workers_share_one_port_and_a_killed_worker_is_replaced(database):
    server = Server(database, args=["--workers", "2"])
    try:
        wait_for(lambda: len(children(server.proc.pid)) == 2)
        first = children(server.proc.pid)
        match = create(server.port, "paulista")
        victim = sorted(first)[0]
        os.kill(victim, signal.SIGKILL)
        wait_for(lambda: len(children(server.proc.pid)) == 2 and victim not in children(server.proc.pid))
        for _ in range(20):  # every request answered, by whichever worker the kernel picks
            status, state, _ = get_state(server.port, match["id"])
            assert status == 200 and state["version"] == 0
    finally:
        server.stop()
    wait_for(lambda: not children(server.proc.pid), timeout=10)


def accepts_connections(postgres) -> bool:
    """Whether PostgreSQL answers a new connection now (one attempt)."""
    import psycopg

    try:
        with psycopg.connect(postgres.url(), connect_timeout=2) as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.OperationalError:
        return False


def on_every_thread(port, matches, work):
    """Run ``work(client, match)`` for each match at once, one thread and connection each,
    started together; the statuses each returned, by match."""
    statuses = [None] * len(matches)
    start = threading.Barrier(len(matches))

    def run(i):
        c = Client(port)
        try:
            start.wait(timeout=10)
            statuses[i] = work(c, matches[i])
        finally:
            c.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(matches))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return statuses


def read_then_act(c, match):
    """A poll, then one legal action on the version it read: the two statuses (and the
    action when it was accepted)."""
    status, state, _ = c.request("GET", f"/api/matches/{match['id']}")
    if status != 200:
        return [status]
    action = pick(state, random.Random(state["version"]))
    done, _body, _ = c.request("POST", f"/api/matches/{match['id']}/actions",
                               {"action": action, "version": state["version"]}, {"X-Edit-Key": match["edit_key"]})
    return [status, done, (state["version"], normalize_action(action))]


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_once_postgresql_is_back_after_a_restart_no_request_fails_on_either_server(two_servers, database, postgres):
    """Issue 23 item 5: each server holds several pooled connections, PostgreSQL restarts;
    once it accepts connections again, every read and write on both servers succeeds (the
    stale connections are replaced before the request's work starts), and each action is
    stored once."""
    per_server = {s.port: [create(s.port, "paulista") for _ in range(6)] for s in two_servers}
    for s in two_servers:  # six requests at once on each server: several connections in its pool
        assert all(r[:2] == [200, 200] for r in on_every_thread(s.port, per_server[s.port], read_then_act))
    postgres.stop()
    postgres.start()
    wait_for(lambda: accepts_connections(postgres))
    failures, accepted = [], {}
    for s in two_servers:
        for match, result in zip(per_server[s.port], on_every_thread(s.port, per_server[s.port], read_then_act)):
            failures += [status for status in result[:2] if status != 200]
            if len(result) == 3:
                accepted.setdefault(match["id"], []).append(result[2])
    assert failures == []
    for s in two_servers:
        for match in per_server[s.port]:
            log = stored(database, match["id"])
            assert len(log) == 2 and log[1] == accepted[match["id"]][0][1]  # one before, one after: each once
    print(f"\npostgresql restart, once it is back: {2 * len(accepted)} requests on 2 servers, 0 failed")
