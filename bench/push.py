"""Push beside the poll (issue 34): ``python -m bench --only push``.

The hosted recipe on this machine: the shipped nginx with its push module in front of
``truco serve --server granian --push-publish`` (tests/nginx_proxy.py starts both, as
tests/system/test_push.py does), clients on their own loopback addresses.

- **Phone-to-phone delay**: one phone taps (``POST .../actions``), the other phone's board
  shows it. With push the other phone holds its stream and, on ``changed``, asks for its board
  (what static/js/push.js does); with the poll it asks every second (what the board does without
  push). The delay is from the tap's POST leaving to the other phone's board answer holding the
  new version, both read on this machine's clock: p50 and p95 of each, in the same run, and their
  ratio (the figure; the milliseconds are context).
- **An idle board**: the bytes a stream receives per ping (HTTP as the phone reads it, TLS not
  counted), scaled to nginx's ping every 20 s, plus one safety poll every ten minutes (its
  request and 204 as this client sends and gets them, and as the issue measured Chromium's):
  requests and KB an hour, beside the every-second poll's.
- **Streams held**: nginx's memory with N idle streams held (each a TLS connection from one of
  several 127.0.0.N addresses), and another table's tap p99 meanwhile.

Writes ``bench/results_push.json``. ``--quick``: 20 taps instead of 100, and fewer streams.
"""

from __future__ import annotations

import http.client
import json
import ssl
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import nginx_proxy  # noqa: E402  (the tests' own nginx and truco serve)

#: A tap that never ends the game: +1, then -1 (a correction undone), and again.
TAPS = ({"type": "adjust", "side": 0, "delta": 1}, {"type": "adjust", "side": 0, "delta": -1})
#: What the issue measured of Chromium's unchanged poll: bytes up (the request, with cookies and
#: client hints) and down (the 204).
CHROMIUM_POLL_BYTES = (856, 321)
NGINX_PING_SECONDS = 20
SAFETY_POLLS_AN_HOUR = 6


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


def connect(proxy, address: str) -> http.client.HTTPSConnection:
    return http.client.HTTPSConnection("127.0.0.1", proxy.https_port, context=tls(), source_address=(address, 0),
                                       timeout=30)


class Board:
    """A phone's board reads on one kept connection: ``ask(version)`` -> the version shown after."""

    def __init__(self, proxy, made: dict, address: str) -> None:
        self.conn = connect(proxy, address)
        self.path = f"/m/{made['id']}/{made['edit_key']}/board"

    def ask(self, version: int) -> int:
        self.conn.request("GET", f"{self.path}?version={version}&rematch=0",
                          headers={"Host": nginx_proxy.HOST, "HX-Request": "true"})
        r = self.conn.getresponse()
        body = r.read().decode()
        if r.status == 204:
            return version
        marker = 'data-version="'
        return int(body[body.index(marker) + len(marker):].split('"', 1)[0])


def new_match(proxy) -> dict:
    from scorer.core.variants import VARIANTS

    variant = sorted(VARIANTS)[0]  # any: the taps are corrections
    status, made, _ = nginx_proxy.Phone(proxy, "127.0.0.2").request("POST", "/api/matches", {"variant": variant})
    assert status == 201, made
    return made


def tap(tapper: http.client.HTTPSConnection, made: dict, version: int) -> None:
    tapper.request("POST", f"/api/matches/{made['id']}/actions", body=json.dumps({"action": TAPS[version % 2], "version": version}),
                   headers={"Host": nginx_proxy.HOST, "Content-Type": "application/json", "X-Edit-Key": made["edit_key"]})
    r = tapper.getresponse()
    r.read()
    assert r.status == 200, r.status


#: Taps measured on one match: truco serve allows a table 60 taps a minute (``match_action``).
TAPS_A_MATCH = 40


def delays(proxy, taps: int, pushed: bool) -> list[float]:
    """Milliseconds from each tap leaving to the other phone's board holding it, on a new
    match every :data:`TAPS_A_MATCH` taps."""
    out: list[float] = []
    while len(out) < taps:
        out += delays_on_one_match(proxy, min(TAPS_A_MATCH, taps - len(out)), pushed)
    return out


def delays_on_one_match(proxy, taps: int, pushed: bool) -> list[float]:
    """:func:`delays` on one new match."""
    made = new_match(proxy)
    board, tapper = Board(proxy, made, "127.0.0.3"), connect(proxy, "127.0.0.4")
    seen = {"version": 0}
    got = threading.Condition()
    stop = threading.Event()

    def follow_stream() -> None:
        stream = connect(proxy, "127.0.0.5")
        stream.request("GET", f"/push/m/{made['id']}", headers={"Host": nginx_proxy.HOST, "Accept": "text/event-stream"})
        r = stream.getresponse()
        while not stop.is_set():
            line = r.fp.readline().decode()
            if not line:
                return
            if line.strip() == "event: changed":
                version = board.ask(seen["version"])
                with got:
                    seen["version"] = version
                    got.notify_all()

    def poll() -> None:
        while not stop.wait(1.0):
            version = board.ask(seen["version"])
            with got:
                seen["version"] = version
                got.notify_all()

    follower = threading.Thread(target=follow_stream if pushed else poll, daemon=True)
    follower.start()
    if pushed:  # wait until the stream is held (its first ping)
        probe = connect(proxy, "127.0.0.6")
        probe.request("GET", f"/push/m/{made['id']}", headers={"Host": nginx_proxy.HOST, "Accept": "text/event-stream"})
        r = probe.getresponse()
        while "ping" not in r.fp.readline().decode():
            pass
        probe.close()
    out = []
    for version in range(taps):
        started = time.perf_counter()
        tap(tapper, made, version)
        with got:
            got.wait_for(lambda: seen["version"] > version, timeout=30)
        out.append((time.perf_counter() - started) * 1000)
        time.sleep(0.05 + (version % 7) * 0.05)  # taps a little apart, not in step with the poll
    stop.set()
    return out


def idle_bytes(proxy, pings: int) -> dict[str, Any]:
    """Bytes a stream reads per ping (the proxy pings every second here)."""
    made = new_match(proxy)
    stream = connect(proxy, "127.0.0.7")
    stream.request("GET", f"/push/m/{made['id']}", headers={"Host": nginx_proxy.HOST, "Accept": "text/event-stream"})
    r = stream.getresponse()
    r.fp.readline()  # the stream is open
    counted, heard = 0, 0
    while heard < pings:
        line = r.fp.readline()
        counted += len(line)
        heard += line.startswith(b"event: ping")
    stream.close()
    per_ping = counted / pings
    board = Board(proxy, made, "127.0.0.8")
    poll_up, poll_down = CHROMIUM_POLL_BYTES
    push_hour = 3600 / NGINX_PING_SECONDS * per_ping + SAFETY_POLLS_AN_HOUR * (poll_up + poll_down)
    board.ask(0)
    return {"bytes_per_ping": round(per_ping, 1), "push_requests_an_hour": SAFETY_POLLS_AN_HOUR,
            "push_kb_an_hour": round(push_hour / 1000, 1), "poll_requests_an_hour": 3600,
            "poll_kb_an_hour": round(3600 * (poll_up + poll_down) / 1000, 1)}


def held_streams(proxy, count: int) -> dict[str, Any]:
    """nginx's memory with ``count`` idle streams held, and a tap's p99 meanwhile."""
    import socket

    made = new_match(proxy)
    rss_before = nginx_rss(proxy)
    held = []
    context = tls()
    for i in range(count):
        raw = socket.create_connection(("127.0.0.1", proxy.https_port), source_address=(f"127.0.{1 + i // 20000}.{10 + i % 200}", 0))
        sock = context.wrap_socket(raw, server_hostname=nginx_proxy.HOST)
        sock.sendall(f"GET /push/m/{made['id']} HTTP/1.1\r\nHost: {nginx_proxy.HOST}\r\nAccept: text/event-stream\r\n\r\n".encode())
        held.append(sock)
    for sock in held:  # every stream answered (its headers)
        sock.recv(4096)
    rss_held = nginx_rss(proxy)
    tables = [new_match(proxy) for _ in range(20)]  # other tables, each tapping now and then
    tapper = connect(proxy, "127.0.0.4")
    times = []
    for i in range(200):
        started = time.perf_counter()
        tap(tapper, tables[i % len(tables)], i // len(tables))
        times.append((time.perf_counter() - started) * 1000)
    for sock in held:
        sock.close()
    return {"streams": count, "nginx_rss_mb_before": rss_before, "nginx_rss_mb_held": rss_held,
            "kb_per_stream": round((rss_held - rss_before) * 1000 / count, 1) if count else None,
            "tap_p99_ms": round(percentile(times, 0.99), 1), "tap_p50_ms": round(statistics.median(times), 1)}


def nginx_rss(proxy) -> float:
    """Resident MB of nginx's processes (master and worker)."""
    import subprocess

    out = subprocess.run(["ps", "-o", "rss=", "--ppid", str(proxy.proc.pid), "-p", str(proxy.proc.pid)],
                         capture_output=True, text=True).stdout
    return round(sum(int(x) for x in out.split()) / 1024, 1)


def main(quick: bool, say) -> int:
    nginx_proxy.require = lambda: None  # bench: no pytest
    started: list = []
    folder = Path(tempfile.mkdtemp(prefix="truco-bench-push-"))
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))  # the held streams' sockets
        _servers, proxy = nginx_proxy.pushed_servers(folder / "push.sqlite3", 1, 1, started, connections=20000)
        taps = 20 if quick else 100
        say(f"phone-to-phone delay, {taps} taps with push and with the 1 s poll")
        pushed, polled = delays(proxy, taps, True), delays(proxy, taps, False)
        figures: dict[str, Any] = {
            "taps": taps,
            "push_ms": {"p50": round(statistics.median(pushed), 1), "p95": round(percentile(pushed, 0.95), 1)},
            "poll_ms": {"p50": round(statistics.median(polled), 1), "p95": round(percentile(polled, 0.95), 1)},
        }
        figures["p95_ratio_push_to_poll"] = round(figures["push_ms"]["p95"] / figures["poll_ms"]["p95"], 3)
        say("an idle board's bytes")
        figures["idle"] = idle_bytes(proxy, 5 if quick else 20)
        count = 500 if quick else 4000
        say(f"{count} idle streams held by nginx")
        figures["held"] = held_streams(proxy, count)
    finally:
        nginx_proxy.stop_all(started)
    (ROOT / "bench" / "results_push.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))
    return 0
