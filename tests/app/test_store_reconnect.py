"""A pooled PostgreSQL connection that died while it sat in the pool (issue 23 item 5): the
first statement of the next checkout is sent again on a fresh connection, once; a
statement after the first never is (its request fails with OperationalError, the 503)."""

from __future__ import annotations

import pytest

from scorer.app import store


def kill_backends(postgres, url):
    """End every server process of the database at ``url`` (as a restart does)."""
    postgres.end_sessions(url)


def checkout_of_a_dead_connection(postgres, url):
    """A checkout of the one pooled connection, whose server process ended while it sat in
    the pool."""
    db = store.connect(url)
    db.execute("SELECT 1")
    db.close()
    kill_backends(postgres, url)
    return store.connect(url)


def test_a_connection_that_died_in_the_pool_is_replaced_before_the_first_statement(pg_url, postgres):
    held = [store.connect(pg_url) for _ in range(3)]  # three connections in the pool
    for db in held:
        db.execute("SELECT 1")
    for db in held:
        db.close()
    kill_backends(postgres, pg_url)
    for _ in range(3):  # each checkout works, whichever pooled connection it gets
        db = store.connect(pg_url)
        try:
            assert db.execute("SELECT 41 + 1").scalar() == 42
        finally:
            db.close()


def test_a_statement_after_the_first_is_never_sent_twice(pg_url, postgres):
    db = store.connect(pg_url)
    try:
        db.execute("SELECT 1")
        kill_backends(postgres, pg_url)
        with pytest.raises(store.OperationalError):
            db.execute("SELECT 2")
    finally:
        db.close()
    db = store.connect(pg_url)  # the pool opens a fresh one
    try:
        assert db.execute("SELECT 3").scalar() == 3
    finally:
        db.close()


def test_a_first_statement_that_is_not_a_read_is_not_resent(pg_url, postgres):
    db = checkout_of_a_dead_connection(postgres, pg_url)
    try:
        with pytest.raises(store.OperationalError):  # it might have reached the server: the request fails
            db.execute("CREATE TABLE IF NOT EXISTS resent (n INTEGER)")
    finally:
        db.close()


def test_the_poll_shortcuts_read_is_sent_again_on_a_fresh_connection_too(pg_url, postgres):
    """``first_values`` (the unchanged poll's read) replaces a connection that died in the
    pool, as ``execute`` does."""
    db = checkout_of_a_dead_connection(postgres, pg_url)
    try:
        assert db.first_values("SELECT 41 + 1") == (42,)
    finally:
        db.close()
