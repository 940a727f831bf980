"""Issue 31, item 1, through the hosted recipe (docs/hosting.md): ``truco serve --server granian
--workers 2 --threads 2`` on PostgreSQL behind Debian's nginx running the shipped file, clients
on distinct loopback addresses. A 64-team round robin's statistics and summary picture read in a
loop from one address (a flooding process of its own, at the lowest priority, as the reader is
another device) while another table taps from another address: every one of the table's taps is recorded, once, while
the flood is answered from what is kept or refused by the limits, never failed. How long the taps take during the flood beside a quiet run
(the issue's "within 3x") is a timing, measured by ``python -m bench --only heavy``
(bench/heavy_reads.py, docs/performance.md), not asserted here: on a loaded machine the ratio is
the machine's (it failed a full run at a load of 11 with every tap recorded). The flooder says when each path has answered 200
:data:`READY` times (each worker process has then computed both once: the issue's 30-second
loop is that steady state; ``bench/heavy_reads.py`` measures from the flood's first request), and
stops when its input closes (or after :data:`FLOOD_BOUND` requests); nothing here sleeps."""

from __future__ import annotations

import ast
import http.client
import json
import ssl
import subprocess
import sys
import time

import pytest

import nginx_proxy
from live_server import Server
from nginx_proxy import HOST, Phone, Proxy

TEAMS = [f"Dupla {i + 1:02d}" for i in range(64)]
TAPS = 60
#: The most requests the flooder sends if its input never closes (a bound, not the plan).
FLOOD_BOUND = 200_000
#: 200s of each path before the table is measured.
READY = 10
#: The flooder: keep-alive https GETs of the paths in turn from its own address, 4 connections
#: (threads), nice 19; "flooding" once each path has answered 200 READY times, then on until stdin
#: closes (or FLOOD_BOUND requests: it then says "flooding" if it had not, and stops).
FLOODER = r"""
import http.client, os, ssl, sys, threading
port, address, host, paths = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
os.nice(19)
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
stop, lock, seen, ok, said = threading.Event(), threading.Lock(), {}, {p: 0 for p in paths}, [False]
def say():
    if not said[0]:
        said[0] = True; print("flooding", flush=True)
def conn():
    return http.client.HTTPSConnection("127.0.0.1", port, context=ctx, source_address=(address, 0), timeout=30)
def run(i):
    c, n = conn(), i
    while not stop.is_set() and sum(seen.values()) < %d:
        path = paths[n %% len(paths)]
        try:
            c.request("GET", path, headers={"Host": host}); r = c.getresponse(); r.read()
            status = r.status
        except (http.client.HTTPException, OSError):
            c.close(); c = conn(); status = 0
        with lock:
            seen[status] = seen.get(status, 0) + 1
            ok[path] += status == 200
            if min(ok.values()) >= %d:
                say()
        n += 1
    c.close()
    with lock:
        say()
threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
for t in threads: t.start()
sys.stdin.read(); stop.set()
for t in threads: t.join()
print(repr(seen), flush=True)
""" % (FLOOD_BOUND, READY)


@pytest.fixture
def recipe(pg_url):
    """The hosted recipe on a fresh PostgreSQL database, nginx in front: ``(server, proxy)``."""
    nginx_proxy.require()
    server = Server(pg_url, threads=2, args=["--server", "granian", "--workers", "2", "--public-url",
                                             f"https://{HOST}", "--proxy", "127.0.0.1"])
    try:
        proxy = Proxy(server.port)
    except BaseException:
        server.stop()
        raise
    yield server, proxy
    proxy.destroy()
    server.stop()


class Table:
    """Another table's phone on its own address: taps (JSON API) on its matches in turn, each
    timed from the request to the answer's last byte, over one keep-alive https connection."""

    def __init__(self, proxy: Proxy, matches: list[dict]) -> None:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        self.conn = http.client.HTTPSConnection("127.0.0.1", proxy.https_port, context=context,
                                                source_address=("127.0.0.3", 0), timeout=30)
        self.matches, self.n = matches, 0

    def tap(self) -> float:
        m = self.matches[self.n % len(self.matches)]
        delta = 1 if (self.n // len(self.matches)) % 2 == 0 else -1
        body = json.dumps({"action": {"type": "adjust", "side": 0, "delta": delta}, "version": m["version"]})
        t0 = time.perf_counter()
        self.conn.request("POST", f"/api/matches/{m['id']}/actions", body=body,
                          headers={"Host": HOST, "Content-Type": "application/json", "X-Edit-Key": m["edit_key"]})
        r = self.conn.getresponse()
        r.read()
        seconds = time.perf_counter() - t0
        assert r.status == 200, r.status
        m["version"] += 1
        self.n += 1
        return seconds

    def p95(self, taps: int) -> float:
        times = sorted(self.tap() for _ in range(taps))
        return times[int(0.95 * (len(times) - 1))]


def test_a_heavy_read_flood_leaves_another_tables_taps_recorded(recipe):
    _server, proxy = recipe
    organizer = Phone(proxy, "127.0.0.2")
    status, t, _ = organizer.request("POST", "/api/tournaments", {"name": "Liga", "variant": "truco-15",
                                                                  "teams": TEAMS, "format": "round_robin"})
    assert status == 201, t
    owner = Phone(proxy, "127.0.0.3")
    matches = []
    for _ in range(10):  # each tapped 6 times a run: within a table's 60 actions a minute
        status, m, _ = owner.request("POST", "/api/matches", {"variant": "paulista"})
        assert status == 201
        matches.append({"id": m["id"], "edit_key": m["edit_key"], "version": 0})
    table = Table(proxy, matches)
    table.p95(10)  # the connection and the matches' first boards
    paths = [f"/api/tournaments/{t['id']}/stats", f"/tournaments/{t['id']}/summary.svg"]
    flooder = subprocess.Popen([sys.executable, "-c", FLOODER, str(proxy.https_port), "127.0.0.4", HOST, *paths],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert flooder.stdout.readline().strip() == "flooding"
        table.p95(TAPS)  # each tap answered 200 (Table.tap asserts it)
    finally:
        flooder.stdin.close()
        seen = flooder.stdout.read()
        flooder.stdout.close()
        flooder.wait(timeout=60)
    table.conn.close()
    answers = ast.literal_eval(seen.strip())
    # The flood was answered (kept reads) or refused (the limits, the heavy-read slots), never
    # failed: how much of it is refused depends on how fast a busy machine lets it ask.
    assert answers and set(answers) <= {200, 304, 429, 503}, answers
    for m in matches:  # every tap recorded once: the stored version is the taps' count
        status, state, _ = owner.request("GET", f"/api/matches/{m['id']}", headers={"X-Edit-Key": m["edit_key"]})
        assert status == 200 and state["version"] == m["version"], (status, m["version"])
