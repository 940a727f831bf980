"""The typed values that cross from the engine to the edges: actions, legal actions and the
state (its log entries are :mod:`scorer.core.match.log`'s).

One schema, read by everything that handles an action: the engine normalises an action
against it (:func:`normalize_action`), the JSON API and the CLI pass actions through that
function, the board's buttons dispatch on its kinds, and ``openapi.yaml`` describes the same
kinds, calls and fields (``tests/system/test_openapi.py`` checks they agree). Each action kind is
a ``TypedDict``; its fields and which of them may be ``null`` are read from the annotations,
so a new kind or field is written here once. JSON is only the wire form: the dicts are the
same on both sides.

Sides are ``0`` and ``1``; every number is in tentos. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import NoneType, UnionType
from typing import (
    TYPE_CHECKING, Any, Generic, Literal, TypedDict, TypeVar, Union, cast, get_args, get_origin, get_type_hints,
)

from scorer.core.errors import N_, RuleError

if TYPE_CHECKING:  # the engine imports this module; the log's types live beside the engine
    from scorer.core.match.log import LogEntry

Side = Literal[0, 1]

Call = str
"""A call id: one of :func:`call_ids`, which reads the registry (:mod:`scorer.core.variants`): every
call a variant's ladder, Envido or Flor can use (docs/rules.md §Truco ladders, §Envido chains, §Flor values)."""


def call_ids() -> tuple[str, ...]:
    """Every call id an action may carry: the registered variants' truco ladders (in registry
    order), then their Envido and Flor calls (in :data:`~scorer.core.variants.ENVIDO_CALLS` /
    :data:`~scorer.core.variants.FLOR_CALLS` order). A variant registered later adds its own."""
    from scorer.core.variants import ENVIDO_CALLS, FLOR_CALLS, VARIANTS

    ladders = dict.fromkeys(step.call for v in VARIANTS.values() for step in v.truco_ladder)
    used = {call for v in VARIANTS.values() for call in v.call_ids()}
    return (*ladders, *(c for c in (*ENVIDO_CALLS, *FLOR_CALLS) if c in used and c not in ladders))


Decision = Literal["play", "run"]
"""The decision at a mão de onze / dez or the Catalan 11 (docs/rules.md §Special hands)."""

OptionValue = Union[bool, int, float, str, None]
"""One table convention's value: one of a ``Variant.option_specs`` choice's values (true or
false, a number, a word), or, as a form or a cookie gives it, text the engine refuses with its
own message."""

Options = dict[str, OptionValue]
"""A match's table conventions by key (its variant's ``option_specs`` say which), as a match
is created with them and the store keeps them."""


class _CallFields(TypedDict):
    type: Literal["call"]
    side: Side
    call: Call


class CallAction(_CallFields, total=False):
    """``side`` calls ``call`` (a raise of the ladder, Envido or Flor). ``amount`` (tentos, a
    whole number from 1 to :data:`MAX_AMOUNT`) is given with the open Envido raise, "N más"
    (:data:`~scorer.core.variants.OPEN_RAISE`), and only with it (docs/rules.md §Open Envido raises)."""

    amount: int


class Quiero(TypedDict):
    """``side`` accepts the pending call."""

    type: Literal["quiero"]
    side: Side


class NoQuiero(TypedDict):
    """``side`` refuses the pending call."""

    type: Literal["no_quiero"]
    side: Side


class NoFlor(TypedDict):
    """``side`` has no Flor to answer a Flor with."""

    type: Literal["no_flor"]
    side: Side


class EnvidoWinner(TypedDict):
    """``side`` won the accepted Envido (or the compared Flor)."""

    type: Literal["envido_winner"]
    side: Side


class EnvidoPoints(TypedDict):
    """Both sides' declared Envido (or Flor) points, side 0 first; the engine decides."""

    type: Literal["envido_points"]
    points: list[int]


class Trick(TypedDict):
    """A trick won by ``winner``, or a parda (``None``)."""

    type: Literal["trick"]
    winner: Side | None


class HandWinner(TypedDict):
    """The hand won by ``side`` (``None``: nobody, where three pardas score nothing)."""

    type: Literal["hand_winner"]
    side: Side | None


class Mazo(TypedDict):
    """``side`` folds (goes to the mazo)."""

    type: Literal["mazo"]
    side: Side


class SpecialHand(TypedDict):
    """``side``, at the special hand, decides to play it or run."""

    type: Literal["special_hand"]
    side: Side
    decision: Decision


class Adjust(TypedDict):
    """A manual correction of ``delta`` tentos (positive or negative) for ``side``."""

    type: Literal["adjust"]
    side: Side
    delta: int


class Undo(TypedDict):
    """Drop the last action that counts (undo is itself an action of the log)."""

    type: Literal["undo"]


Action = Union[
    CallAction, Quiero, NoQuiero, NoFlor, EnvidoWinner, EnvidoPoints, Trick, HandWinner, Mazo,
    SpecialHand, Adjust, Undo,
]
"""One action of the table, as :meth:`scorer.core.match.Match.apply` takes it."""

ACTION_KINDS: dict[str, type] = {get_args(get_type_hints(kind)["type"])[0]: kind for kind in get_args(Action)}
"""Each action ``type`` and its TypedDict."""

ACTION_TYPES: tuple[str, ...] = tuple(ACTION_KINDS)
"""Every action ``type`` the engine accepts (issue #2, "The contract")."""


def __getattr__(name: str) -> Any:
    """``CALLS``: :func:`call_ids` as it is now (the whitelist; the words are the edges' job)."""
    if name == "CALLS":
        return call_ids()
    raise AttributeError(name)

DECISIONS: tuple[str, ...] = get_args(Decision)


def _nullable(hint: Any) -> bool:
    return get_origin(hint) in (Union, UnionType) and NoneType in get_args(hint)


FIELDS: dict[str, tuple[str, ...]] = {
    name: tuple(key for key in get_type_hints(kind) if key != "type") for name, kind in ACTION_KINDS.items()
}
"""The fields of each action kind besides ``type``, in the order they are checked."""

OPTIONAL: frozenset[tuple[str, str]] = frozenset(
    (name, key) for name, kind in ACTION_KINDS.items()
    for key in kind.__optional_keys__  # type: ignore[attr-defined]  # each kind is a TypedDict class: no type says so
)
"""``(kind, field)`` pairs whose field may be left out (the open raise's ``amount``)."""

NULLABLE: frozenset[tuple[str, str]] = frozenset(
    (name, key) for name, kind in ACTION_KINDS.items() for key, hint in get_type_hints(kind).items() if _nullable(hint)
)
"""``(kind, field)`` pairs whose field must be present but may be ``null``."""


class Offer(TypedDict, total=False):
    """A legal action, as :meth:`~scorer.core.match.Match.legal_actions` lists it: the action's own
    fields (one kind of :data:`Action`) plus what it pays, at once and before any cap at the
    target: ``points`` (for a call, the stake if accepted; ``None`` when it pays nothing now or
    it is not known yet) and ``points_side`` (who gets them, ``None`` with no points)."""

    type: str
    side: Side | None
    call: Call
    amount: int
    winner: Side | None
    decision: Decision
    delta: int
    points: int | None
    points_side: Side | None


class DeclarePoints(TypedDict):
    """The table may type both sides' declared points now: post an ``envido_points`` action
    whose two values lie between ``min`` and ``max`` (``what``: the Envido or the Flor)."""

    type: Literal["declare_points"]
    what: Literal["envido", "flor"]
    min: int
    max: int


LegalAction = Union[Offer, DeclarePoints]
"""One entry of ``legal_actions``: a concrete action to post as it is (its ``points`` and
``points_side`` removed), or :class:`DeclarePoints`, the form for typed points."""

OFFER_KEYS = ("points", "points_side")
"""Keys an :class:`Offer` adds to its action."""


def bare_action(offer: Mapping[str, Any]) -> dict[str, Any]:
    """The action of an :class:`Offer`, without what it pays (what a button posts)."""
    return {key: value for key, value in offer.items() if key not in OFFER_KEYS}


class HandState(TypedDict):
    """The hand being played: ``number`` (1-based), ``mano`` (side), ``value`` (tentos),
    ``pending`` (``{"call", "side"}`` waiting for an answer, with its ``amount`` for an open
    Envido raise, or ``None``), ``pending_truco``,
    ``special`` (``mao_de_onze``, ``mao_de_dez``, ``mao_de_ferro`` or ``None``),
    ``special_side``, ``envido_open``, ``tricks`` (winners, ``None`` for a parda) and
    ``awaiting`` (``special_hand``, ``envido_winner``, ``flor_winner`` or ``None``) and
    ``counts`` (while an Envido or Flor waits for its points, the counts ``envido_points``
    accepts as ``[low, high]`` runs, else ``None``)."""

    number: int
    mano: Side
    value: int
    pending: dict[str, Any] | None
    pending_truco: dict[str, Any] | None
    special: str | None
    special_side: Side | None
    envido_open: bool
    tricks: list[Side | None]
    awaiting: str | None
    counts: list[list[int]] | None


class Stage(TypedDict):
    """Where a side stands in a split score: ``stage`` (``malas`` or ``buenas``) and its
    ``points`` in it."""

    stage: str
    points: int


#: What a state's log holds: the engine's entries (:data:`State`) or the same said in words
#: (:data:`scorer.present.log_words.SaidState`).
EntryT = TypeVar("EntryT")


class MatchState(TypedDict, Generic[EntryT], total=False):
    """The match's state (issue #2 "The contract"), its shape said once: as the engine gives
    it (:data:`State`, ``log`` of :class:`scorer.core.match.LogEntry`, data) and as the web and
    the JSON API read it (:data:`scorer.present.log_words.SaidState`, ``log`` of
    :class:`~scorer.present.log_words.SaidEntry`, each entry with its ``text``: issue 35 item 3).
    ``id`` is added by the application service."""

    id: str
    variant: str
    options: dict[str, Any]
    target: int
    ends_at_once: bool
    names: list[str]
    mano_first_hand: Side
    score: list[int]
    winner: Side | None
    stages: list[Stage] | None
    hand: HandState
    legal_actions: list[LegalAction]
    log: list[EntryT]
    version: int


#: The state as the engine gives it: its log is the engine's data (said in words by
#: :func:`scorer.present.log_words.say_state`).
State = MatchState["LogEntry"]


# ------------------------------------------------------------------ validation

MAX_DELTA = 1000
"""The largest correction an action may carry (tentos); the engine then limits it to the target."""

MAX_AMOUNT = 1000
"""The largest open raise an action may carry (tentos); the engine then limits it to what the
game leaves (docs/rules.md §Open Envido raises)."""


def check_side(value: Any, name: str, *, allow_none: bool = False) -> None:
    """Check that ``value`` is a side (0 or 1; ``None`` too with ``allow_none``).

    Raises:
        RuleError: ``bad_side`` naming the field (``name``) and the accepted values.
    """
    if value is None and allow_none:
        return
    if type(value) is not int or value not in (0, 1):
        raise RuleError(
            "bad_side",
            N_("{name} must be 0 or 1."),
            allowed=[0, 1, None] if allow_none else [0, 1],
            name=name,
            value=str(value)[:40],
        )


MISSING = {
    ("hand_winner", "side"): N_("The hand's winner needs a side (0, 1, or null for nobody)."),
    ("trick", "winner"): N_("A trick needs a winner (0, 1 or null for parda)."),
}
"""What to say when a field that may be ``null`` is missing altogether."""


def _side_field(action: Mapping[str, Any], kind: str, key: str) -> Any:
    nullable = (kind, key) in NULLABLE
    if nullable and key not in action:
        raise RuleError("bad_action", MISSING[(kind, key)], allowed=[0, 1, None])
    check_side(action.get(key), key, allow_none=nullable)
    return action[key]


def _call_field(action: Mapping[str, Any], kind: str, key: str) -> str:
    call: object = action.get(key)
    known = call_ids()
    if not isinstance(call, str) or call not in known:
        raise RuleError("bad_action", N_("Unknown call {call}."), allowed=list(known), call=str(call)[:40])
    return call


def _decision_field(action: Mapping[str, Any], kind: str, key: str) -> str:
    if action.get(key) not in DECISIONS:
        raise RuleError("bad_action", N_("The decision must be play or run."), allowed=list(DECISIONS))
    return str(action[key])


def _points_field(action: Mapping[str, Any], kind: str, key: str) -> list[int]:
    points = action.get(key)
    if (
        not isinstance(points, Sequence)
        or isinstance(points, str)
        or len(points) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
    ):
        raise RuleError("bad_points", N_("Envido points must be two whole numbers, one per side."), allowed=[[27, 30]])
    return [points[0], points[1]]


def _delta_field(action: Mapping[str, Any], kind: str, key: str) -> int:
    delta = action.get(key)
    if not isinstance(delta, int) or isinstance(delta, bool) or abs(delta) > MAX_DELTA:
        raise RuleError("bad_delta", N_("A correction must be a small whole number of tentos."), allowed=[-1, 1])
    return delta


def _amount_field(action: Mapping[str, Any], kind: str, key: str) -> int:
    amount = action.get(key)
    if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= MAX_AMOUNT:
        raise RuleError("bad_amount", N_("A raise of the Envido is a whole number of tentos, 1 or more."),
                        allowed=[1, 2, 3], amount=str(amount)[:40])
    return amount


FIELD_CHECKS = {
    "side": _side_field,
    "winner": _side_field,
    "call": _call_field,
    "decision": _decision_field,
    "points": _points_field,
    "delta": _delta_field,
    "amount": _amount_field,
}
"""How each field is read: ``(action, kind, field) -> value``, or :class:`RuleError`."""


def normalize_action(action: Any) -> Action:
    """Check an action's shape against the schema and return it with only its own keys.

    Raises:
        RuleError: ``bad_action`` (not an object, unknown type, unknown call, bad decision,
        a missing winner), ``bad_side`` (a side that is not 0 or 1), ``bad_points``,
        ``bad_delta`` or ``bad_amount`` (an open raise's amount that is not a whole number from
        1 to :data:`MAX_AMOUNT`). A field that may be left out (:data:`OPTIONAL`) is checked
        where it is given.
    """
    if not isinstance(action, Mapping):
        raise RuleError("bad_action", N_("An action must be a JSON object with a type."), allowed=list(ACTION_TYPES))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_KINDS:
        raise RuleError(
            "bad_action",
            N_("Unknown action type {kind}."),
            allowed=list(ACTION_TYPES),
            kind=str(kind)[:40],
        )
    clean: dict[str, Any] = {"type": kind}
    for key in FIELDS[kind]:
        if (kind, key) in OPTIONAL and key not in action:
            continue
        clean[key] = FIELD_CHECKS[key](action, kind, key)
    return cast(Action, clean)  # the kind's own fields, each checked: the checker cannot follow FIELDS[kind]
