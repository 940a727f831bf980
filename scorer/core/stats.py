"""The evening in numbers: what each side called, won and ran from, read from a match's log.

Pure: the statistics are a fold over the log's facts (:class:`~scorer.core.match.LogEntry`,
:class:`~scorer.core.match.LogFact`) plus the variant's rules (its special hand's threshold,
its malas), so a match exported and imported gives the same numbers, and the table never taps
anything more. :func:`match_stats` gives both sides' :class:`SideStats` for one match;
``+`` adds them up over a Revanche series or a team's tournament games. Sides are ``0`` and
``1``; every number of points is in tentos. Each statistic is defined in one line in the
docs/statistics.md ("The evening in numbers").

>>> from scorer.core.match import Match
>>> from scorer.core.variants import VARIANTS
>>> m = Match(sorted(VARIANTS)[0])
>>> truco = m.variant.truco_ladder[0].call
>>> _ = m.apply({"type": "call", "side": 0, "call": truco})
>>> _ = m.apply({"type": "no_quiero", "side": 1})
>>> nos, eles = match_stats(m)
>>> nos.truco_called, eles.truco_refused, nos.tentos_by_source["folds_and_refusals"]
(1, 1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from scorer.core.match.log import LogEntry, LogFact, LogKind
from scorer.core.variants import ENVIDO_CALLS, FLOR_CALLS, Variant

if TYPE_CHECKING:
    from scorer.core.match import Match

SOURCES = ("truco", "envido", "flor", "folds_and_refusals", "corrections")
"""Where tentos come from (``tentos_by_source`` keys): a hand won in play (its worth, the
truco ladder's included), Envido, Flor, a hand the other side gave up (mazo, no quiero to a
truco call, running from the special hand), and manual corrections (signed)."""

BLUFF_MAX = 23
"""An Envido call made with this many points or fewer is a bluff (the issue's word)."""

_REFUSING = frozenset({LogKind.MAZO, LogKind.TRUCO_REFUSED, LogKind.SPECIAL_RUN})


def _who(fact: LogFact) -> int:
    """The side of a fact whose kind always has one (a call, an answer, a chain won, a hand won)."""
    assert fact.side is not None
    return fact.side


def _tentos(fact: LogFact) -> int:
    """The tentos of a fact whose kind always pays some (a refusal, a chain won, a hand, a correction)."""
    assert fact.points is not None
    return fact.points


def _called(fact: LogFact) -> str:
    """The call of a fact whose kind always names one (a Truco accepted)."""
    assert fact.call is not None
    return fact.call


def _number(fact: LogFact) -> int:
    """The number of the hand a ``hand`` fact closes."""
    assert fact.number is not None
    return fact.number
_FLOR_PAID = frozenset({LogKind.FLOR_REFUSED, LogKind.FLOR_UNCONTESTED})


def _sources() -> dict[str, int]:
    return dict.fromkeys(SOURCES, 0)


@dataclass
class SideStats:
    """One side's statistics for a match, or summed over several (``+``).

    Counts are whole numbers; ``largest_deficit_overcome`` and ``longest_run`` take the
    largest of the matches added; ``tentos_by_source`` sums per :data:`SOURCES`. The JSON
    form (:meth:`as_dict`) adds ``envido_points_average`` (one decimal, None when no points
    were typed).
    """

    matches_played: int = 0
    matches_won: int = 0
    tentos: int = 0
    hands_played: int = 0
    hands_won: int = 0
    longest_run: int = 0
    envido_called: int = 0
    envido_won: int = 0
    envido_points_declared: int = 0
    envido_points_sum: int = 0
    envido_points_missing: int = 0
    envido_bluffs: int = 0
    falta_envido_called: int = 0
    falta_envido_won: int = 0
    truco_called: int = 0
    truco_accepted: int = 0
    truco_refused: int = 0
    folds: int = 0
    flor_sung: int = 0
    contraflor_called: int = 0
    flor_won: int = 0
    special_played: int = 0
    special_run: int = 0
    special_won: int = 0
    mao_de_ferro_won: int = 0
    largest_deficit_overcome: int = 0
    wins_with_loser_in_malas: int = 0
    tentos_by_source: dict[str, int] = field(default_factory=_sources)

    _LARGEST = ("largest_deficit_overcome", "longest_run")

    def __add__(self, other: SideStats) -> SideStats:
        """The two summed (largest of ``largest_deficit_overcome`` and ``longest_run``)."""
        out = SideStats()
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "tentos_by_source":
                setattr(out, f.name, {k: a[k] + b[k] for k in SOURCES})
            elif f.name in self._LARGEST:
                setattr(out, f.name, max(a, b))
            else:
                setattr(out, f.name, a + b)
        return out

    @property
    def envido_points_average(self) -> float | None:
        """The average Envido count this side declared (one decimal), None if none typed."""
        if not self.envido_points_declared:
            return None
        return round(self.envido_points_sum / self.envido_points_declared, 1)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SideStats:
        """A side's statistics from :meth:`as_dict`'s form (its ``envido_points_average``, and any
        key that is not a field, left out).

        >>> SideStats.from_dict(SideStats(hands_won=3).as_dict()) == SideStats(hands_won=3)
        True
        """
        names = {f.name for f in fields(cls)}
        values: dict[str, Any] = {k: (dict(v) if k == "tentos_by_source" else v) for k, v in data.items() if k in names}
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: every field, plus ``envido_points_average``."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["tentos_by_source"] = dict(self.tentos_by_source)
        out["envido_points_average"] = self.envido_points_average
        return out


def flat_keys() -> list[str]:
    """The columns of a statistics table (CSV, the page): every key, sources spelled
    ``tentos_by_source.<source>``."""
    keys = [f.name for f in fields(SideStats) if f.name != "tentos_by_source"]
    return keys + ["envido_points_average"] + [f"tentos_by_source.{s}" for s in SOURCES]


def flat(stats: SideStats) -> dict[str, Any]:
    """``stats`` as one row of :func:`flat_keys`."""
    data = stats.as_dict()
    sources = data.pop("tentos_by_source")
    data.update({f"tentos_by_source.{s}": sources[s] for s in SOURCES})
    return {key: data[key] for key in flat_keys()}


class _Fold:
    """The state of the fold over one match's log (:func:`log_stats`)."""

    def __init__(self, variant: Variant, target: int) -> None:
        self.variant, self.target = variant, target
        self.sides = (SideStats(matches_played=1), SideStats(matches_played=1))
        self.chain_calls: list[int] = []  # the callers of the Envido chain of this hand, in order
        self.falta_by: int | None = None
        self.special_side: int | None = None
        self.ferro = False
        self.run = [0, 0]
        self.worst = [0, 0]  # the most each side trailed by
        self.hand = 0

    def start_hand(self, number: int, before: tuple[int, int]) -> None:
        self.hand, self.chain_calls, self.falta_by, self.special_side = number, [], None, None
        special = self.variant.special_hand
        self.ferro = special is not None and all(special.threshold <= s < self.target for s in before)

    def fact(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        handler = getattr(self, "_" + fact.kind.value, None)
        if handler is not None:
            handler(fact, facts)

    def _call(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        side = self.sides[_who(fact)]
        if fact.call in ENVIDO_CALLS:
            side.envido_called += 1
            self.chain_calls.append(_who(fact))
            if fact.call == "falta_envido":
                side.falta_envido_called += 1
                self.falta_by = _who(fact)
        elif fact.call == "flor":
            side.flor_sung += 1
        elif fact.call in FLOR_CALLS:
            side.contraflor_called += 1
        else:
            side.truco_called += 1

    def _quiero(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        if fact.value is not None:
            self.sides[_who(fact)].truco_accepted += 1

    _played_on = _quiero

    def _truco_refused(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        self.sides[_who(fact)].truco_refused += 1

    def _mazo(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        self.sides[_who(fact)].folds += 1

    def _flor_cancels_envido(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        self.chain_calls, self.falta_by = [], None

    def _envido_paid(self, winner: int, points: int) -> None:
        self.sides[winner].envido_won += 1
        self.sides[winner].tentos_by_source["envido"] += points
        if self.falta_by is not None:
            self.sides[self.falta_by].falta_envido_won += self.falta_by == winner

    def _envido_refused(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        self._envido_paid(_who(fact), _tentos(fact))

    def _chain_won(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        if fact.chain[0] in FLOR_CALLS:
            self._flor_refused(fact, facts)
            return
        self._envido_paid(_who(fact), _tentos(fact))
        if fact.counts is None:
            for side in self.sides:
                side.envido_points_missing += 1
            return
        for who, count in ((_who(fact), fact.counts[0]), (1 - _who(fact), fact.counts[1])):
            self.sides[who].envido_points_declared += 1
            self.sides[who].envido_points_sum += count
            if count <= BLUFF_MAX:
                self.sides[who].envido_bluffs += self.chain_calls.count(who)

    def _flor_refused(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        self.sides[_who(fact)].flor_won += 1
        self.sides[_who(fact)].tentos_by_source["flor"] += _tentos(fact)

    _flor_uncontested = _flor_refused

    def _special_played(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        self.sides[_who(fact)].special_played += 1
        self.special_side = _who(fact)

    def _special_run(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        self.sides[_who(fact)].special_run += 1

    def _correction(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        self.sides[_who(fact)].tentos_by_source["corrections"] += _tentos(fact)

    def _hand(self, fact: LogFact, facts: Sequence[LogFact]) -> None:
        for side in self.sides:
            side.hands_played += 1
        if fact.side is None:
            self.run = [0, 0]
            return
        winner = self.sides[_who(fact)]
        winner.hands_won += 1
        given_up = any(f.kind in _REFUSING for f in facts)
        winner.tentos_by_source["folds_and_refusals" if given_up else "truco"] += _tentos(fact)
        self.run = [self.run[0] + 1, 0] if _who(fact) == 0 else [0, self.run[1] + 1]
        winner.longest_run = max(winner.longest_run, self.run[_who(fact)])
        winner.special_won += self.special_side == _who(fact)
        winner.mao_de_ferro_won += self.ferro

    def entry(self, entry: LogEntry) -> None:
        if entry.hand != self.hand and entry.action["type"] != "adjust":
            before = (entry.score[0] - entry.delta[0], entry.score[1] - entry.delta[1])
            self.start_hand(entry.hand, before)
        for fact in entry.facts:
            self.fact(fact, entry.facts)
        for side in (0, 1):
            self.worst[side] = max(self.worst[side], entry.score[1 - side] - entry.score[side])

    def finish(self, score: tuple[int, int], winner: int | None) -> tuple[SideStats, SideStats]:
        for index, side in enumerate(self.sides):
            side.tentos = score[index]
        if winner is not None:
            won = self.sides[winner]
            won.matches_won = 1
            won.largest_deficit_overcome = self.worst[winner]
            stage = self.variant.stage(score[1 - winner], self.target)
            won.wins_with_loser_in_malas = int(stage is not None and stage["stage"] == "malas")
        return self.sides


def log_stats(log: Sequence[LogEntry], variant: Variant, target: int, winner: int | None) -> tuple[SideStats, SideStats]:
    """Both sides' statistics from a match's log (its entries, oldest first).

    Args:
        log: the match's log (``Match.state()["log"]``), every entry.
        variant: the match's variant (its special hand and malas).
        target: the match's target (tentos).
        winner: the side that won, or None while the game goes on.

    Returns:
        ``(side 0, side 1)``; ``tentos`` is the score after the last entry (0 for none).
    """
    fold = _Fold(variant, target)
    for entry in log:
        fold.entry(entry)
    score = log[-1].score if log else (0, 0)
    return fold.finish((score[0], score[1]), winner)


def unplayed() -> tuple[SideStats, SideStats]:
    """Both sides' statistics of a match with no action yet: what :func:`log_stats` gives for
    an empty log (each side has one match played, nothing else), without building the match.

    >>> unplayed() == match_stats(Match(sorted(VARIANTS)[0]))
    True
    """
    return SideStats(matches_played=1), SideStats(matches_played=1)


def match_stats(match: Match) -> tuple[SideStats, SideStats]:
    """Both sides' statistics of a :class:`~scorer.core.match.Match` (:func:`log_stats`)."""
    return log_stats(match.log, match.variant, match.target, match.winner)


def total(stats: Sequence[SideStats]) -> SideStats:
    """The sum of several matches' statistics for one side (an empty one for none): as
    ``+`` over them, in one pass (a 64-team round robin adds 4,032 games' sides)."""
    rows = [_counts(one) for one in stats]
    columns = list(zip(*rows)) if rows else [(0,)] * (len(_COUNTS) + len(SideStats._LARGEST))
    sums = dict(zip(_COUNTS, map(sum, columns[:len(_COUNTS)])))
    largest = dict(zip(SideStats._LARGEST, map(max, columns[len(_COUNTS):])))
    sources = _sources()
    for one in stats:
        for key, tentos in one.tentos_by_source.items():
            sources[key] += tentos
    return SideStats(**sums, **largest, tentos_by_source=sources)


#: The fields :func:`total` adds up (all but the largest-of ones and the sources).
_COUNTS = tuple(f.name for f in fields(SideStats) if f.name not in SideStats._LARGEST and f.name != "tentos_by_source")
#: A side's counts, then its largest-of values, as one tuple (read in C: :func:`total`).
_counts = attrgetter(*_COUNTS, *SideStats._LARGEST)


@dataclass(frozen=True)
class StoryPoint:
    """The score after one hand (or after the action that ended the game mid-hand), with the
    calls that decided it: ``marks``, each ``(side, call)`` -- the top truco call accepted, an
    Envido or Flor chain's last call with the side it paid, a fold (``"mazo"``), a refusal
    (``"no_quiero"``) or a special hand run from (``"run"``). ``hand`` is 0 for the start."""

    hand: int
    score: tuple[int, int]
    marks: tuple[tuple[int, str], ...] = ()


def score_story(log: Sequence[LogEntry]) -> list[StoryPoint]:
    """Both scores hand by hand, from the log: the start (0, 0), then one point per hand paid,
    plus the last entry's score when the game ended inside a hand. Corrections move the score
    of the hand they were made in."""
    story = [StoryPoint(0, (0, 0))]
    marks: list[tuple[int, str]] = []
    top: tuple[int, str] | None = None
    for entry in log:
        for fact in entry.facts:
            if fact.kind in (LogKind.QUIERO, LogKind.PLAYED_ON) and fact.value is not None:
                top = (1 - _who(fact), _called(fact))  # the caller's call, accepted
            elif fact.kind in (LogKind.CHAIN_WON, LogKind.ENVIDO_REFUSED):
                marks.append((_who(fact), fact.chain[-1]))
            elif fact.kind in _FLOR_PAID:
                marks.append((_who(fact), fact.call or "flor"))
            elif fact.kind == LogKind.MAZO:
                marks.append((_who(fact), "mazo"))
            elif fact.kind == LogKind.TRUCO_REFUSED and not any(f.kind == LogKind.MAZO for f in entry.facts):
                marks.append((_who(fact), "no_quiero"))
            elif fact.kind == LogKind.SPECIAL_RUN:
                marks.append((_who(fact), "run"))
            elif fact.kind == LogKind.HAND:
                story.append(StoryPoint(_number(fact), entry.score, tuple(([top] if top else []) + marks)))
                marks, top = [], None
    if log and log[-1].score != story[-1].score:
        story.append(StoryPoint(log[-1].hand, log[-1].score, tuple(([top] if top else []) + marks)))
    return story
