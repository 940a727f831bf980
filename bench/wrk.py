"""Run Debian's ``wrk`` (installed with apt-get when missing) with ``lua/paths.lua``.

wrk is the load generator for throughput and latency of plain GETs: one thread, pinned
to the client core, so it never competes with the server for a core.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).with_name("lua") / "paths.lua"


class ToolMissing(RuntimeError):
    """A program the bench needs is missing and could not be installed."""


def ensure_wrk() -> str:
    """Path of ``wrk``; installs Debian's package when missing and running as root.

    :raise ToolMissing: not installed and ``apt-get install -y wrk`` is impossible or fails.
    """
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise ToolMissing(
            "wrk is not installed. Install it with `sudo apt-get install -y wrk` (Debian/Ubuntu) and run again."
        )
    print("wrk is missing: apt-get install -y wrk ...", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    ok = subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, capture_output=True).returncode == 0
    if not ok:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
        ok = subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, capture_output=True).returncode == 0
    found = shutil.which("wrk")
    if not ok or not found:
        raise ToolMissing("wrk is not installed and `apt-get install -y wrk` failed; install it and run again.")
    return found


def run(
    base: str,
    paths: list[str],
    *,
    connections: int,
    seconds: float,
    cores: set[int],
    delay_ms: int = 0,
    headers: dict[str, str] | None = None,
    timeout_s: int = 2,
) -> dict:
    """One wrk run over ``paths`` (round-robin) with ``connections`` connections.

    Returns wrk's figures plus ``rps``: ``{"requests", "rps", "p50_ms", "p99_ms", ...,
    "errors": {...}, "statuses": {"204": n, ...}, "timeout_share"}``. Requests that time
    out (``timeout_s``) are not in wrk's latency percentiles, so ``timeout_share`` says
    how many there were: above 1 % the real p99 is at least the timeout.
    """
    wrk = ensure_wrk()
    with tempfile.NamedTemporaryFile("w", suffix=".paths", delete=False) as f:
        f.write("\n".join(paths) + "\n")
        paths_file = f.name
    env = dict(os.environ, BENCH_PATHS=paths_file, BENCH_DELAY_MS=str(int(delay_ms)))
    if headers:
        env["BENCH_HEADERS"] = "|".join(f"{k}: {v}" for k, v in headers.items())
    cmd = [
        wrk, "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", f"--timeout={timeout_s}s",
        "-s", str(SCRIPT), base + paths[0],
    ]
    try:
        out = subprocess.run(
            cmd, env=env, capture_output=True, text=True, timeout=seconds + 30,
            preexec_fn=lambda: os.sched_setaffinity(0, cores),
        )
    finally:
        os.unlink(paths_file)
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("BENCH_JSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk gave no result (exit {out.returncode}):\n{out.stdout}\n{out.stderr}")
    r = json.loads(line[len("BENCH_JSON "):])
    secs = r["duration_us"] / 1e6
    r["rps"] = r["requests"] / secs if secs else 0.0
    for key in ("p50", "p90", "p99", "max", "mean"):
        r[f"{key}_ms"] = r.pop(f"{key}_us") / 1000.0
    timeouts = r["errors"]["timeout"]
    r["timeout_share"] = timeouts / max(1, r["requests"] + timeouts)
    r["connections"] = connections
    return r
