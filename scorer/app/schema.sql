-- truco-scorer's SQLite schema at version 1: migration 1 in scorer.app.store.MIGRATIONS.
-- Do not edit: later changes are new entries appended to that list.
-- A match is its settings plus the list of actions; the state is a replay of them.

CREATE TABLE IF NOT EXISTS match (
    id        TEXT PRIMARY KEY,          -- random, URL-safe
    edit_key  TEXT NOT NULL,             -- random, >= 128 bits, URL-safe
    series    TEXT NOT NULL,             -- id of the first match of a Revanche series
    variant   TEXT NOT NULL,
    options   TEXT NOT NULL,             -- JSON object
    names     TEXT NOT NULL,             -- JSON list of two strings
    mano      INTEGER NOT NULL CHECK (mano IN (0, 1)),
    version   INTEGER NOT NULL DEFAULT 0, -- number of actions stored
    score0    INTEGER NOT NULL DEFAULT 0, -- summary after the last action (for lists)
    score1    INTEGER NOT NULL DEFAULT 0,
    winner    INTEGER CHECK (winner IN (0, 1)),
    rematch   TEXT,                      -- id of the Revanche started from this match
    created   REAL NOT NULL,
    updated   REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS action (
    match_id  TEXT NOT NULL REFERENCES match (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,          -- 0-based; the match's version before this action
    body      TEXT NOT NULL,             -- the action as JSON
    created   REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS match_series ON match (series);
