"""The phone simulator for the capacity figure: an asyncio HTTP/1.1 client in its own
process (``python -m bench.loadgen CONFIG.json``), pinned to the client core.

Every table has ``phones`` phones. A phone polls its scoreboard every ``poll_s`` seconds
with the version it shows, as htmx does (204 = unchanged; 200 = the fragment, whose
``data-version`` it then shows). One phone per table taps a button every ``action_s``
seconds: the htmx form post, answered with the fragment. Phases are random, so the load
is spread evenly. With ``pool`` = 0 each phone keeps its own keep-alive connection (what
a browser does); with ``pool`` = K all requests share K connections (what the server
could do if open connections cost nothing).

Prints one JSON object: per measuring window the p50/p99 of every request that started
in it (requests still unanswered when the run ends count with their age so far), the
offered and answered request rates, action p99, status counts, and this process's CPU.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time
import urllib.parse
from typing import Any

from bench.states import LONG_MATCH, first_call

VERSION_ATTR = re.compile(rb'data-version="(\d+)"')


class Conn:
    """One keep-alive HTTP/1.1 connection (opened on first use, reopened after a close)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        for k, v in (headers or {}).items():
            lines.append(f"{k}: {v}")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length, chunked, close = 0, False, False
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"transfer-encoding" and b"chunked" in value.lower():
                    chunked = True
                elif name == b"connection" and b"close" in value.lower():
                    close = True
            if chunked:
                parts = []
                while True:
                    size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                    parts.append(await self.reader.readexactly(size + 2))
                    if size == 0:
                        break
                data = b"".join(p[:-2] for p in parts)
            else:
                data = await self.reader.readexactly(length) if length else b""
        except BaseException:
            self.close()
            raise
        if close:
            self.close()
        return status, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Pool:
    """K shared connections: a request waits for a free one."""

    def __init__(self, host: str, port: int, size: int) -> None:
        self.free: asyncio.Queue[Conn] = asyncio.Queue()
        for _ in range(size):
            self.free.put_nowait(Conn(host, port))

    async def request(self, *args, **kwargs) -> tuple[int, bytes]:
        conn = await self.free.get()
        try:
            return await conn.request(*args, **kwargs)
        finally:
            self.free.put_nowait(conn)


def cycle_action(n: int) -> dict[str, Any]:
    """The n-th tap of a table: Truco, No quiero, correct the tento (score stays low)."""
    hand, step = divmod(n, 3)
    side = hand % 2
    return [
        {"type": "call", "side": side, "call": first_call(LONG_MATCH)},
        {"type": "no_quiero", "side": 1 - side},
        {"type": "adjust", "side": side, "delta": -1},
    ][step]


class Phones:
    """The phones of one run (``cfg``: see :func:`run`) against one server, and what they recorded:
    ``records`` ``(start, seconds, kind, status)`` of every answered request, ``pending`` the
    requests not answered yet (by token: ``(start, kind)``), ``skipped`` the polls missed."""

    def __init__(self, cfg: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
        u = urllib.parse.urlsplit(cfg["base"])
        self.host, self.port = u.hostname, u.port
        self.poll_s, self.action_s = cfg["poll_s"], cfg["action_s"]
        self.pool = Pool(self.host, self.port, cfg["pool"]) if cfg.get("pool") else None
        self.loop = loop
        self.t0 = loop.time()
        self.end = self.t0 + cfg["warmup_s"] + cfg["windows"] * cfg["window_s"]
        self.records: list[tuple[float, float, str, int]] = []
        self.pending: dict[int, tuple[float, str]] = {}
        self.counter = iter(range(1 << 62))
        self.skipped = 0

    async def send(self, conn, kind: str, method: str, path: str, body: bytes = b"", headers=None):
        """One request on ``conn``, recorded; ``(status, body)`` (status 0: no answer)."""
        loop = self.loop
        token = next(self.counter)
        start = loop.time()
        self.pending[token] = (start, kind)
        try:
            status, data = await conn.request(method, path, body, headers)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            status, data = 0, b""
        self.pending.pop(token, None)
        self.records.append((start, loop.time() - start, kind, status))
        return status, data

    async def phone(self, table: dict[str, Any], index: int) -> None:
        """Phone ``index`` of ``table`` until the run ends: polls every ``poll_s`` with the version
        it shows; the first phone also taps every ``action_s``; each starts at a random phase."""
        loop, poll_s, action_s, end, t0 = self.loop, self.poll_s, self.action_s, self.end, self.t0
        conn = self.pool or Conn(self.host, self.port)
        state = table["phones"][index]
        next_poll = t0 + random.uniform(0, poll_s)
        next_tap = t0 + random.uniform(0, action_s) if index == 0 else float("inf")
        while True:
            now = loop.time()
            when = min(next_poll, next_tap)
            if when >= end:
                break
            if when > now:
                await asyncio.sleep(when - now)
            if next_tap <= next_poll:
                next_tap += action_s
                action = cycle_action(table["taps"])
                form = urllib.parse.urlencode({"version": str(state["version"]), "action": json.dumps(action)}).encode()
                status, data = await self.send(conn, "action", "POST", f"/m/{table['id']}/{table['key']}/actions", form, {
                    "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
                })
                if status == 200:
                    table["taps"] += 1
            else:
                next_poll += poll_s
                path = f"/m/{table['id']}/{table['key']}/board?version={state['version']}&rematch=0"
                status, data = await self.send(conn, "poll", "GET", path, b"", {"HX-Request": "true"})
            if status in (200, 409):
                found = VERSION_ATTR.search(data)
                if found:
                    state["version"] = int(found.group(1))
            # A phone whose answer came after its next tick skips the ticks it missed
            # (htmx does not stack polls on one element).
            now = loop.time()
            while next_poll < now:
                next_poll += poll_s
                self.skipped += 1
        if self.pool is None:
            conn.close()


def pct(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile of ``values`` (nearest rank), None if there are none."""
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def windows_of(records: list[tuple[float, float, str, int]], first: float, windows: int, window_s: float) -> list[dict[str, Any]]:
    """Each measuring window's figures (the ``windows`` windows of ``window_s`` seconds from
    ``first``), from the requests that started in it."""
    out = []
    for w in range(windows):
        lo = first + w * window_s
        hi = lo + window_s
        rows = [r for r in records if lo <= r[0] < hi]
        lat = [r[1] * 1000 for r in rows]
        act = [r[1] * 1000 for r in rows if r[2] == "action"]
        out.append({
            "requests": len(rows),
            "answered": sum(1 for r in rows if r[3] > 0),
            "p50_ms": pct(lat, 50),
            "p99_ms": pct(lat, 99),
            "action_p99_ms": pct(act, 99),
            "actions": len(act),
        })
    return out


async def run(cfg: dict[str, Any]) -> dict[str, Any]:
    """One run: ``cfg["tables"]`` (``[{"id", "key", "version", "taps"}]``), ``cfg["phones"]``
    phones each, for ``warmup_s`` then ``windows`` windows of ``window_s`` seconds; the figures."""
    poll_s, action_s = cfg["poll_s"], cfg["action_s"]
    tables = cfg["tables"]
    phones = cfg["phones"]
    loop = asyncio.get_running_loop()
    run_ = Phones(cfg, loop)
    t0 = run_.t0
    for t in tables:
        t["phones"] = [{"version": t["version"]} for _ in range(phones)]
    cpu0 = time.process_time()
    tasks = [asyncio.create_task(run_.phone(t, i)) for t in tables for i in range(phones)]
    await asyncio.wait(tasks, timeout=run_.end - loop.time() + 0.5)
    stop = loop.time()
    # Unanswered requests count with their age so far (at least that slow).
    records = run_.records
    for start, kind in list(run_.pending.values()):
        records.append((start, stop - start, kind, -1))
    for task in tasks:
        task.cancel()
    cpu = time.process_time() - cpu0
    statuses: dict[str, int] = {}
    for r in records:
        statuses[str(r[3])] = statuses.get(str(r[3]), 0) + 1
    return {
        "tables": len(tables),
        "phones": len(tables) * phones,
        "offered_rps": len(tables) * (phones / poll_s + 1 / action_s),
        "windows": windows_of(records, t0 + cfg["warmup_s"], cfg["windows"], cfg["window_s"]),
        "statuses": statuses,
        "skipped_polls": run_.skipped,
        "client_cpu_s": cpu,
        "wall_s": stop - t0,
        "versions": {t["id"]: max(p["version"] for p in t["phones"]) for t in tables},
        "taps": {t["id"]: t["taps"] for t in tables},
    }


def main() -> None:
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    random.seed(cfg.get("seed", 1))
    result = asyncio.run(run(cfg))
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
