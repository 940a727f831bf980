"""A tournament's keys, and the instance secret the tables' and teams' keys come from.

- The **organizer key** is random (256 bits, like a match's edit key), given once when the
  tournament is created (in the organizer's link) and stored only as its hash
  (:func:`scorer.app.store.hash_key`).
- A **team key** and a **table key** (the edit key of the matches a slot plays) are an HMAC
  of the tournament and the team or slot with the **instance secret**, which is not in the
  database: the organizer's pages derive every link again, the matches a finished game
  starts get their key without anyone's link at hand, and a copy of the database (or a
  dump) opens nothing. The database keeps the hash of each team key and each match's
  key hash, as it does for every match.
- The instance secret is a file of 43 URL-safe characters (256 bits), created with mode
  0600 at first start beside a SQLite database (``truco.sqlite3`` -> ``truco.secret``), or
  named by ``truco serve --secret-file`` / ``TRUCO_SECRET_FILE``, or given as text in
  ``TRUCO_SECRET``. Every server of one database needs the same secret.
- Tournaments made before issue 23 had their tables' keys derived from the organizer key
  and random team keys: migration 7 (:data:`scorer.app.store.MIGRATIONS`) hashes their
  stored keys, their old team links keep working by that hash, and the organizer's page
  finds an old table's key again from the organizer key in its own link (:func:`legacy_table_key`).

This module imports neither Flask nor the engine.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from scorer.app.store import database_url, hash_key, sqlite_path

#: Random bytes of a new instance secret (256 bits, 43 URL-safe characters).
SECRET_BYTES = 32
#: Fewest characters a secret given in ``TRUCO_SECRET`` or a file may have.
SECRET_MIN_CHARS = 32
#: Name of the secret file beside a database that is not a SQLite file (in the current folder).
SECRET_FILE = "truco.secret"


class SecretError(ValueError):
    """The instance secret cannot be used: ``reason`` says why (too short, unreadable)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def secret_file_for(database: str | os.PathLike) -> Path:
    """Where the instance secret of ``database`` lives by default: beside a SQLite file,
    with its name and ``.secret`` (``/srv/truco.sqlite3`` -> ``/srv/truco.secret``); for
    PostgreSQL ``truco.secret`` in the current folder."""
    path = sqlite_path(database_url(database))
    if path is None:
        return Path(SECRET_FILE).resolve()
    return Path(path).with_suffix(".secret")


def load_secret(path: str | os.PathLike) -> bytes:
    """The secret in the file ``path``, made first if missing (mode 0600, owner only;
    written whole before it appears, so two processes starting at once read the same one).

    :raise SecretError: the file is shorter than :data:`SECRET_MIN_CHARS` or unreadable.
    """
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, (secrets.token_urlsafe(SECRET_BYTES) + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temp, path)  # fails if another process made it first: theirs is the one
        except FileExistsError:
            pass
        finally:
            temp.unlink()
    try:
        return check_secret(path.read_text(encoding="utf-8").strip())
    except OSError as e:
        raise SecretError(f"{path}: {e.strerror}") from None


def instance_secret(database: str | os.PathLike, *, path: str | os.PathLike | None = None,
                    text: str | None = None) -> bytes:
    """The instance secret of ``database``: ``text`` (``TRUCO_SECRET``) if given, else the
    file ``path``, else the file :func:`secret_file_for` names; a missing file is made.

    :raise SecretError: see :func:`load_secret` and :func:`check_secret`.
    """
    if text:
        return check_secret(text)
    return load_secret(path or secret_file_for(database))


def check_secret(text: str) -> bytes:
    """A secret given as text, as the bytes keys are derived with.

    :raise SecretError: shorter than :data:`SECRET_MIN_CHARS` characters.
    """
    if len(text) < SECRET_MIN_CHARS:
        raise SecretError(f"the instance secret must have at least {SECRET_MIN_CHARS} characters")
    return text.encode()


def _mac(key: bytes, message: str) -> str:
    digest = hmac.new(key, message.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def legacy_table_key(organizer_key: str, slot_id: str) -> str:
    """The edit key of a slot's matches in a tournament made before issue 23: an HMAC of
    the slot with the organizer's key (only its organizer's link can find it again)."""
    return _mac(organizer_key.encode(), f"table:{slot_id}")


def organizer_fits(organizer_hash: str, key: str | None) -> bool:
    """Whether ``key`` is the organizer key whose stored hash is ``organizer_hash``
    (constant-time)."""
    return key is not None and key != "" and hmac.compare_digest(hash_key(key).encode(), organizer_hash.encode())


class TournamentKeys:
    """The keys derived from one instance secret (``secret``: bytes, see :func:`load_secret`)."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def table(self, tid: str, slot_id: str) -> str:
        """The edit key of the matches slot ``slot_id`` of tournament ``tid`` plays
        (URL-safe text, 256 bits)."""
        return _mac(self._secret, f"table:{tid}:{slot_id}")

    def team(self, tid: str, team: int) -> str:
        """Team ``team``'s (index) confirmation key in tournament ``tid`` (URL-safe text, 256 bits)."""
        return _mac(self._secret, f"team:{tid}:{team}")

    def offline_match(self, offline_id: str) -> tuple[str, str]:
        """The id (16 characters, like a random one) and the edit key (256 bits) of the match a
        phone started offline as ``offline_id`` (issue 24): the same every time it is uploaded."""
        return _mac(self._secret, f"offline-id:{offline_id}")[:16], _mac(self._secret, f"offline-key:{offline_id}")

    def team_hashes(self, tid: str, teams: int) -> list[str]:
        """What the database keeps of the ``teams`` team keys: their hashes."""
        return [hash_key(self.team(tid, i)) for i in range(teams)]

    def team_fits(self, tid: str, team_hashes: tuple[str, ...], team: int, key: str) -> bool:
        """Whether ``key`` is team ``team``'s: the key derived now, or one whose hash is
        stored (a tournament made before issue 23 kept its random team keys), constant-time.
        ``team`` must be a valid index."""
        derived = hmac.compare_digest(key.encode(), self.team(tid, team).encode())
        stored = team < len(team_hashes) and hmac.compare_digest(hash_key(key).encode(),
                                                                 team_hashes[team].encode())
        return derived or stored

    def table_link(self, tid: str, slot_id: str, key_hash: str, organizer_key: str | None) -> str | None:
        """The key of a slot's match whose stored hash is ``key_hash``, for the organizer's
        pages: the one derived from the secret, else (a table of a tournament made before
        issue 23) the one derived from ``organizer_key``; None if neither is it (a
        database copied from an instance with another secret)."""
        candidates = [self.table(tid, slot_id)]
        if organizer_key:
            candidates.append(legacy_table_key(organizer_key, slot_id))
        for key in candidates:
            if hmac.compare_digest(hash_key(key).encode(), key_hash.encode()):
                return key
        return None
