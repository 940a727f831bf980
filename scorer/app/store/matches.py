"""Match rows: creating, reading, importing and renaming a match (:class:`MatchRow`)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, NotRequired, TypedDict

from scorer.app.store.connection import Database, write
from scorer.app.store.keys import hash_key, new_edit_key, new_id

if TYPE_CHECKING:  # types only: the store does not import the engine
    from scorer.core.schema import Action, Options


@dataclass(frozen=True)
class MatchRow:
    """One stored match: its settings and the summary of its latest state.

    ``names`` is a 2-tuple of strings, ``options`` a dict, ``mano`` 0 or 1 (the side
    that is mano in hand 1), ``version`` the number of actions stored, ``score`` the
    tentos after the last action, ``winner`` None while the game goes on. ``best_of``
    is the length of its Revanche series (1, 3 or 5 games); ``players`` is None or the
    players' names per side, ``((a1, a2[, a3]), (b1, b2[, b3]))``, for 4 or 6 players.
    ``key_hash`` is the stored hash of the edit key (:func:`hash_key`); ``edit_key`` the
    plain key, known only in the row that created the match (None when read back; not
    part of equality). ``dropped``: its tournament took its series out of the slot it
    played (:mod:`scorer.app.store.tournaments`, ``reopen``); its board refuses every action.
    """

    id: str
    key_hash: str
    series: str
    variant: str
    options: Options
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
    edit_key: str | None = field(default=None, compare=False, repr=False)
    #: Its series was dropped by its tournament (a reopening undid the slot it played: issue 32).
    dropped: bool = False


def _row(r, edit_key: str | None = None) -> MatchRow:
    return MatchRow(
        id=r["id"],
        key_hash=r["edit_key"],
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
        edit_key=edit_key,
        dropped=bool(r.get("dropped", 0)),  # a row read before migration 9 has no such column
    )


def row_of(r) -> MatchRow:
    """A :class:`MatchRow` from a mapping of the ``match`` table's columns (a join's row)."""
    return _row(r)


def _players(text_value: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    if not text_value:
        return None
    a, b = json.loads(text_value)
    return (tuple(a), tuple(b))


def create_match(
    db: Database,
    *,
    variant: str,
    options: Options,
    names: tuple[str, str] | list[str],
    mano: int,
    series: str | None = None,
    best_of: int = 1,
    players: Any = None,
    edit_key: str | None = None,
) -> MatchRow:
    """Store a new match with no actions and return it, with its new id and its plain
    edit key (``edit_key``: the only time it is known; the database keeps its hash).
    A caller that derives the key itself (a tournament's tables) passes it as ``edit_key``.

    ``series`` is the series id of the match this one is a Revanche of; a new series
    starts (named after this match's id) when it is None. ``best_of`` (1, 3 or 5) and
    ``players`` (None or two equal-length lists of names) as in :class:`MatchRow`. The
    caller validates the settings first; this function only stores them.

    :raise IntegrityError: a setting the database's checks refuse (mano 2, best of 4).
    """
    key = edit_key or new_edit_key()
    with write(db):
        match_id = _insert_match(db, variant, options, names, mano, series, best_of, players, hash_key(key))
    return _row(db.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().one(), key)


class NewMatch(TypedDict):
    """One of :func:`create_matches`' matches: :func:`create_match`'s keyword arguments, its
    ``edit_key`` given."""

    variant: str
    options: Options
    names: list[str]
    mano: int
    edit_key: str
    best_of: NotRequired[int]
    players: NotRequired[list[list[str]] | None]
    series: NotRequired[str | None]


def create_matches(db: Database, matches: list[NewMatch]) -> list[str]:
    """Store many new matches with no actions in one transaction (a tournament's round: a
    64-team round robin's 2,016 tables at once, issue 31), all or nothing; their new ids, in
    order. Each of ``matches`` holds :func:`create_match`'s keyword arguments, its
    ``edit_key`` given (the caller derives it: the tables' keys); nothing is read back.

    :raise IntegrityError: a setting the database's checks refuse; nothing stored.
    """
    params = [_match_params(m["variant"], m["options"], m["names"], m["mano"], m.get("series"), m.get("best_of", 1),
                            m.get("players"), hash_key(m["edit_key"])) for m in matches]
    if params:
        with write(db):
            db.execute(INSERT_MATCH, params)
    return [p["id"] for p in params]


INSERT_MATCH = ("INSERT INTO match (id, edit_key, series, variant, options, names, mano, created, updated, best_of,"
                " players) VALUES (:id, :key, :series, :variant, :options, :names, :mano, :now, :now, :best_of,"
                " :players)")


def _insert_match(db, variant, options, names, mano, series, best_of, players, key_hash, match_id=None) -> str:
    params = _match_params(variant, options, names, mano, series, best_of, players, key_hash, match_id)
    db.execute(INSERT_MATCH, params)
    return params["id"]


def _match_params(variant, options, names, mano, series, best_of, players, key_hash, match_id=None) -> dict[str, Any]:
    """The parameters of :data:`INSERT_MATCH` for one new match (a new id unless ``match_id``)."""
    match_id, now = match_id or new_id(), time.time()
    return {
        "id": match_id,
        "key": key_hash,
        "series": series or match_id,
        "variant": variant,
        "options": json.dumps(options, sort_keys=True),
        "names": json.dumps(list(names), ensure_ascii=False),
        "mano": int(mano),
        "now": now,
        "best_of": int(best_of),
        "players": None if players is None else json.dumps([list(p) for p in players], ensure_ascii=False),
    }


def get_match(db: Database, match_id: str) -> MatchRow | None:
    """The match with id ``match_id``, or None if there is none (one primary-key read)."""
    r = db.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().first()
    return _row(r) if r else None


class PollStamp(NamedTuple):
    """What an unchanged poll compares of a stored match (:func:`poll_stamp`): the edit key's
    hash, the version, the Revanche, the winner, the series and whether its tournament dropped it, with the same attributes as a
    :class:`MatchRow` for what the board's tag reads (``names``, ``players``, ``best_of``,
    ``series``; the names and players are parsed when read)."""

    id: str
    key_hash: str
    version: int
    rematch: str | None
    winner: int | None
    series: str
    names_text: str
    players_text: str | None
    best_of: int
    dropped: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(json.loads(self.names_text))

    @property
    def players(self) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        return _players(self.players_text)


def poll_stamp(db: Database, match_id: str) -> PollStamp | None:
    """The :class:`PollStamp` of match ``match_id``, or None if there is none: one
    primary-key read of only those columns, as a plain tuple (:meth:`Database.first_values`),
    for the poll shortcut (``scorer/web/hosting/poll_shortcut.py``)."""
    r = db.first_values("SELECT id, edit_key, version, rematch, winner, series, names, players, best_of, dropped "
                        "FROM match WHERE id = :id", {"id": match_id})
    return PollStamp(*r) if r else None


def get_matches(db: Database, match_ids: list[str]) -> list[MatchRow]:
    """The matches among ``match_ids`` that exist, in the order given."""
    if not match_ids:
        return []
    names = {f"id{i}": match_id for i, match_id in enumerate(match_ids)}
    marks = ", ".join(":" + n for n in names)
    rows = {r["id"]: _row(r) for r in db.execute(f"SELECT * FROM match WHERE id IN ({marks})", names).mappings()}
    return [rows[i] for i in match_ids if i in rows]


def import_match(
    db: Database,
    *,
    variant: str,
    options: Options,
    names: tuple[str, str] | list[str],
    mano: int,
    actions: list[Action],
    score: tuple[int, int] | list[int],
    winner: int | None,
    best_of: int = 1,
    players: Any = None,
    match_id: str | None = None,
    edit_key: str | None = None,
    tap_keys: Sequence[str | None] = (),
) -> MatchRow:
    """Store a new match that already has ``actions`` (a restored export), all or nothing.

    ``score`` and ``winner`` are the state after the last action; the caller replays
    the actions with the engine first, so only a valid match is stored. ``best_of`` and
    ``players`` as in :func:`create_match` (a new series of that length starts). The
    row returned carries the new plain ``edit_key``. A caller that derives the id and the key
    itself (a match started offline, :mod:`scorer.app.offline_matches`) passes them.
    ``tap_keys``: the key of the tap that made each action, in the same order (None: none),
    recorded in the same transaction as :func:`scorer.app.store.actions.append_action` records
    one, so a repeat of the upload finds them by key.

    :raise IntegrityError: ``match_id`` is taken (the same upload stored it first), or a tap
        key is given twice; nothing stored.
    """
    key = edit_key or new_edit_key()
    with write(db):
        match_id = _insert_match(db, variant, options, names, mano, None, best_of, players, hash_key(key), match_id)
        now = time.time()
        if actions:
            db.execute(
                "INSERT INTO action (match_id, seq, body, created) VALUES (:id, :seq, :body, :now)",
                [{"id": match_id, "seq": seq, "body": json.dumps(a, sort_keys=True), "now": now}
                 for seq, a in enumerate(actions)],
            )
        taps = [{"id": match_id, "k": k, "seq": seq, "now": now} for seq, k in enumerate(tap_keys) if k is not None]
        if taps:
            db.execute("INSERT INTO tap (match_id, tap_key, seq, created) VALUES (:id, :k, :seq, :now)", taps)
        db.execute(
            "UPDATE match SET version = :v, score0 = :s0, score1 = :s1, winner = :winner WHERE id = :id",
            {"v": len(actions), "s0": int(score[0]), "s1": int(score[1]), "winner": winner, "id": match_id},
        )
    return _row(db.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().one(), key)


def rename_match(db: Database, match_id: str, names: tuple[str, str] | list[str]) -> MatchRow | None:
    """Change the two side names of a match (its actions and version stay); None if no such match."""
    db.execute(
        "UPDATE match SET names = :names, updated = :now WHERE id = :id",
        {"names": json.dumps(list(names), ensure_ascii=False), "now": time.time(), "id": match_id},
    )
    return get_match(db, match_id)
