"""Tables held with push (issue 34's capacity figure): ``python -m bench --only push-capacity``.

The hosted recipe on this machine: the shipped nginx with its push module (several worker
processes, as one may open no more files than this machine allows) in front of two
``truco serve --server granian --workers 1 --threads 2 --push-publish`` on PostgreSQL (a throwaway
cluster, as the tests start one), as step 4 of docs/hosting.md runs them, each table's requests to
one of them as the shipped file routes them. Every table has four phones, and every phone holds its stream
(``/push/m/<match id>``), each from its table's own loopback address; one phone a table taps
every 20 s (random phases, so the taps are spread evenly), as the page sends a tap: the board's
form (``/m/<id>/<key>/actions``, with its tap key), answered with the new board. The other three
phones, on hearing ``changed`` on their stream, ask for their board with the version they show,
as static/js/push.js makes the page do: that is the whole load, as an idle stream costs the app
nothing. Every request says what Chromium says of compression (``Accept-Encoding``), so the
answers are compressed as a phone's are.

Steps of 250, 500, 1,000, 1,500, 2,000, 2,500, 5,000 and 10,000 tables (``--quick``: 100 and 250), the streams of the
previous step kept open: at each, the taps run for 40 s (``--quick``: 20 s), then come the tap's
p50/p99 (from its POST leaving to its answer), the delivery's p50/p99 (from the tap's POST
leaving to the other phones' boards holding it), how many taps and deliveries were missed, the
resident memory of nginx, of the app (its two processes, one a core) and of PostgreSQL, the
CPU seconds each used in the step (so the app's CPU a tap, its three board reads included: the
figure that says how many tables an app core holds, whatever else the machine was doing), and
the load average. Before the first step, a half-interval of taps warms the app up (its
connections, templates and replays), unmeasured. A step holds when
the tap's p99 is under 100 ms and nothing was missed; the bench stops at the first that does
not (the streams of the next steps are still opened, to say the memory of 40,000 held streams).

The phones run in :data:`CLIENTS` processes of their own (a process may not open more than
this machine's 20,000 files), on the same two cores as everything else: what they cost is
reported beside the figures (their CPU seconds). Writes ``bench/results_push_capacity.json``.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import multiprocessing
import os
import random
import re
import resource
import ssl
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import nginx_proxy  # noqa: E402  (the tests' own nginx and truco serve)

from bench.loadgen import cycle_action  # noqa: E402

STEPS, QUICK_STEPS = (250, 500, 1000, 1500, 2000, 2500, 5000, 10_000), (100, 250)
PHONES = 4
TAP_EVERY_S = 20.0
STEP_S, QUICK_STEP_S = 40.0, 20.0
#: Phone processes, and nginx's workers (each may hold NGINX_CONNECTIONS connections).
CLIENTS, NGINX_WORKERS, NGINX_CONNECTIONS = 5, 5, 9900
#: ``truco serve`` processes, one per core of this machine, behind nginx, which sends each
#: table's requests to one of them (docs/hosting/nginx.conf), run as docs/hosting.md's step 4 runs them.
APP_PROCESSES, SERVER_ARGS = 2, ("--workers", "1", "--threads", "2")
#: Keep-alive connections each phone process uses for its taps and board reads.
POOL = 24
TAP_P99_MS = 100.0
VERSION_ATTR = re.compile(rb'data-version="(\d+)"')
#: What the page's htmx requests say beside their own fields (Chromium's compressions, htmx's mark).
PAGE_HEADERS = "Accept-Encoding: gzip, deflate, br, zstd\r\nHX-Request: true\r\n"


def table_address(n: int) -> str:
    """Table ``n``'s loopback address: its four phones share it, as a table's Wi-Fi does."""
    return f"127.{10 + n // 60_000}.{(n // 250) % 240 + 1}.{n % 250 + 2}"


def percentile(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))], 1)


def make_matches(url: str, count: int) -> list[dict[str, Any]]:
    """``count`` new matches stored straight into the database, as a tournament's round is
    (creating them through the API would spend its creation budget): ``[{"id", "key"}]``."""
    from scorer.app import store
    from scorer.app.match_service import MatchService

    from bench.states import LONG_MATCH

    options = MatchService.check_settings(LONG_MATCH, {}, 0).options
    db = store.connect(url)
    store.init_db(db)  # the schema, as truco serve makes it on its first start
    made = []
    for start in range(0, count, 1000):
        keys = [store.new_edit_key() for _ in range(min(1000, count - start))]
        ids = store.create_matches(db, [{"variant": LONG_MATCH, "options": options, "names": ("Nós", "Eles"),
                                         "mano": 0, "edit_key": key} for key in keys])
        made += [{"id": match_id, "key": key} for match_id, key in zip(ids, keys)]
    return made


class PhoneProcess:
    """The phones of the tables given to this process: their streams, one tapper a table, and
    three board readers that follow the stream. Commands come through ``pipe``:
    ``("open", [(n, table)])``, ``("run", seconds)``, ``("stop", None)``."""

    def __init__(self, pipe, port: int, index: int) -> None:
        self.pipe, self.port, self.index = pipe, port, index
        self.context = ssl.create_default_context()
        self.context.check_hostname, self.context.verify_mode = False, ssl.CERT_NONE
        self.tables: list[dict[str, Any]] = []
        self.streams: list[asyncio.Task] = []
        self.running = False
        self.taps: list[float] = []
        self.deliveries: list[float] = []
        self.errors: dict[str, int] = {}
        self.pool: asyncio.Queue = asyncio.Queue()

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        for n in range(POOL):
            self.pool.put_nowait(nginx_conn(self.port, self.context, f"127.9.{self.index + 1}.{n + 2}"))
        while True:
            command, arg = await loop.run_in_executor(None, self.pipe.recv)
            if command == "open":
                self.pipe.send(await self.open(arg))
            elif command == "run":
                self.pipe.send(await self.run(arg))
            else:
                for task in self.streams:
                    task.cancel()
                self.pipe.send(None)
                return

    async def open(self, tables: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
        opened: list[asyncio.Future] = []
        for n, made in tables:
            table = {**made, "n": n, "version": 0, "sent": {}, "shown": [0] * PHONES}
            self.tables.append(table)
            for phone in range(PHONES):
                ready = asyncio.get_running_loop().create_future()
                self.streams.append(asyncio.create_task(self.stream(table, phone, ready)))
                opened.append(ready)
            if len(opened) % 400 == 0:  # a few hundred handshakes at a time
                await asyncio.gather(*opened[-400:], return_exceptions=True)
        results = await asyncio.gather(*opened, return_exceptions=True)
        return {"streams": sum(r is True for r in results), "failed": sum(r is not True for r in results)}

    async def stream(self, table: dict[str, Any], phone: int, ready: asyncio.Future) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, ssl=self.context,
                                                          server_hostname=nginx_proxy.HOST,
                                                          local_addr=(table_address(table["n"]), 0))
            writer.write(f"GET /push/m/{table['id']} HTTP/1.1\r\nHost: {nginx_proxy.HOST}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            ready.set_result(head.startswith(b"HTTP/1.1 200"))
        except Exception:
            if not ready.done():
                ready.set_result(False)
            return
        while True:
            line = await reader.readline()
            if not line:
                self.error("stream closed")
                return
            if b"event: changed" in line and phone and self.running:
                asyncio.create_task(self.read_board(table, phone))

    async def request(self, method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[int, bytes]:
        conn = await self.pool.get()
        try:
            return await conn(method, path, body, headers)
        finally:
            self.pool.put_nowait(conn)

    async def read_board(self, table: dict[str, Any], phone: int) -> None:
        try:
            status, body = await self.request(
                "GET", f"/m/{table['id']}/{table['key']}/board?version={table['shown'][phone]}&rematch=0",
                headers=PAGE_HEADERS)
        except Exception:
            self.error("board read failed")
            return
        if status == 204:
            return
        found = VERSION_ATTR.search(body)
        if status != 200 or not found:
            self.error(f"board {status}")
            return
        version = int(found.group(1))
        now = time.monotonic()
        for v in range(table["shown"][phone] + 1, version + 1):
            if v in table["sent"]:
                self.deliveries.append((now - table["sent"][v]) * 1000)
        table["shown"][phone] = max(table["shown"][phone], version)

    async def tapper(self, table: dict[str, Any], until: float) -> None:
        await asyncio.sleep(random.uniform(0, TAP_EVERY_S))
        while time.monotonic() < until:
            version = table["version"]
            body = urlencode({"action": json.dumps(cycle_action(version)), "version": version,
                              "tap_key": os.urandom(12).hex()}).encode()
            started = time.monotonic()
            table["sent"][version + 1] = started
            try:
                status, _ = await self.request("POST", f"/m/{table['id']}/{table['key']}/actions", body,
                                               f"Content-Type: application/x-www-form-urlencoded\r\n{PAGE_HEADERS}")
            except Exception:
                status = 0
            if status == 200:
                self.taps.append((time.monotonic() - started) * 1000)
                table["version"] = version + 1
            else:
                self.error(f"tap {status}")
                del table["sent"][version + 1]
            await asyncio.sleep(max(0.0, TAP_EVERY_S - (time.monotonic() - started)))

    async def run(self, seconds: float) -> dict[str, Any]:
        self.taps, self.deliveries, self.errors = [], [], {}
        cpu = time.process_time()
        before = sum(len(t["sent"]) for t in self.tables)
        self.running = True
        until = time.monotonic() + seconds
        await asyncio.gather(*(self.tapper(t, until) for t in self.tables))
        await asyncio.sleep(2.0)  # the last taps' deliveries
        self.running = False
        taps = sum(len(t["sent"]) for t in self.tables) - before
        return {"taps": self.taps, "deliveries": self.deliveries, "expected_deliveries": taps * (PHONES - 1),
                "errors": self.errors, "cpu_s": time.process_time() - cpu,
                "streams_alive": sum(not s.done() for s in self.streams)}


def nginx_conn(port: int, context: ssl.SSLContext, address: str):
    """A keep-alive https connection to nginx from ``address``: an async
    ``(method, path, body, extra header lines) -> (status, body)``, reopened after a failure."""
    state: dict[str, Any] = {"reader": None, "writer": None}

    async def request(method: str, path: str, body: bytes, headers: str) -> tuple[int, bytes]:
        if state["writer"] is None:
            state["reader"], state["writer"] = await asyncio.open_connection(
                "127.0.0.1", port, ssl=context, server_hostname=nginx_proxy.HOST, local_addr=(address, 0))
        reader, writer = state["reader"], state["writer"]
        writer.write((f"{method} {path} HTTP/1.1\r\nHost: {nginx_proxy.HOST}\r\n{headers}"
                      f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
            if length:
                data = await reader.readexactly(int(length.group(1)))
            elif re.search(rb"(?i)\r\ntransfer-encoding: *chunked", head):
                parts = []
                while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                    parts.append((await reader.readexactly(size + 2))[:-2])
                await reader.readuntil(b"\r\n")
                data = b"".join(parts)
            else:
                data = b""
            encoding = re.search(rb"(?i)\r\ncontent-encoding: *([a-z]+)", head)
            if encoding:
                data = decompress(encoding.group(1).lower(), data)
        except BaseException:
            writer.close()
            state["reader"] = state["writer"] = None
            raise
        return int(head[9:12]), data

    return request


def decompress(encoding: bytes, data: bytes) -> bytes:
    """``data`` as it was before the server compressed it (``br``, ``gzip``, ``deflate``)."""
    if encoding == b"br":
        import brotli

        return brotli.decompress(data)
    if encoding == b"gzip":
        return gzip.decompress(data)
    return zlib.decompress(data) if encoding == b"deflate" else data


def phone_process(pipe, port: int, index: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    asyncio.run(PhoneProcess(pipe, port, index).serve())


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            pass
    return round(total / 1024, 1)


def cpu_s(pids: list[int]) -> float:
    """User and system CPU seconds the processes ``pids`` have used so far."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return ticks / os.sysconf("SC_CLK_TCK")


def family(*roots: int) -> list[int]:
    """The processes ``roots`` and their children, grandchildren included."""
    out, todo = [], list(roots)
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return out


def step_figures(reports: list[dict[str, Any]], tables: int, opened: dict[str, int], pids: dict[str, list[int]],
                 cpu: dict[str, float], step_s: float) -> dict[str, Any]:
    """A step's figures from the phone processes' ``reports``: see the module's docstring."""
    taps = [t for r in reports for t in r["taps"]]
    deliveries = [d for r in reports for d in r["deliveries"]]
    errors: dict[str, int] = {}
    for r in reports:
        for kind, n in r["errors"].items():
            errors[kind] = errors.get(kind, 0) + n
    expected = sum(r["expected_deliveries"] for r in reports)
    tap_p99 = percentile(taps, 0.99)
    missed = expected - len(deliveries)
    return {
        "tables": tables, "phones_connected": sum(r["streams_alive"] for r in reports), "opened": opened,
        "taps": len(taps), "taps_a_second": round(len(taps) / step_s, 1),
        "tap_ms": {"p50": percentile(taps, 0.5), "p99": tap_p99},
        "delivery_ms": {"p50": percentile(deliveries, 0.5), "p99": percentile(deliveries, 0.99)},
        "deliveries": len(deliveries), "missed_deliveries": missed, "errors": errors,
        "rss_mb": {name: rss_mb(family(*roots)) for name, roots in pids.items()},
        "phones_cpu_s": round(sum(r["cpu_s"] for r in reports), 1), "load_average": round(os.getloadavg()[0], 1),
        "cpu_s": {name: round(seconds, 1) for name, seconds in cpu.items()},
        "app_cpu_ms_a_tap": round(cpu["app"] * 1000 / len(taps), 2) if taps else None,
        "holds": tap_p99 is not None and tap_p99 < TAP_P99_MS and missed <= 0 and not errors,
    }


def ask_all(pipes: list, command: str, arg: Any) -> list[Any]:
    """Send ``(command, arg)`` to every phone process, then their answers, in order."""
    for pipe in pipes:
        pipe.send((command, arg))
    return [pipe.recv() for pipe in pipes]


def open_streams(pipes: list, made: list[dict[str, Any]], start: int, end: int) -> dict[str, int]:
    """Open the streams of tables ``start`` to ``end`` (dealt to the processes in turn)."""
    for i, pipe in enumerate(pipes):
        pipe.send(("open", [(n, made[n]) for n in range(start, end) if n % len(pipes) == i]))
    opened = {"streams": 0, "failed": 0}
    for pipe in pipes:
        for kind, count in pipe.recv().items():
            opened[kind] += count
    return opened


def measure_step(pipes: list, tables: int, opened: dict[str, int], pids: dict[str, list[int]], step_s: float
                 ) -> dict[str, Any]:
    """One step's taps for ``step_s`` seconds, and its figures (:func:`step_figures`)."""
    before = {name: cpu_s(family(*roots)) for name, roots in pids.items()}
    reports = ask_all(pipes, "run", step_s)
    cpu = {name: cpu_s(family(*roots)) - before[name] for name, roots in pids.items()}
    return step_figures(reports, tables, opened, pids, cpu, step_s)


def start_phones(port: int) -> tuple[list, list]:
    """:data:`CLIENTS` phone processes on nginx's https ``port``: ``(pipes, processes)``."""
    pipes, processes = [], []
    for i in range(CLIENTS):
        ours, theirs = multiprocessing.Pipe()
        process = multiprocessing.Process(target=phone_process, args=(theirs, port, i), daemon=True)
        process.start()
        pipes.append(ours)
        processes.append(process)
    return pipes, processes


def main(quick: bool, say) -> int:
    steps, step_s = (QUICK_STEPS, QUICK_STEP_S) if quick else (STEPS, STEP_S)
    nginx_proxy.require = lambda: None  # bench: no pytest
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    from bench import db

    cluster = db.pg_cluster().Cluster()
    started: list = []
    processes: list = []
    figures: dict[str, Any] = {"steps": [], "phones_a_table": PHONES, "tap_every_s": TAP_EVERY_S, "step_s": step_s,
                               "streams_only": []}
    try:
        url = cluster.create_database()
        say(f"storing {steps[-1]} matches")
        made = make_matches(url, steps[-1])
        servers, proxy = nginx_proxy.pushed_servers(url, APP_PROCESSES, 20, started, connections=NGINX_CONNECTIONS,
                                                    workers=NGINX_WORKERS, server_args=SERVER_ARGS)
        pids = {"nginx": [proxy.proc.pid], "app": [server.proc.pid for server in servers],
                "postgresql": [int((cluster.data / "postmaster.pid").read_text().split()[0])]}
        pipes, processes = start_phones(proxy.https_port)
        opened_so_far, held, holding = 0, 0, True
        for tables in steps:
            say(f"{tables} tables: opening {PHONES * (tables - opened_so_far)} more streams")
            opened = open_streams(pipes, made, opened_so_far, tables)
            opened_so_far, held = tables, held + opened["streams"]
            if not holding:  # the streams alone, for nginx's memory with every phone connected
                figures["streams_only"].append({"tables": tables, "opened": opened, "streams_held": held,
                                                "rss_mb": {name: rss_mb(family(*roots)) for name, roots in pids.items()}})
                continue
            if tables == steps[0]:  # warm up: the app's first connections, templates and replays
                ask_all(pipes, "run", TAP_EVERY_S / 2)
            say(f"{tables} tables: a tap every {TAP_EVERY_S:.0f} s a table for {step_s:.0f} s")
            step = measure_step(pipes, tables, opened, pids, step_s)
            figures["steps"].append(step)
            say(json.dumps({k: step[k] for k in ("tables", "phones_connected", "tap_ms", "delivery_ms",
                                                 "missed_deliveries", "errors", "rss_mb", "cpu_s",
                                                 "app_cpu_ms_a_tap", "load_average")}))
            holding = step["holds"]
        ask_all(pipes, "stop", None)
    finally:
        for process in processes:
            process.kill()
        nginx_proxy.stop_all(started)
        from scorer.app import store

        store.dispose_all()
        cluster.destroy()
    held = [s["tables"] for s in figures["steps"] if s["holds"]]
    figures["tables_held"] = max(held) if held else 0
    (ROOT / "bench" / "results_push_capacity.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main("--quick" in sys.argv, lambda text: print(time.strftime("%H:%M:%S"), text, flush=True)))
