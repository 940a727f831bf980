"""The match engine: a Truco match as a fold over the actions the table calls out
(:class:`Match`, in :mod:`.engine`).

The class is one object in several rooms: :mod:`.engine` (the public API, legality by
trying each action on a copy, applying, the state), :mod:`.calls` (the truco ladder,
Envido and Flor, their answers and stakes), :mod:`.plays` (tricks, the hand's winner,
mazo, the special hand, corrections), :mod:`.hand` (the hand's state and who wins it),
:mod:`.log` (the log as data: :class:`LogEntry` per action, :class:`LogFact` per thing
that happened) and :mod:`.error_words` (the table's words in the errors). The log is said
in words outside the core, by :mod:`scorer.present.log_words`.
"""

from scorer.core.match.engine import ACTION_TYPES, CALL_NAMES, Match, decide_hand, normalize_action
from scorer.core.match.log import LogEntry, LogFact, LogKind

__all__ = ["ACTION_TYPES", "CALL_NAMES", "LogEntry", "LogFact", "LogKind", "Match", "decide_hand", "normalize_action"]
