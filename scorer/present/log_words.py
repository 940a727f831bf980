"""The match log in words: the engine's log entries (data, :mod:`scorer.core.match.log`)
said with the sides' names and the variant's table words, in the reader's language.

One module for every edge: the scoreboard and watch pages, the JSON API, the CSV log and
``truco replay --lang pt|es|en|ca``. Each :class:`~scorer.core.match.LogFact` is one sentence
(an English template marked ``N_``, translated by the ``translate`` callable the edge passes:
Flask-Babel's on the web, the CLI's catalog in ``truco replay``); an entry's sentences are
joined by a space. Game terms come from the variant's table
(:attr:`scorer.core.variants.Variant.words`: "Real envido: querido", "Truco: correram"); a
side's name is a label or follows a preposition, never the subject of a verb
(docs/rules.md §Table words). Points are printed as the engine paid them (tentos); nothing
is computed here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from scorer.core.errors import N_
from scorer.core.match import CALL_NAMES, LogEntry, LogFact, LogKind
from scorer.core.schema import MatchState, State
from scorer.core.variants import OPEN_RAISE, TABLE_WORDS, VARIANTS, PageWord, TableWord, TableWords

Translate = Callable[[str], str]
"""A gettext-like callable: an English msgid in, the reader's language out."""


class SaidEntry(TypedDict):
    """A log entry as the JSON API, the pages and ``truco replay`` show it (the wire form):
    its ``index`` (0-based), the ``action``, the tentos each side won (``delta``), the
    ``score`` after it, the ``hand`` number and its sentences (``text``)."""

    index: int
    action: dict[str, Any]
    delta: list[int]
    score: list[int]
    hand: int
    text: str


#: The match's state in its JSON form (what the API answers and the board is built from):
#: :class:`scorer.core.schema.MatchState` with ``log`` said in words (a list of
#: :class:`SaidEntry`; :func:`say_state`).
SaidState = MatchState[SaidEntry]


def table_word(word: TableWord, translate: Translate | None = None) -> str:
    """A table word as written: a ``str`` as it is, a :class:`~scorer.core.variants.PageWord`
    in the reader's language (``translate``; English without it)."""
    if isinstance(word, PageWord):
        return translate(word.msgid) if translate else word.msgid
    return word


@dataclass(frozen=True)
class _Words:
    """The words one log is said with: the sides' names, the table's words, the language."""

    names: Sequence[str]
    words: TableWords
    translate: Translate | None

    def name(self, side: int | None) -> str:
        return self.names[side] if side in (0, 1) else "?"

    def calls(self, calls: Iterable[str], amounts: Sequence[int] = ()) -> str:
        """Call ids as the table names them, joined ("Envido, Real envido"); each open raise
        with its tentos, the next of ``amounts`` ("Envido, tres más")."""
        left = iter(amounts)
        return ", ".join(self.words.raise_by(next(left, 0)) if call == OPEN_RAISE
                         else self.words.calls.get(call, CALL_NAMES.get(call, call)) for call in calls)

    def shout(self, call: str, chain: tuple[str, ...] = (), amounts: Sequence[int] = ()) -> str:
        """The call as shouted ("¡Tres más!" for an open raise of ``amounts[0]``); over the same
        call (``chain`` ends with it twice), the table's own words where it has them
        ("¡Quiero y envido!", "Torne!")."""
        if call == OPEN_RAISE and amounts:
            return self.words.raise_by(amounts[0], shout=True)
        if chain[-2:-1] == (call,) and call in self.words.raise_shouts:
            return self.words.raise_shouts[call]
        return self.words.shouts.get(call, CALL_NAMES.get(call, call) + "!")

    def said(self, how: str, call: str | None = None) -> str:
        """``accepted``, ``refused`` or ``tie`` as the table says it of ``call`` ("querido",
        "Flor querida", "correram")."""
        return table_word(self.words.said(how, call), self.translate)

    def special(self, special: str | None) -> str:
        return table_word(self.words.specials.get(special or "", special or ""), self.translate)


def _last(chain: Sequence[str] | None) -> str | None:
    """The last call of a chain: the one the accepted / refused word agrees with."""
    return chain[-1] if chain else None


Line = tuple[str, dict[str, Any]]
"""One sentence before translation: an English template and its values, already in words."""


def _accepted(fact: LogFact, w: _Words) -> Line:
    call = w.calls([fact.call or ""], fact.amounts)
    if fact.amounts:  # an open raise's words ("tres más") begin the line
        call = call[:1].upper() + call[1:]
    values = {"side": w.name(fact.side), "call": call, "said": w.said("accepted", fact.call)}
    if fact.value is None:  # an Envido or Flor: its comparison follows
        return N_("{call} {said} by {side}."), values
    return N_("{call} {said} by {side}: the hand is worth {value}."), {**values, "value": fact.value}


def _chain_won(fact: LogFact, w: _Words) -> Line:
    values = {"chain": w.calls(fact.chain, fact.amounts), "said": w.said("accepted", _last(fact.chain)),
              "points": fact.points, "side": w.name(fact.side)}
    if fact.counts is None:
        return N_("{chain}: {said}, +{points} {side}."), values
    winner, loser = fact.counts
    return (N_("{chain}: {said}, {winner_points} to {loser_points}, +{points} {side}."),
            {**values, "winner_points": winner, "loser_points": loser})


def _trick(fact: LogFact, w: _Words) -> Line:
    if fact.side is None:
        return N_("Trick {number}: {said}."), {"number": fact.number, "said": w.said("tie")}
    return N_("Trick {number}: {side}."), {"number": fact.number, "side": w.name(fact.side)}


def _hand(fact: LogFact, w: _Words) -> Line:
    if fact.side is None:
        return N_("Hand {number}: nobody scores."), {"number": fact.number}
    return N_("Hand {number}: +{points} {side}."), {"number": fact.number, "points": fact.points, "side": w.name(fact.side)}


SAYINGS: Mapping[LogKind, Callable[[LogFact, _Words], Line]] = {
    LogKind.CALL: lambda f, w: (N_("{side}: {shout}"), {"side": w.name(f.side), "shout": w.shout(f.call or "", f.chain, f.amounts)}),
    LogKind.QUIERO: _accepted,
    LogKind.PLAYED_ON: lambda f, w: (
        N_("{call}: {said} by playing on, the hand is worth {value}."),
        {"call": w.calls([f.call or ""]), "said": w.said("accepted", f.call), "value": f.value}),
    LogKind.TRUCO_REFUSED: lambda f, w: (N_("{call}: {said}."), {"call": w.calls([f.call or ""]), "said": w.said("refused", f.call)}),
    LogKind.ENVIDO_REFUSED: lambda f, w: (
        N_("{chain}: {said}, +{points} {side}."),
        {"chain": w.calls(f.chain, f.amounts), "said": w.said("refused", _last(f.chain)), "points": f.points,
         "side": w.name(f.side)}),
    LogKind.FLOR_REFUSED: lambda f, w: (
        N_("{call}: {said}, +{points} {side}."),
        {"call": w.calls([f.call or ""]), "said": w.said("refused", f.call), "points": f.points, "side": w.name(f.side)}),
    LogKind.FLOR_UNCONTESTED: lambda f, w: (
        N_("Flor uncontested (no Flor for {other}): +{points} {side}."),
        {"other": w.name(None if f.side is None else 1 - f.side), "points": f.points, "side": w.name(f.side)}),
    LogKind.FLOR_CANCELS_ENVIDO: lambda f, w: (N_("The Flor cancels the {chain}."), {"chain": w.calls(f.chain, f.amounts)}),
    LogKind.CHAIN_WON: _chain_won,
    LogKind.TRICK: _trick,
    LogKind.HAND: _hand,
    LogKind.MAZO: lambda f, w: (N_("{answer}: {side}."), {"answer": w.words.answers.get("mazo", "mazo"), "side": w.name(f.side)}),
    LogKind.MAZO_BONUS: lambda f, w: (N_("Folded before the Envido: +1 more."), {}),
    LogKind.SPECIAL_PLAYED: lambda f, w: (
        N_("{special} played by {side}: the hand is worth {value}, no betting."),
        {"side": w.name(f.side), "special": w.special(f.special), "value": f.value}),
    LogKind.SPECIAL_RUN: lambda f, w: (
        N_("{special} refused by {side}."), {"side": w.name(f.side), "special": w.special(f.special)}),
    LogKind.CORRECTION: lambda f, w: (N_("Correction: {delta:+d} {side}."), {"delta": f.points, "side": w.name(f.side)}),
    LogKind.CAPPED: lambda f, w: (
        N_("{target} caps the score: {counted} of {points} counted."),
        {"target": f.target, "counted": f.counted, "points": f.points}),
    LogKind.GAME_OVER: lambda f, w: (
        N_("{target} for {side}: game over, won by {side}."), {"side": w.name(f.side), "target": f.target}),
    LogKind.GAME_OVER_AT_HAND_END: lambda f, w: (
        N_("Game over, won by {side}: {points} to {other_points}."),
        {"side": w.name(f.side), "points": (f.totals or (0, 0))[0], "other_points": (f.totals or (0, 0))[1]}),
    LogKind.TIE_PLAYS_ON: lambda f, w: (
        N_("Both sides passed {target} with equal totals: another hand."), {"target": f.target}),
}
"""Each kind of fact and how it is said: its English template (marked ``N_``) and the values
that fill it, in words."""


def say_facts(
    facts: Iterable[LogFact],
    names: Sequence[str],
    translate: Translate | None = None,
    words: TableWords | None = None,
) -> str:
    """The sentences of an entry's facts, joined by a space.

    Args:
        facts: :attr:`LogEntry.facts <scorer.core.match.LogEntry>` (or any facts, in order).
        names: the two sides' names.
        translate: gettext-like callable for the templates and the page words (English
            without it).
        words: the variant's table words (:attr:`scorer.core.variants.Variant.words`); the
            Rioplatense ones without it.

    Raises:
        KeyError: a fact of a kind with no saying (a new :class:`LogKind` not added to
            :data:`SAYINGS`).
    """
    said = _Words(tuple(names), words or TABLE_WORDS["rio"], translate)
    out = []
    for fact in facts:
        template, values = SAYINGS[fact.kind](fact, said)
        out.append((translate(template) if translate else template).format(**values))
    return " ".join(out)


def say_entry(
    entry: LogEntry,
    names: Sequence[str],
    translate: Translate | None = None,
    words: TableWords | None = None,
) -> SaidEntry:
    """One log entry in its wire form (:class:`SaidEntry`), its ``text`` said by
    :func:`say_facts` (same arguments)."""
    return {
        "index": entry.index,
        "action": dict(entry.action),
        "delta": list(entry.delta),
        "score": list(entry.score),
        "hand": entry.hand,
        "text": say_facts(entry.facts, names, translate, words),
    }


def say_state(state: State, translate: Translate | None = None) -> SaidState:
    """The engine's state (:meth:`scorer.core.match.Match.state`, or the application
    service's) with its log said in words: a new dict, every key where it was, ``log`` a
    list of :class:`SaidEntry` (the JSON form the API, the pages and ``truco replay`` give).
    The names are the state's ``names``; the table words, its variant's.

    Raises:
        KeyError: the state's ``variant`` is not in the registry.
    """
    words = VARIANTS[state["variant"]].words
    names = state["names"]
    return {**state, "log": [say_entry(entry, names, translate, words) for entry in state["log"]]}
