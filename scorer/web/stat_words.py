"""The statistics' names on the page, in the request's language (issue 22): one short label
per key of :class:`scorer.core.stats.SideStats`, in the order the page shows them. The
one-line definitions are in docs/statistics.md ("The evening in numbers")."""

from __future__ import annotations

from flask_babel import lazy_gettext

from scorer.core.stats import SOURCES

STAT_ROWS = (
    ("matches_won", lazy_gettext("Games won")),
    ("tentos", lazy_gettext("Tentos")),
    ("hands_won", lazy_gettext("Hands won")),
    ("longest_run", lazy_gettext("Longest run of hands")),
    ("largest_deficit_overcome", lazy_gettext("Largest deficit overcome")),
    ("wins_with_loser_in_malas", lazy_gettext("Wins with the loser still in the malas")),
    ("truco_called", lazy_gettext("Truco calls (raises included)")),
    ("truco_accepted", lazy_gettext("Truco calls accepted")),
    ("truco_refused", lazy_gettext("Truco calls refused")),
    ("folds", lazy_gettext("Went to the mazo")),
    ("envido_called", lazy_gettext("Envido calls")),
    ("envido_won", lazy_gettext("Envidos won")),
    ("envido_points_average", lazy_gettext("Envido points declared (average)")),
    ("envido_bluffs", lazy_gettext("Envido calls with 23 or less")),
    ("envido_points_missing", lazy_gettext("Envidos settled without the points")),
    ("falta_envido_called", lazy_gettext("Falta Envido called")),
    ("falta_envido_won", lazy_gettext("Falta Envido won")),
    ("flor_sung", lazy_gettext("Flor sung")),
    ("contraflor_called", lazy_gettext("Contraflor called")),
    ("flor_won", lazy_gettext("Flores won")),
    ("special_played", lazy_gettext("Special hand (11 or 10) played")),
    ("special_run", lazy_gettext("Special hand (11 or 10) run from")),
    ("special_won", lazy_gettext("Special hand (11 or 10) played and won")),
    ("mao_de_ferro_won", lazy_gettext("Mão de ferro won")),
)
"""(key, label) of each row of the statistics table."""

SOURCE_WORDS = {
    "truco": lazy_gettext("Tentos from hands played"),
    "envido": lazy_gettext("Tentos from Envido"),
    "flor": lazy_gettext("Tentos from Flor"),
    "folds_and_refusals": lazy_gettext("Tentos from the other side's folds and refusals"),
    "corrections": lazy_gettext("Tentos from corrections"),
}
"""The label of each ``tentos_by_source`` key."""
assert tuple(SOURCE_WORDS) == SOURCES
