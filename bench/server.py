"""Start ``truco serve`` as a real subprocess on 127.0.0.1 and stop it again.

The server is pinned to one core and everything the bench runs (load generators,
Chromium, the engine timings) to the other, so the two never compete for a core.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path

LISTENING = re.compile(r"Listening on [^\s:]+:(\d+)")


def cores() -> tuple[set[int], set[int]]:
    """``(server_cores, client_cores)``: the first available core for the server, the rest
    for the bench's clients; on a one-core machine both share it."""
    available = sorted(os.sched_getaffinity(0))
    if len(available) < 2:
        return set(available), set(available)
    return {available[0]}, set(available[1:])


#: The CLI's console script, as pyproject.toml's ``[project.scripts]`` names it.
SCRIPT = next((ep.name for ep in entry_points(group="console_scripts") if ep.value == "scorer.cli.main:cli"), "")


def truco_executable() -> list[str]:
    """The command that runs the CLI: the ``truco`` script beside this Python, else ``-m``."""
    script = Path(sys.executable).with_name(SCRIPT or "-")
    if SCRIPT and script.exists():
        return [str(script)]
    found = shutil.which(SCRIPT) if SCRIPT else None
    return [found] if found else [sys.executable, "-c", "from scorer.cli.main import cli; cli()"]


@dataclass
class Server:
    """A running ``truco serve``: its base URL, process and temporary database folder."""

    proc: subprocess.Popen
    base: str
    port: int
    tmpdir: Path
    cores: set[int] = field(default_factory=set)
    output: list[str] = field(default_factory=list)

    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        """SIGINT (waitress closes cleanly), then SIGKILL after 5 s; remove the temp db."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.tmpdir, ignore_errors=True)


def listening_port(proc: subprocess.Popen, timeout: float, lines: list[str]) -> int | None:
    """The port ``proc`` (``truco serve``) says it listens on, read from its output within
    ``timeout`` seconds (None: it exited or said nothing of it); the lines read go to ``lines``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                return None
            continue
        lines.append(line.rstrip())
        m = LISTENING.search(line)
        if m:
            return int(m.group(1))
    return None


def start(server_cores: set[int], timeout: float = 20.0, db: str | None = None, args: tuple[str, ...] = (),
          code: str | None = None) -> Server:
    """Start ``truco serve --host 127.0.0.1 --port 0 --db <tmp> --no-qr`` pinned to
    ``server_cores`` and wait until it prints the port it listens on. ``db``: another
    database (a PostgreSQL URL) instead of a fresh SQLite file; ``args``: more options
    (``--workers 2``); ``code``: a checkout of another commit (``git worktree add --detach
    /tmp/ref COMMIT``) whose ``scorer`` package the server runs instead of this one (the
    same Python and libraries), to compare two commits in one run on the same machine.

    :raise RuntimeError: the server exits or does not report a port within ``timeout`` s.
    """
    tmpdir = Path(tempfile.mkdtemp(prefix="truco-bench-"))
    runner = [sys.executable, "-c", "from scorer.cli.main import cli; cli()"] if code else truco_executable()
    cmd = runner + [
        "serve", "--host", "127.0.0.1", "--port", "0", "--db", db or str(tmpdir / "bench.sqlite3"), "--no-qr",
        *args,
        # The timed taps follow each new board at once, faster than a finger: the double-tap
        # guard would (rightly) refuse them. It costs nothing to measure either way.
        "--ghost-tap-ms", "0",
    ]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if code:  # its scorer package before the installed one
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(code), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmpdir if code else None,  # python -c puts its working folder first on the path
        preexec_fn=lambda: os.sched_setaffinity(0, server_cores),
    )
    lines: list[str] = []
    port = listening_port(proc, timeout, lines)
    if port is None:
        proc.kill()
        shutil.rmtree(tmpdir, ignore_errors=True)
        raise RuntimeError("truco serve did not start:\n" + "\n".join(lines))
    # Keep draining the output (waitress warnings) so the pipe never fills up.
    import threading

    server = Server(proc, f"http://127.0.0.1:{port}", port, tmpdir, set(server_cores), lines)

    def drain() -> None:
        for line in proc.stdout:
            server.output.append(line.rstrip())

    threading.Thread(target=drain, daemon=True).start()
    return server


def cpu_seconds(pid: int) -> float:
    """User+system CPU seconds used so far by process ``pid`` (from /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks
