"""The match engine: a Truco match as a fold over the actions the table calls out
(:class:`Match`, in :mod:`.engine`).

The class is one object in several rooms: :mod:`.engine` (the public API, legality by
trying each action on a copy, applying, the state), :mod:`.calls` (the truco ladder,
Envido and Flor, their answers), :mod:`.stakes` (what each stake is worth), :mod:`.plays` (tricks, the hand's winner,
mazo, the special hand, corrections), :mod:`.hand` (the hand's state and who wins it),
:mod:`.log` (the log as data: :class:`LogEntry` per action, :class:`LogFact` per thing
that happened) and :mod:`.error_words` (the table's words in the errors). The log is said
in words outside the core, by :mod:`scorer.present.log_words`.

A hand as the table calls it: each action is applied in turn, and the state is the fold
of the list (replaying it gives the same match); an illegal action raises and changes nothing.

>>> from scorer.core.match import Match
>>> match = Match("truco-15")                      # side 0 is mano in hand 1
>>> match.apply({"type": "call", "side": 0, "call": "truco"}).delta
(0, 0)
>>> match.apply({"type": "quiero", "side": 1}).delta
(0, 0)
>>> match.apply({"type": "hand_winner", "side": 0}).delta   # the truco was worth 2
(2, 0)
>>> match.score, match.version, match.winner
((2, 0), 3, None)
>>> Match.replay("truco-15", None, 0, match.actions).score
(2, 0)
>>> match.apply({"type": "quiero", "side": 1})
Traceback (most recent call last):
    ...
scorer.core.errors.RuleError: No call is waiting for an answer.
>>> _ = match.apply({"type": "undo"})              # Undo is an action too: the list only grows
>>> match.score, match.version
((0, 0), 4)
"""

from scorer.core.match.engine import ACTION_TYPES, CALL_NAMES, Match, decide_hand, normalize_action
from scorer.core.match.log import LogEntry, LogFact, LogKind

__all__ = ["ACTION_TYPES", "CALL_NAMES", "LogEntry", "LogFact", "LogKind", "Match", "decide_hand", "normalize_action"]
