"""What the operator asks the database (issue 23 item 8): whether it answers, and how many
tables are live. Used by ``/healthz`` and the metrics of :mod:`scorer.web.hosting.ops`."""

from __future__ import annotations

import time

from scorer.app import store


def database_answers(url: str) -> bool:
    """Whether the database at ``url`` answers a ``SELECT 1`` now (on a pooled connection)."""
    try:
        db = store.connect(url)
        try:
            db.execute("SELECT 1")
        finally:
            db.close()
    except store.UNAVAILABLE:
        return False
    return True


def live_tables(url: str, seconds: float) -> int | None:
    """Matches with an action in the last ``seconds`` (one ``COUNT`` over the match table);
    None when the database does not answer."""
    try:
        db = store.connect(url)
        try:
            return db.execute("SELECT COUNT(*) FROM match WHERE updated > :since",
                              {"since": time.time() - seconds}).scalar()
        finally:
            db.close()
    except store.UNAVAILABLE:
        return None
