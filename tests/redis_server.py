"""Debian's ``redis-server`` on a free 127.0.0.1 port, in a throwaway folder, for the tests of
the limits several app processes share (``truco serve --rate-limit-storage redis://...``,
docs/hosting.md). :class:`RedisServer` waits for its "Ready to accept connections" line, so no
test sleeps to synchronise; nothing is saved to disk."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from live_server import OutputLines

REDIS = Path(os.environ.get("TRUCO_REDIS", "/usr/bin/redis-server"))
#: How many free ports the server tries before giving up (a parallel test may bind one first).
PORT_TRIES = 5


def require() -> None:
    """Skip the test when redis-server or the Python client is missing; fail it instead under
    ``CI=true`` (``.ci/run`` installs the redis-server package, pyproject's test extra the client)."""
    import importlib.util

    import pytest

    missing = [] if REDIS.is_file() else [str(REDIS)]
    if importlib.util.find_spec("redis") is None:
        missing.append("the redis Python package")
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"missing {', '.join(missing)} (CI installs redis-server and the test extra)")
        pytest.skip(f"missing {', '.join(missing)}")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """A running ``redis-server``: ``url`` (``redis://127.0.0.1:PORT``), ``stop()``."""

    def __init__(self, timeout: float = 20.0) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="truco-redis-"))
        for attempt in range(PORT_TRIES):
            self.port = free_port()
            self.proc = subprocess.Popen(
                [str(REDIS), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", str(self.folder), "--daemonize", "no", "--logfile", ""],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self._pump = OutputLines(self.proc.stdout)
            try:
                self._pump.wait_for(lambda line: "Ready to accept connections" in line, timeout, "redis-server")
                self.url = f"redis://127.0.0.1:{self.port}"
                return
            except EOFError as e:
                self.proc.wait(timeout=10)
                if "Address already in use" not in str(e) or attempt == PORT_TRIES - 1:
                    raise RuntimeError(str(e)) from None
            except TimeoutError:
                self.proc.kill()
                raise

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL) and remove its folder."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._pump.join(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)
