"""The bench's clock and small statistics: the run's time budget, the progress lines it prints,
medians and percentiles that skip missing figures."""

from __future__ import annotations

import statistics
import time


class Clock:
    """The run's time budget."""

    def __init__(self, budget: float) -> None:
        self.t0, self.budget = time.monotonic(), budget

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def left(self) -> float:
        return self.budget - self.elapsed()


def median(xs: list[float]) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))]


def say(clock: Clock, text: str) -> None:
    print(f"[{clock.elapsed():5.1f}s] {text}", flush=True)
