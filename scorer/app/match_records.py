"""The typed records a match crosses the application's boundary in (issue 35 item 3): what
:meth:`MatchService.export <scorer.app.match_service.MatchService.export>` gives (the JSON
export, the phone's copy of a match) and what a phone posts, each field said once. JSON is only
their wire form: the dicts are the same on both sides. The actions stored are the engine's
(:data:`scorer.core.schema.Action`, normalised before they were stored); a match's table
conventions are :data:`scorer.core.schema.Options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from scorer.core.schema import Action, Options

#: An action as a phone or a client posted it: a JSON object of no shape known yet. The engine
#: reads it (:func:`scorer.core.schema.normalize_action`) and refuses what is not an
#: :data:`~scorer.core.schema.Action` (422); only normalised actions are stored.
PostedAction = Mapping[str, object]


class ExportSettings(TypedDict):
    """An export's fields besides ``actions``: ``format`` (``truco-scorer-match/1``), the
    match's settings (``best_of``: its Revanche series' length; ``players``: None, or each
    side's players in their order of play) and, for people reading the file, ``score``
    (tentos per side) and ``winner`` (0, 1 or None). Never the edit key."""

    format: str
    variant: str
    options: Options
    mano: int
    names: list[str]
    best_of: int
    players: list[list[str]] | None
    score: list[int]
    winner: int | None


class MatchExport(ExportSettings):
    """A stored match's export: its settings and every action, oldest first."""

    actions: list[Action]


class ExportSince(MatchExport):
    """The export a phone asks for when it holds the first ``since`` actions: ``actions``
    from index ``since`` on, and ``version``, the actions in all."""

    since: int
    version: int
