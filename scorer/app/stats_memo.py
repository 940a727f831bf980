"""Both sides' statistics of stored matches, kept by ``(match id, version)`` (issue 31).

A match's statistics are a fold over its log (:mod:`scorer.core.stats`), so they change only
when its version does: a tournament's statistics, summary and pages add up those of every game,
and each game is replayed once per version, not once per request (docs/performance.md,
"Heavy reads"). Safe across threads; each process keeps its own, the newest :data:`SIZE`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from scorer.core.stats import SideStats

#: Matches kept: a few 64-team round robins' games (a pair of SideStats is about 2 KB).
SIZE = 20_000

Sides = tuple[SideStats, SideStats]


class StatsMemo:
    """The newest ``size`` matches' statistics by ``(match id, version)``. The values are
    shared: callers add them up (``+`` makes new ones) and never change them."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = max(1, int(size))
        self.items: OrderedDict[tuple[str, int], Sides] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, match_id: str, version: int) -> Sides | None:
        """The statistics kept for the match at ``version``, or None."""
        with self.lock:
            found = self.items.get((match_id, version))
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
                self.items.move_to_end((match_id, version))
            return found

    def get_many(self, keys: list[tuple[str, int]]) -> list[Sides | None]:
        """:meth:`get` of each ``(match id, version)`` of ``keys``, under one turn of the lock."""
        with self.lock:
            found = [self.items.get(key) for key in keys]
            for key, sides in zip(keys, found):
                if sides is not None:
                    self.items.move_to_end(key)
            hits = sum(sides is not None for sides in found)
            self.hits += hits
            self.misses += len(keys) - hits
            return found

    def put(self, match_id: str, version: int, sides: Sides) -> Sides:
        """Keep ``sides`` for the match at ``version`` (the oldest out past ``size``); returns it."""
        with self.lock:
            self.items[(match_id, version)] = sides
            self.items.move_to_end((match_id, version))
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return sides
