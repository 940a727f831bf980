-- truco-scorer's PostgreSQL schema at version 1: migration 1 in scorer.app.store.MIGRATIONS.
-- The same tables as schema.sql (SQLite) in PostgreSQL's types; later migrations are
-- portable SQL run on both. Do not edit: later changes are new entries appended to that list.

CREATE TABLE IF NOT EXISTS match (
    id        TEXT PRIMARY KEY,
    edit_key  TEXT NOT NULL,
    series    TEXT NOT NULL,
    variant   TEXT NOT NULL,
    options   TEXT NOT NULL,
    names     TEXT NOT NULL,
    mano      INTEGER NOT NULL CHECK (mano IN (0, 1)),
    version   INTEGER NOT NULL DEFAULT 0,
    score0    INTEGER NOT NULL DEFAULT 0,
    score1    INTEGER NOT NULL DEFAULT 0,
    winner    INTEGER CHECK (winner IN (0, 1)),
    rematch   TEXT,
    created   DOUBLE PRECISION NOT NULL,
    updated   DOUBLE PRECISION NOT NULL
);

CREATE TABLE IF NOT EXISTS action (
    match_id  TEXT NOT NULL REFERENCES match (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    body      TEXT NOT NULL,
    created   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, seq)
);

CREATE INDEX IF NOT EXISTS match_series ON match (series);
