"""The match engine: a Truco match as a fold over the actions the table calls out
(:class:`Match`, in :mod:`.engine`).

The class is one object in several rooms: :mod:`.engine` (the public API, legality by
trying each action on a copy, applying, the state), :mod:`.calls` (the truco ladder,
Envido and Flor, their answers and stakes), :mod:`.plays` (tricks, the hand's winner,
mazo, the special hand, corrections), :mod:`.hand` (the hand's state and who wins it)
and :mod:`.log_text` (the log in words).
"""

from scorer.core.match.engine import ACTION_TYPES, CALL_NAMES, Match, decide_hand, normalize_action, render_lines
from scorer.core.match.log_text import table_word

__all__ = ["ACTION_TYPES", "CALL_NAMES", "Match", "decide_hand", "normalize_action", "render_lines", "table_word"]
