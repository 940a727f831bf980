"""Tournaments as data plus a small state machine: brackets, leagues, groups, standings.

A tournament is its teams (in seed order, as
entered or after a recorded draw), its :class:`Settings`, and the results recorded so
far per slot (:class:`Result`, keyed by slot id). Everything else is derived:
:func:`build` lays out every slot the format can ever have (a slot is one match of the
tournament, its two teams given by :class:`Source`), and :func:`resolve` folds the
results into who plays whom now, the standings and the champion. Corrections are
changes to the results dict: :func:`dependents` lists what a reopened result undoes.

Rules (issue 11, "Tournaments"; club regulations it quotes):

- ``knockout``: the bracket has the next power of two ``P`` of places; the ``P - n``
  byes go to seeds 1..b, placed by the standard seeding order (1 v P, 2 v P-1, seeds 1
  and 2 in opposite halves), so byes exist only in round 1, never bye v bye, and the
  halves' byes differ by at most one. A bye is not a match. Optional ``repescagem``:
  the round-1 losers play their own knockout; its champion is crowned apart
  (``"apart"``) or meets, at round ``r`` of the main bracket, the winner of round
  ``r - 1``'s last match, the winner taking that place.
- ``round_robin``: circle method (team 1 fixed, the others rotating one place per
  round); an odd count adds a resting place, so each team rests exactly once per
  cycle; ``legs`` 2 plays a second cycle with sides swapped ("dos ruedas").
- ``groups``: teams dealt to groups snake-wise by seed, each group a round robin, then
  a knockout of the top ``advance`` per group plus the best ``best_extra`` teams placed
  ``advance + 1``-th across groups.

Standings: league points per result (:class:`Points`; walkovers do not count in tento
figures) and an ordered tiebreak list (:data:`TIEBREAKS`), each criterion applied to the
whole tied group; what stays tied after the last one is decided by a draw of lots the
caller records (:class:`Standings.needs_lots`).

The package is in rooms, one job each: :mod:`.model` (the values), :mod:`.settings`
(checking teams and settings), :mod:`.layout` (the draw: brackets, leagues, groups),
:mod:`.standings`, :mod:`.progress` (:func:`resolve`) and :mod:`.corrections` (record,
confirm, reopen). Callers use the names below, as ``tournament.resolve(...)``. Pure:
imports neither Flask nor sqlite3.
"""

from scorer.core.tournament.corrections import comes_back, confirm, dependents, record, reopen
from scorer.core.tournament.layout import (
    build, circle_rounds, group_members, knockout_slots, league_slots, seeding_order, snake_groups, stage_names,
)
from scorer.core.tournament.model import (
    BEST_OF, FORMATS, MAX_TEAMS, MIN_TEAMS, TEAM_NAME_MAX, TIEBREAKS, Points, Result, ResultJSON, Settings, Slot,
    Source, Tournament, TournamentError,
)
from scorer.core.tournament.progress import SlotView, View, counts, resolve
from scorer.core.tournament.settings import check_teams, check_text, settings_from_json
from scorer.core.tournament.standings import SEPARATORS, Row, Standings, standings

__all__ = [
    "BEST_OF", "FORMATS", "MAX_TEAMS", "MIN_TEAMS", "SEPARATORS", "TEAM_NAME_MAX", "TIEBREAKS", "Points", "Result", "ResultJSON", "Row", "Settings",
    "Slot", "SlotView", "Source", "Standings", "Tournament", "TournamentError", "View", "build", "check_teams", "check_text",
    "circle_rounds", "comes_back", "confirm", "counts", "dependents", "group_members", "knockout_slots", "league_slots", "record",
    "reopen", "resolve", "seeding_order", "settings_from_json", "snake_groups", "stage_names", "standings",
]
