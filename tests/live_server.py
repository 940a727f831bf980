"""A real ``truco serve`` process on a free 127.0.0.1 port, and a small JSON client for it.

Used by the race, crash and schemathesis tests. The server prints
``Listening on 127.0.0.1:<port>`` once its socket is bound; :func:`start` waits for that
line (bounded by ``timeout``), so no test sleeps to synchronise.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import subprocess
import sys
import random
import threading
import time
from pathlib import Path

TRUCO = Path(sys.executable).with_name("truco")
LISTENING = re.compile(r"Listening on 127\.0\.0\.1:(\d+)")


class OutputLines:
    """A child process's output read on a thread of its own: every line kept in ``lines`` (in
    order, for error messages and tests that read the log), and :meth:`wait_for` the line a
    test is waiting for, bounded by a timeout (so no test sleeps to synchronise)."""

    def __init__(self, stream) -> None:
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream) -> None:
        for line in stream:
            self.lines.append(line)
            self._queue.put(line)
        stream.close()
        self._queue.put(None)

    def wait_for(self, found, timeout: float, what: str):
        """The first truthy ``found(line)`` of the lines still to come.

        :raise TimeoutError: no such line within ``timeout`` seconds of the previous one.
        :raise EOFError: the stream ended first (the process exited).
        """
        while True:
            try:
                line = self._queue.get(timeout=timeout)
            except queue.Empty:
                raise TimeoutError(f"{what} did not start: " + "".join(self.lines)) from None
            if line is None:
                raise EOFError(f"{what} exited: " + "".join(self.lines))
            if result := found(line):
                return result

    def join(self, timeout: float = 10) -> None:
        self._thread.join(timeout=timeout)


class Server:
    """One ``truco serve`` process on a SQLite path or a database URL (``args``: more
    options; ``offline_engine``: let phones fetch the offline rules engine, off unless a test
    is about it): ``port``, ``stop()``, ``kill()`` (SIGKILL). It waits for its "Listening on"
    line, at most ``timeout`` seconds between two lines of its output (a loaded machine, a cold
    minify of the pages' scripts: minutes are not unheard of at a load of 10)."""

    def __init__(self, db: Path | str, timeout: float = 90.0, threads: int = 8, ghost_tap_ms: int | None = None,
                 args: list[str] | tuple[str, ...] = (), offline_engine: bool = False) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        cmd = [str(TRUCO), "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db),
               "--no-qr", "--threads", str(threads), *args]
        if ghost_tap_ms is not None:
            cmd += ["--ghost-tap-ms", str(ghost_tap_ms)]
        if not offline_engine:  # a board open for seconds would start Pyodide: only the tests of it want that
            cmd += ["--no-offline-engine"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self._pump = OutputLines(self.proc.stdout)
        self.output = self._pump.lines
        try:
            self.port = int(self._pump.wait_for(LISTENING.search, timeout, "truco serve").group(1))
        except TimeoutError as e:
            self.kill()
            raise RuntimeError(str(e)) from None
        except EOFError as e:
            raise RuntimeError(str(e)) from None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """``kill -9``: no clean shutdown, no chance to flush anything."""
        self.proc.kill()
        self.proc.wait(timeout=10)
        self._pump.join(timeout=10)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self._pump.join(timeout=10)


class Client:
    """A keep-alive HTTP/1.1 connection to 127.0.0.1 that speaks JSON."""

    def __init__(self, port: int, timeout: float = 10.0) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def request(self, method: str, path: str, body=None, headers=None, raw: bytes | None = None):
        """``(status, json or text, headers)``; ``body`` is sent as JSON, ``raw`` as is."""
        headers = dict(headers or {})
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
            payload = r.read()
        except (http.client.HTTPException, OSError):
            self.conn.close()
            raise
        text = payload.decode("utf-8", "replace")
        is_json = r.getheader("Content-Type", "").startswith("application/json")
        return r.status, (json.loads(text) if is_json and text else text), r.headers

    def close(self) -> None:
        self.conn.close()


def plain_action(legal: dict) -> dict:
    """An action to post from an entry of ``legal_actions`` (drops the points it pays)."""
    return {k: v for k, v in legal.items() if k not in ("points", "points_side")}


def stored(db, match_id: str) -> dict[int, dict]:
    """``{seq: action}`` as stored in the database (a SQLite path or a URL), read directly."""
    from scorer.app import store

    conn = store.connect(db)
    try:
        rows = conn.execute("SELECT seq, body FROM action WHERE match_id = :id ORDER BY seq", {"id": match_id})
        return {seq: json.loads(body) for seq, body in rows}
    finally:
        conn.close()


def pick(state: dict, rng: random.Random) -> dict:
    """A random action the engine offers now (an undo once the game is over); Envido is
    settled by naming its winner rather than by typing points."""
    legal = [a for a in state["legal_actions"] if a["type"] not in ("adjust", "declare_points")]
    return plain_action(rng.choice(legal)) if legal else {"type": "undo"}


def race(ports: list[int], match: dict, clients: int, seconds: float) -> tuple[list, list, list]:
    """``clients`` threads (client ``n`` on ``ports[n % len(ports)]``), started together,
    each posting random legal actions to ``match`` for ``seconds``, each on the version it
    last saw. Returns ``(accepted, refused, other)``: ``(version, action)`` of each 200, the
    error code of each 409, ``(status, body)`` of anything else (a connection that gave no
    answer too: reported, not lost in its thread)."""
    from scorer.core.match import normalize_action

    path = f"/api/matches/{match['id']}/actions"
    headers = {"X-Edit-Key": match["edit_key"]}
    accepted: list = []
    refused: list = []
    other: list = []
    lock = threading.Lock()
    start = threading.Barrier(clients)

    def run(n: int) -> None:
        rng = random.Random(n)
        c = Client(ports[n % len(ports)])
        seen = match["state"]
        start.wait(timeout=10)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            action = pick(seen, rng)
            try:
                status, body, _ = c.request("POST", path, {"action": action, "version": seen["version"]}, headers)
            except Exception as e:  # noqa: BLE001 - reported by the caller's assertion
                with lock:
                    other.append(("no answer", repr(e)))
                break
            with lock:
                if status == 200:
                    accepted.append((seen["version"], normalize_action(action)))
                    seen = body
                elif status == 409:
                    refused.append(body["error"]["code"])
                    seen = body["state"]
                else:
                    other.append((status, body))
        c.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 30)
    assert not any(t.is_alive() for t in threads)
    return accepted, refused, other
