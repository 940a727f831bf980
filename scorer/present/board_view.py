"""The scoreboard's view model: the engine's state arranged for ``templates/partials/_scoreboard.html``.

Nothing here scores: the numbers come from the engine. :func:`board_view` groups the legal
actions into the pad's places with their words (:mod:`scorer.present.board_buttons`), splits
each score into the squares of five that players draw (malas/buenas where the variant has them)
and says the board in sentences (the live region, "read the score aloud"). :class:`BoardPage`
adds what only the page's host knows: its links, the message of the last answer, the tournament
line. The template formats these values; it computes nothing and reads nothing else (no
``url_for``, no request).

Pure: no Flask, no database; words come from the :class:`~scorer.present.board_buttons.Words`
passed in. The web builds it in :mod:`scorer.web.board`.

>>> import gettext
>>> from scorer.core.match import Match
>>> from scorer.present.log_words import say_state
>>> english = gettext.NullTranslations()
>>> board = board_view(say_state(Match("paulista").state()), english)
>>> board.score, board.hand.value
((0, 0), 1)
>>> [(c.slot, c.button.label, c.button.note) for c in board.buttons.rows[0].cells]
[('0-hand', 'Won the hand', '+1 Nós'), ('1-hand', 'Won the hand', '+1 Eles')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorer.core import seats as seating
from scorer.core.errors import N_
from scorer.core.schema import Side
from scorer.core.series import SeriesStatus
from scorer.core.variants import VARIANTS, Variant
from scorer.present.board_buttons import Buttons, Table, Words, arrange, call_name, say, special_name
from scorer.present.log_words import SaidEntry, SaidState

#: Stages shown on the board (malas and buenas, docs/rules.md §Malas and buenas).
STAGE_NAMES = {"malas": N_("malas"), "buenas": N_("buenas")}


def squares(n: int) -> tuple[int, ...]:
    """Palitos in squares of five: 7 -> (5, 2); 0 -> ()."""
    n = max(0, int(n))
    return (5,) * (n // 5) + ((n % 5,) if n % 5 else ())


@dataclass(frozen=True)
class TallyPart:
    """One stage of a side's drawn tally: ``stage`` (``"malas"``, ``"buenas"`` or None where the
    score is not split), its ``name`` in the reader's language ("" for None) and its ``squares``."""

    stage: str | None
    name: str
    squares: tuple[int, ...]


def tally(score: int, target: int, variant: Variant, words: Words) -> tuple[TallyPart, ...]:
    """The drawn tally of one side: one :class:`TallyPart` per stage."""
    return tuple(TallyPart(stage, say(words, STAGE_NAMES[stage]) if stage else "", squares(points))
                 for stage, points in variant.score_parts(score, target))


@dataclass(frozen=True)
class StageNow:
    """Where a side stands in a split score: ``stage`` (``"malas"`` or ``"buenas"``), its ``name``
    in the reader's language and its ``points`` in it."""

    stage: str
    name: str
    points: int


@dataclass(frozen=True)
class HandLine:
    """The hand being played: ``number`` (1-based), ``value`` (tentos), ``mano`` (side),
    ``awaiting`` (``"envido_winner"``, ``"flor_winner"``, ``"special_hand"`` or None),
    ``pending_side`` (who made the call waiting for an answer, or None) and ``tricks`` (their
    winners, None for a parda)."""

    number: int
    value: int
    mano: Side | None
    awaiting: str | None
    pending_side: Side | None
    tricks: tuple[Side | None, ...]


@dataclass(frozen=True)
class SeriesLine:
    """The series line of the board: ``title`` ("Best of 3"), ``best_of``, ``wins`` (per side),
    ``game`` (1-based), ``winner`` (side, or None) and the ``sentence`` said aloud."""

    title: str
    best_of: int
    wins: tuple[int, int]
    game: int
    winner: int | None
    sentence: str


@dataclass(frozen=True)
class SeatsLine:
    """Who is mano and who deals this hand: ``mano`` and ``dealer``
    (:class:`~scorer.core.seats.Seat`: ``name``, ``side``), ``round`` (``"redonda"``,
    ``"pica-pica"`` or None) and its ``round_label``, the pica-pica ``duels`` and the ``sentence``."""

    mano: seating.Seat
    dealer: seating.Seat
    round: str | None
    round_label: str | None
    duels: tuple[tuple[seating.Seat, seating.Seat], ...]
    sentence: str


@dataclass(frozen=True)
class BoardView:
    """Everything the scoreboard shows of the match, from the engine's state (see
    :func:`board_view`). ``cap`` is the target where the game ends at once (0 otherwise: the
    page's instant score stops there); ``log`` is newest first; ``delta`` the tentos each side
    won with the newest action; ``announce`` what the live region says after a change; ``say``
    what "read the score aloud" says; ``undo_what`` the log line Undo would drop;
    ``adjust_open`` keeps the corrections open after a correction."""

    version: int
    names: tuple[str, str]
    score: tuple[int, int]
    winner: Side | None
    hand: HandLine
    special: str | None
    pending_call: str | None
    tallies: tuple[tuple[TallyPart, ...], tuple[TallyPart, ...]]
    stages: tuple[StageNow, StageNow] | None
    buttons: Buttons
    cap: int
    log: tuple[SaidEntry, ...]
    delta: tuple[int, int]
    announce: str
    say: str
    undo_what: str | None
    adjust_open: bool
    series: SeriesLine | None
    seats: SeatsLine | None


def score_sentence(names: Sequence[str], score: Sequence[int], stages: Sequence[Any] | None, words: Words) -> str:
    """Both scores in words, side 0 first: "Nós 12, Eles 9" (", em buenas" after a side that has
    entered the buenas, where the variant has them)."""
    parts = []
    for side, name in enumerate(names):
        stage = (stages or [None, None])[side]
        if stage and stage.get("stage") == "buenas":
            parts.append(say(words, N_("%(name)s %(score)s, in buenas"), name=name, score=score[side]))
        else:
            parts.append(say(words, N_("%(name)s %(score)s"), name=name, score=score[side]))
    return ", ".join(parts)


def announcement(scores: str, names: Sequence[str], winner: int | None, log: Sequence[SaidEntry], undone: bool,
                 words: Words) -> str:
    """What the live region says after a change: the scores (``scores``, :func:`score_sentence`),
    then the newest log entry (what just happened), "undone" or the winner."""
    text = scores + "."
    if winner is not None:
        return text + " " + say(words, N_("%(name)s won the game!"), name=names[winner])
    if undone:
        return text + " " + say(words, N_("The last action was undone."))
    if log:
        return text + " " + log[0]["text"]
    return text


def spoken(scores: str, board: BoardView, words: Words) -> str:
    """What "read the score aloud" says: the scores (``scores``) and the hand's state in words
    (``board``'s ``say`` is not read)."""
    names, hand = board.names, board.hand
    out = [scores + "."]
    if board.winner is not None:
        out.append(say(words, N_("%(name)s won the game!"), name=names[board.winner]))
    else:
        out.append(say(words, N_("Hand %(n)s, worth %(points)s."), n=hand.number, points=hand.value))
        if board.special:
            out.append(board.special + ".")
        if board.pending_call and hand.pending_side is not None:
            out.append(say(words, N_("%(call)s by %(name)s: answer it"), call=board.pending_call,
                           name=names[hand.pending_side]) + ".")
        if board.seats:
            out.append(board.seats.sentence)
    if board.series:
        out.append(board.series.sentence)
    return " ".join(out)


def series_line(status: SeriesStatus | None, names: Sequence[str], words: Words) -> SeriesLine | None:
    """The series line of the board, or None for a first single game with no tally."""
    if status is None:
        return None
    a, b = status.wins
    if status.best_of > 1:
        title = say(words, N_("Best of %(n)s"), n=status.best_of)
        sentence = say(words, N_("Series, best of %(n)s: %(name0)s %(a)s, %(name1)s %(b)s."),
                       n=status.best_of, name0=names[0], a=a, name1=names[1], b=b)
    else:
        title = say(words, N_("Series"))
        sentence = say(words, N_("Series: %(name0)s %(a)s, %(name1)s %(b)s."), name0=names[0], a=a, name1=names[1], b=b)
    if status.winner is not None:
        sentence += " " + say(words, N_("%(name)s won the series!"), name=names[status.winner])
    return SeriesLine(title=title, best_of=status.best_of, wins=(a, b), game=status.game, winner=status.winner,
                      sentence=sentence)


#: The two ways a hand of a table of six is played (docs/rules.md §Seats and pica-pica).
ROUNDS = {"redonda": N_("redonda (teams)"), "pica-pica": N_("pica-pica (one against one)")}


def seats_line(players: Sequence[Sequence[str]] | None, first_mano: int, state: Mapping[str, Any],
               words: Words) -> SeatsLine | None:
    """Who is mano and who deals this hand (and redonda / pica-pica), or None without players or
    once the game is over."""
    if not players or state.get("winner") is not None:
        return None
    hand = state.get("hand") or {}
    h = seating.hand_seats(players, first_mano, int(hand.get("number") or 1), variant=state["variant"],
                           score=state["score"], target=state["target"])
    sentence = say(words, N_("%(mano)s is mano, %(dealer)s deals."), mano=h.mano.name, dealer=h.dealer.name)
    label = say(words, ROUNDS[h.round]) if h.round else None
    if label:
        sentence += " " + say(words, N_("This hand is played %(round)s."), round=label)
    return SeatsLine(mano=h.mano, dealer=h.dealer, round=h.round, round_label=label, duels=tuple(h.duels),
                     sentence=sentence)


def hand_line(hand: Mapping[str, Any]) -> HandLine:
    """The :class:`HandLine` of the engine's ``state["hand"]``."""
    pending = hand.get("pending")
    return HandLine(number=hand.get("number", 0), value=hand.get("value", 0), mano=hand.get("mano"),
                    awaiting=hand.get("awaiting"), pending_side=pending["side"] if pending else None,
                    tricks=tuple(hand.get("tricks") or ()))


def last_delta(log: Sequence[SaidEntry], undone: bool = False) -> tuple[int, int]:
    """Tentos each side gained with the newest action (``(0, 0)`` if none or after an undo), for
    the brief highlight of what changed; the engine's log carries it as ``delta``."""
    if not log or undone:
        return (0, 0)
    a, b = log[0].get("delta") or (0, 0)
    return (int(a), int(b))


def board_view(state: SaidState, words: Words, *, gloss: bool = False, last_action: Mapping[str, Any] | None = None,
               series: SeriesStatus | None = None, players: Sequence[Sequence[str]] | None = None,
               first_mano: int = 0) -> BoardView:
    """Everything the scoreboard shows, from the engine's state with its log said in words
    (:func:`scorer.present.log_words.say_state`'s :class:`~scorer.present.log_words.SaidState`).

    Args:
        words: the reader's catalog (:class:`~scorer.present.board_buttons.Words`).
        gloss: table words get a short English gloss (English pages).
        last_action: the newest stored action, to tell an undo (no highlight, "undone") or a
            correction (the corrections stay open) from a new entry.
        series: the match's series, if it has one (:func:`scorer.core.series.series_status`).
        players: the players of a table of 4 or 6, per side, for the seats line; ``first_mano``
            the side that was mano in the first hand.

    Raises:
        KeyError: the state's ``variant`` is not registered.
    """
    variant, names = VARIANTS[state["variant"]], tuple(state["names"])
    hand: Mapping[str, Any] = state.get("hand") or {}
    pending = hand.get("pending")
    log = tuple(reversed(state.get("log", [])))
    undone = last_action is not None and last_action.get("type") == "undo"
    stages = state.get("stages")
    now = [StageNow(s["stage"], say(words, STAGE_NAMES[s["stage"]]), s["points"]) for s in stages or ()]  # one per side
    special = special_name(variant.id, hand.get("special"), words)
    table = Table(variant.id, names, hand, words, gloss)
    board = BoardView(
        version=state.get("version", 0),
        names=(names[0], names[1]),
        score=(state["score"][0], state["score"][1]),
        winner=state.get("winner"),
        hand=hand_line(hand),
        special=special,
        pending_call=call_name(variant.id, pending["call"], pending.get("amount")) if pending else None,
        tallies=(tally(state["score"][0], state["target"], variant, words),
                 tally(state["score"][1], state["target"], variant, words)),
        stages=(now[0], now[1]) if now else None,
        buttons=arrange(state.get("legal_actions", []), table, state.get("options") or {}),
        cap=state["target"] if state.get("ends_at_once") else 0,
        log=log,
        delta=last_delta(log, undone),
        announce="",
        say="",
        undo_what=log[0]["text"] if log else None,  # named in Undo's confirmation ("Undo «Eles: Quero»?")
        adjust_open=last_action is not None and last_action.get("type") == "adjust",
        series=series_line(series, names, words),
        seats=seats_line(players, first_mano, state, words),
    )
    scores = score_sentence(names, board.score, stages, words)
    return replace(board, announce=announcement(scores, names, board.winner, log, undone, words),
                   say=spoken(scores, board, words))


@dataclass(frozen=True)
class TournamentLine:
    """What the board of a tournament's match says of its tournament: ``name`` and ``where``
    (the page's header line: the tournament; round · table), ``taken`` (the tournament took the
    result: no Revanche, Undo shown unavailable), ``over`` (its series is decided: no Revanche,
    even reopened), ``next`` (what comes next, lines, once taken) and ``url`` (the tournament's
    TV page); ``dropped``: the notice of a match its tournament no longer counts (a reopening
    undid it, issue 32: the board refuses every action), None otherwise, and ``replacement``
    the address of the game that plays its place now (None: none yet)."""

    name: str
    where: str
    taken: bool
    over: bool
    next: tuple[str, ...]
    url: str
    dropped: str | None = None
    replacement: str | None = None


@dataclass(frozen=True)
class BoardLinks:
    """The addresses the board links to, made by its host: ``poll`` (the live update, with the
    version shown), ``act`` (where buttons post; None on a watch-only board), ``revanche`` (the
    Revanche form; None watch-only), ``rematch`` (the Revanche once it exists, for this phone:
    its scoreboard or its watch page; None), ``share`` (the share page; None watch-only),
    ``story_chart`` (the score's story, an image) and ``stats`` (the match in numbers)."""

    poll: str
    act: str | None
    revanche: str | None
    rematch: str | None
    share: str | None
    story_chart: str
    stats: str


@dataclass(frozen=True)
class BoardPage:
    """The scoreboard fragment's whole input (``templates/partials/_scoreboard.html`` reads
    nothing else): the ``board`` (:class:`BoardView`), its ``links``, ``can_edit`` (the edit key
    was given: buttons shown), ``message`` (a short note on the last answer: a stale or refused
    tap), the ``tournament`` line (or None), ``guard_ms`` (the double-tap guard's window after a
    redraw, ms; 0 = off), ``shown`` (the host's clock when it rendered the board, seconds, as
    text: the buttons send it back) and ``oob`` (also update the live region out of band: an
    htmx answer)."""

    board: BoardView
    links: BoardLinks
    can_edit: bool
    message: str | None = None
    tournament: TournamentLine | None = None
    guard_ms: int = 350
    shown: str = ""
    oob: bool = False
