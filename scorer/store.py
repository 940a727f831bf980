"""All of truco-scorer's SQL: matches and their action lists in one SQLite file.

A match row holds the settings (variant, options, names, first mano) and a summary of
the last known state (version, score, winner) for lists; the truth is the ``action``
table, one row per applied action, from which the engine replays the state.

The database runs in WAL mode, and every write commits before the function returns,
so an action is on disk before the web layer answers. Appends are guarded by the
version: :func:`append_action` only succeeds when the caller saw the latest version,
which is what stops two phones (or a double tap) from recording twice.

This module imports neither Flask nor the engine.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from scorer.errors import N_, RuleError

#: Bytes of randomness in an edit key (256 bits; the issue asks for at least 128).
EDIT_KEY_BYTES = 32
#: Bytes of randomness in a match id (96 bits: unguessable, still short in a URL).
MATCH_ID_BYTES = 12


@dataclass(frozen=True)
class MatchRow:
    """One stored match: its settings and the summary of its latest state.

    ``names`` is a 2-tuple of strings, ``options`` a dict, ``mano`` 0 or 1 (the side
    that is mano in hand 1), ``version`` the number of actions stored, ``score`` the
    tentos after the last action, ``winner`` None while the game goes on. ``best_of``
    is the length of its Revanche series (1, 3 or 5 games); ``players`` is None or the
    players' names per side, ``((a1, a2[, a3]), (b1, b2[, b3]))``, for 4 or 6 players.
    """

    id: str
    edit_key: str
    series: str
    variant: str
    options: dict[str, Any]
    names: tuple[str, str]
    mano: int
    version: int
    score: tuple[int, int]
    winner: int | None
    rematch: str | None
    created: float
    updated: float
    best_of: int = 1
    players: tuple[tuple[str, ...], tuple[str, ...]] | None = None


def connect(path: str | Path) -> sqlite3.Connection:
    """Open the database at ``path`` in WAL mode, creating the file if missing.

    The connection is in autocommit mode (``isolation_level=None``): writes below open
    their own ``BEGIN IMMEDIATE`` transactions. Rows come back as :class:`sqlite3.Row`.
    """
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=10000")
    return db


def _baseline(db: sqlite3.Connection) -> None:
    """Migration 1: the tables as ``schema.sql`` creates them (``IF NOT EXISTS``, so a
    database made before migrations existed, at ``user_version`` 0, passes through)."""
    schema = resources.files("scorer").joinpath("schema.sql").read_text(encoding="utf-8")
    _run_script(db, schema)


#: The schema's history, oldest first: migration ``i`` (1-based) brings a database from
#: ``PRAGMA user_version`` ``i - 1`` to ``i``. Each entry is SQL text (statements
#: separated by ``;``) or a function taking the connection. Only ever append; never edit
#: or reorder an entry that has shipped.
MIGRATIONS: list[str | Callable[[sqlite3.Connection], None]] = [
    _baseline,
    # 2: the Revanche series' length and the optional players' names and seats (issue 7).
    "ALTER TABLE match ADD COLUMN best_of INTEGER NOT NULL DEFAULT 1 CHECK (best_of IN (1, 3, 5));"
    "ALTER TABLE match ADD COLUMN players TEXT",
    # 3: tournaments, their slots and audit log (issue 11); the SQL is in scorer.tournament_store.
    lambda db: _run_script(db, __import__("scorer.tournament_store", fromlist=["MIGRATION"]).MIGRATION),
]


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """Run the statements of ``script`` one by one inside the caller's transaction
    (``executescript`` would commit first)."""
    statement = ""
    for piece in script.split(";"):
        statement += piece + ";"
        if sqlite3.complete_statement(statement):  # a ";" inside a string or trigger is not an end
            db.execute(statement)
            statement = ""


def schema_version(db: sqlite3.Connection) -> int:
    """The database's schema version (``PRAGMA user_version``; 0 for a new file)."""
    return db.execute("PRAGMA user_version").fetchone()[0]


@contextmanager
def write(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends (a ``return``
    inside it included), rolled back if it raises. Writers wait for each other here."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def migrate(db: sqlite3.Connection, migrations=None) -> int:
    """Apply the migrations the database has not had yet, in order; return the version.

    Each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with the
    ``user_version`` bump, so a crash leaves the database at the previous version and the
    next start tries again; two processes starting at once do not both apply a step.

    :raise RuntimeError: the database is newer than this code (a later version made it).
    """
    steps = MIGRATIONS if migrations is None else migrations
    if schema_version(db) > len(steps):
        raise RuntimeError(
            f"database schema version {schema_version(db)} is newer than this program's {len(steps)}"
        )
    for number, step in enumerate(steps, start=1):
        with write(db):
            if schema_version(db) < number:
                if callable(step):
                    step(db)
                else:
                    _run_script(db, step)
                db.execute(f"PRAGMA user_version = {number:d}")
    return schema_version(db)


def init_db(db: sqlite3.Connection) -> None:
    """Create or upgrade the tables (:func:`migrate`; safe to call on every start)."""
    migrate(db)


def new_id() -> str:
    """A fresh random match id (URL-safe text)."""
    return secrets.token_urlsafe(MATCH_ID_BYTES)


def new_edit_key() -> str:
    """A fresh random edit key (URL-safe text, 256 bits)."""
    return secrets.token_urlsafe(EDIT_KEY_BYTES)


def _row(r: sqlite3.Row) -> MatchRow:
    return MatchRow(
        id=r["id"],
        edit_key=r["edit_key"],
        series=r["series"],
        variant=r["variant"],
        options=json.loads(r["options"]),
        names=tuple(json.loads(r["names"])),
        mano=r["mano"],
        version=r["version"],
        score=(r["score0"], r["score1"]),
        winner=r["winner"],
        rematch=r["rematch"],
        created=r["created"],
        updated=r["updated"],
        best_of=r["best_of"],
        players=_players(r["players"]),
    )


def _players(text: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    if not text:
        return None
    a, b = json.loads(text)
    return (tuple(a), tuple(b))


def create_match(
    db: sqlite3.Connection,
    *,
    variant: str,
    options: dict[str, Any],
    names: tuple[str, str] | list[str],
    mano: int,
    series: str | None = None,
    best_of: int = 1,
    players: Any = None,
) -> MatchRow:
    """Store a new match with no actions and return it (with its new id and edit key).

    ``series`` is the series id of the match this one is a Revanche of; a new series
    starts (named after this match's id) when it is None. ``best_of`` (1, 3 or 5) and
    ``players`` (None or two equal-length lists of names) as in :class:`MatchRow`. The
    caller validates the settings first; this function only stores them.
    """
    with write(db):
        match_id = _insert_match(db, variant, options, names, mano, series, best_of, players)
    return get_match(db, match_id)  # type: ignore[return-value]


def _insert_match(db, variant, options, names, mano, series, best_of=1, players=None) -> str:
    match_id, key, now = new_id(), new_edit_key(), time.time()
    db.execute(
        "INSERT INTO match (id, edit_key, series, variant, options, names, mano,"
        " created, updated, best_of, players) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            match_id,
            key,
            series or match_id,
            variant,
            json.dumps(options, sort_keys=True),
            json.dumps(list(names), ensure_ascii=False),
            int(mano),
            now,
            now,
            int(best_of),
            None if players is None else json.dumps([list(p) for p in players], ensure_ascii=False),
        ),
    )
    return match_id


def create_rematch(db: sqlite3.Connection, match_id: str, *, new_series: bool = False) -> MatchRow | None:
    """The Revanche of a match: same settings, same series, created once.

    The first call creates it and links it from the old match; later calls (another
    phone, a double tap) return that same one. None if ``match_id`` does not exist.
    ``new_series`` (the old series is decided): the Revanche starts a series of its own,
    of the same length. The winner is checked inside the write transaction, so a phone
    that still shows the game over cannot start it after another phone's Undo.

    :raise RuleError: ``game_not_over``, the match has no winner (nothing stored).
    """
    with write(db):
        old = db.execute("SELECT * FROM match WHERE id = ?", (match_id,)).fetchone()
        if old is None:
            return None
        new = old["rematch"]
        if new is None and old["winner"] is None:  # rolled back by write()
            raise RuleError("game_not_over", N_("The game is not over: the Revanche starts once a side has won."))
        if new is None:
            new = _insert_match(
                db, old["variant"], json.loads(old["options"]), json.loads(old["names"]),
                old["mano"], None if new_series else old["series"], old["best_of"],
                _players(old["players"]),
            )
            db.execute("UPDATE match SET rematch = ? WHERE id = ?", (new, match_id))
    return get_match(db, new)


def get_match(db: sqlite3.Connection, match_id: str) -> MatchRow | None:
    """The match with id ``match_id``, or None if there is none."""
    r = db.execute("SELECT * FROM match WHERE id = ?", (match_id,)).fetchone()
    return _row(r) if r else None


def get_matches(db: sqlite3.Connection, match_ids: list[str]) -> list[MatchRow]:
    """The matches among ``match_ids`` that exist, in the order given."""
    if not match_ids:
        return []
    marks = ",".join("?" * len(match_ids))
    rows = {
        r["id"]: _row(r)
        for r in db.execute(f"SELECT * FROM match WHERE id IN ({marks})", match_ids)
    }
    return [rows[i] for i in match_ids if i in rows]


def get_actions(db: sqlite3.Connection, match_id: str, since: int = 0) -> list[dict[str, Any]]:
    """The match's stored actions from index ``since`` on, oldest first."""
    return [
        json.loads(r["body"])
        for r in db.execute(
            "SELECT body FROM action WHERE match_id = ? AND seq >= ? ORDER BY seq",
            (match_id, since),
        )
    ]


def get_action(db: sqlite3.Connection, match_id: str, seq: int) -> dict[str, Any] | None:
    """The action stored at index ``seq`` (0-based), or None."""
    r = db.execute(
        "SELECT body FROM action WHERE match_id = ? AND seq = ?", (match_id, seq)
    ).fetchone()
    return json.loads(r["body"]) if r else None


def append_action(
    db: sqlite3.Connection,
    match_id: str,
    version: int,
    action: dict[str, Any],
    *,
    score: tuple[int, int] | list[int],
    winner: int | None,
    no_rematch: bool = False,
) -> bool:
    """Store ``action`` as the match's action number ``version`` and commit.

    Succeeds (True) only if the match is still at ``version`` (and, with
    ``no_rematch``, still has no Revanche); returns False, storing nothing, when
    another action (or the Revanche) got there first. ``score`` and ``winner`` are the
    state after the action, kept on the match row for lists and the Revanche series
    tally.
    """
    now = time.time()
    with write(db):
        cur = db.execute(
            "UPDATE match SET version = version + 1, score0 = ?, score1 = ?, winner = ?,"
            " updated = ? WHERE id = ? AND version = ?" + (" AND rematch IS NULL" if no_rematch else ""),
            (int(score[0]), int(score[1]), winner, now, match_id, version),
        )
        if cur.rowcount != 1:
            return False  # nothing was written
        db.execute(
            "INSERT INTO action (match_id, seq, body, created) VALUES (?, ?, ?, ?)",
            (match_id, version, json.dumps(action, sort_keys=True), now),
        )
    return True


def series_tally(db: sqlite3.Connection, series: str) -> tuple[int, int]:
    """Games won by side 0 and by side 1 over every match of a Revanche series."""
    r = db.execute(
        "SELECT COALESCE(SUM(winner = 0), 0) AS a, COALESCE(SUM(winner = 1), 0) AS b"
        " FROM match WHERE series = ?",
        (series,),
    ).fetchone()
    return (r["a"], r["b"])


def series_games(db: sqlite3.Connection, series: str) -> int:
    """How many matches (games, chicos) a Revanche series has started so far."""
    return db.execute("SELECT COUNT(*) FROM match WHERE series = ?", (series,)).fetchone()[0]


def import_match(
    db: sqlite3.Connection,
    *,
    variant: str,
    options: dict[str, Any],
    names: tuple[str, str] | list[str],
    mano: int,
    actions: list[dict[str, Any]],
    score: tuple[int, int] | list[int],
    winner: int | None,
    best_of: int = 1,
    players: Any = None,
) -> MatchRow:
    """Store a new match that already has ``actions`` (a restored export), all or nothing.

    ``score`` and ``winner`` are the state after the last action; the caller replays
    the actions with the engine first, so only a valid match is stored. ``best_of`` and
    ``players`` as in :func:`create_match` (a new series of that length starts).
    """
    with write(db):
        match_id = _insert_match(db, variant, options, names, mano, None, best_of, players)
        now = time.time()
        db.executemany(
            "INSERT INTO action (match_id, seq, body, created) VALUES (?, ?, ?, ?)",
            [(match_id, seq, json.dumps(a, sort_keys=True), now) for seq, a in enumerate(actions)],
        )
        db.execute(
            "UPDATE match SET version = ?, score0 = ?, score1 = ?, winner = ? WHERE id = ?",
            (len(actions), int(score[0]), int(score[1]), winner, match_id),
        )
    return get_match(db, match_id)  # type: ignore[return-value]


def rename_match(db: sqlite3.Connection, match_id: str, names: tuple[str, str] | list[str]) -> MatchRow | None:
    """Change the two side names of a match (its actions and version stay); None if no such match."""
    db.execute(
        "UPDATE match SET names = ?, updated = ? WHERE id = ?",
        (json.dumps(list(names), ensure_ascii=False), time.time(), match_id),
    )
    return get_match(db, match_id)
