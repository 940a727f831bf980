"""The bench's table (targets beside measured values) and ``bench/results.json``."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).with_name("results.json")


def machine() -> dict[str, Any]:
    """CPU model, cores, memory, OS and Python of this machine."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = None
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem_gb = round(kb / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    os_name = platform.platform()
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                os_name = line.split("=", 1)[1].strip('"')
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "memory_gb": mem_gb,
        "os": os_name,
        "python": platform.python_version(),
    }


def fmt(value: float | None, unit: str = "", digits: int = 1) -> str:
    if value is None:
        return "n/a"
    if abs(value) >= 1000 and unit in ("/s", " req/s"):
        return f"{value:,.0f}{unit}"
    return f"{value:,.{digits}f}{unit}"


def kb(n: float | None) -> str:
    return "n/a" if n is None else f"{n / 1000:.1f} KB"


def table(rows: list[dict[str, Any]]) -> str:
    """Rows ``{"figure", "target", "measured", "ok"}`` as a Markdown table."""
    head = ["Figure", "Target", "Measured", ""]
    body = [[r["figure"], r["target"], r["measured"], "" if r["ok"] is None else ("ok" if r["ok"] else "MISS")]
            for r in rows]
    widths = [max(len(str(x[i])) for x in [head] + body) for i in range(4)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    out = [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(b) for b in body]
    return "\n".join(out)


def write(results: dict[str, Any]) -> Path:
    RESULTS.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return RESULTS
