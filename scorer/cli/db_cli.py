"""``truco db``: copy every tournament and match between databases, and prune idle ones.

``truco db copy --from SOURCE --to TARGET`` copies tournaments (settings, teams, players,
seeds, lots, slots with their match links, audit, the organizer's and teams' keys as
stored) and matches (settings, key hashes, series, players, every action) from one
database to another, SQLite to PostgreSQL or back, keeping their ids, so links and QR
codes already shared (organizer, TV, team, table) keep working on the new one. Each
copied match is replayed by the engine on the target and must reach the state replayed
from the source and the score stored with it; every match a copied tournament links to
must be on the target; the command reports the counts.

``truco db prune --db URL --idle-days N [--dry-run]`` deletes every tournament nothing
happened in for N days, whole, with its matches (:func:`scorer.app.store.prune_tournaments`),
and the matches of every other Revanche series nothing happened in for N days
(:func:`scorer.app.store.prune`).
"""

from __future__ import annotations

import click

from scorer.app import store
from scorer.cli.serve import DEFAULT_DB, database_setting
from scorer.core.errors import TrucoError
from scorer.core.match import Match
from scorer.core.seats import players_per_side


def _open(value: str, option: str) -> store.Database:
    """Connect to and migrate a database named on the command line.

    :raise click.ClickException: it cannot be reached.
    """
    database = database_setting(value)
    try:
        db = store.connect(database)
        store.init_db(db)
    except store.UNAVAILABLE as error:
        reason = str(getattr(error, "orig", error)).strip().splitlines()[0]
        raise click.ClickException(f"Cannot reach {option} {store.describe(store.database_url(database))}: {reason}") from None
    return db


def replayed(db: store.Database, match_id: str) -> tuple[tuple[int, int], int | None, int]:
    """``(score, winner, version)`` of a stored match as the engine replays it.

    :raise TrucoError: a stored action the engine refuses.
    :raise click.ClickException: no such match.
    """
    row = store.get_match(db, match_id)
    if row is None:
        raise click.ClickException(f"No match {match_id} in the database.")
    m = Match.replay(row.variant, row.options, row.mano, store.get_actions(db, match_id), players_per_side(row.players))
    state = m.state()
    return (state["score"][0], state["score"][1]), state["winner"], m.version


@click.group("db")
def db_group() -> None:
    """Copy tournaments and matches between databases (SQLite, PostgreSQL) and prune idle ones."""


@db_group.command("copy")
@click.option("--from", "source", required=True, help="Database to copy from: a SQLite path or URL, or postgresql://...")
@click.option("--to", "target", required=True, help="Database to copy into (created or upgraded first).")
def copy_command(source: str, target: str) -> None:
    """Copy every tournament, club and match from SOURCE to TARGET and check each match replays
    to the same state and each tournament's matches are there.

    Tournaments and matches already in TARGET (same id) are left as they are and counted
    apart. Exits with status 1 if a copied match does not replay to its source's state,
    or a copied tournament links to a match TARGET lacks.
    """
    if store.database_url(database_setting(source)) == store.database_url(database_setting(target)):
        raise click.BadParameter("--from and --to name the same database", param_hint="--to")
    src, dst = _open(source, "--from"), _open(target, "--to")
    try:
        # Tournaments first: every match a copied slot links to already exists, so it is copied below.
        tournaments = [tid for tid in store.tournament_ids(src) if store.copy_tournament(src, dst, tid)]
        skipped_t = len(store.tournament_ids(src)) - len(tournaments)
        clubs = [cid for cid in store.club_ids(src) if store.copy_club(src, dst, cid)]  # issue 32
        skipped_c = len(store.club_ids(src)) - len(clubs)
        copied, skipped, wrong = _copy_matches(src, dst)
        broken = [tid for tid in tournaments if store.unlinked_matches(dst, tid)]
    finally:
        src.close()
        dst.close()
    where = (f"from {store.describe(store.database_url(database_setting(source)))}"
             f" to {store.describe(store.database_url(database_setting(target)))}")
    click.echo(f"Copied {copied} matches ({skipped} already there) and {len(tournaments)} tournaments"
               f" ({skipped_t} already there) {where}; {copied - len(wrong)} replay to the same state."
               + (f" Copied {len(clubs)} clubs ({skipped_c} already there)." if clubs or skipped_c else ""))
    if wrong:
        raise click.ClickException(f"{len(wrong)} copied matches replay differently: {', '.join(wrong)}")
    if broken:
        raise click.ClickException(f"{len(broken)} copied tournaments link to matches not copied: {', '.join(broken)}")


def _copy_matches(src: store.Database, dst: store.Database) -> tuple[int, int, list[str]]:
    """Copy every match of ``src`` missing from ``dst``: ``(copied, already there, ids of
    copies that do not replay to their source's state)``."""
    copied = skipped = 0
    wrong: list[str] = []
    for match_id in store.match_ids(src):
        if not store.copy_match(src, dst, match_id):
            skipped += 1
            continue
        copied += 1
        row = store.get_match(src, match_id)
        assert row is not None  # listed above, and just copied from there
        try:
            ok = replayed(dst, match_id) == replayed(src, match_id) == (row.score, row.winner, row.version)
        except TrucoError:
            ok = False
        if not ok:
            wrong.append(match_id)
    return copied, skipped, wrong


@db_group.command("prune")
@click.option("--db", "db_path", default=DEFAULT_DB, show_default=True, envvar="TRUCO_DB",
              help="The database: SQLite path or URL, or postgresql://... (also TRUCO_DB).")
@click.option("--idle-days", required=True, type=click.IntRange(1, 36500),
              help="Delete every tournament (whole), and the matches of every other Revanche series,"
                   " idle at least this many days.")
@click.option("--dry-run", is_flag=True, help="Only say what would be deleted.")
def prune_command(db_path: str, idle_days: int, dry_run: bool) -> None:
    """Delete idle tournaments (whole, with their matches) and idle matches, finished or
    abandoned (a whole series at a time); a match of a tournament goes only with it."""
    db = _open(db_path, "--db")
    try:
        tournaments = store.prune_tournaments(db, idle_days * 86400, dry_run=dry_run)
        ids = store.prune(db, idle_days * 86400, dry_run=dry_run)
    finally:
        db.close()
    verb = "Would delete" if dry_run else "Deleted"
    in_them = sum(len(t.matches) for t in tournaments)
    click.echo(f"{verb} {len(ids)} matches idle for {idle_days} days or more, and {len(tournaments)} whole"
               f" tournaments idle as long ({in_them} matches in them).")
    for t in tournaments if dry_run else ():
        click.echo(f"  tournament {t.id} {t.name!r} ({len(t.matches)} matches)")
    for match_id in ids if dry_run else ():
        click.echo(f"  {match_id}")
