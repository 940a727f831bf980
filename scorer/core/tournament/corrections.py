"""Recording, confirming and reopening results: a correction is a change to the results
dict, :func:`dependents` lists what a reopened result undoes, and :func:`comes_back` says
when an undone match plays its slot again (docs/tournaments.md, step 5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from scorer.core.errors import N_
from scorer.core.tournament.model import Result, Tournament, _fail
from scorer.core.tournament.progress import View, resolve


def dependents(t: Tournament, slot_id: str) -> list[str]:
    """Slots whose teams depend, directly or in turn, on ``slot_id``'s result (in layout
    order): what reopening it undoes. A group match feeds the whole knockout."""
    t.slot(slot_id)  # raises on an unknown slot
    out: list[str] = []
    changed = {slot_id}
    group_stage = slot_id.startswith("group")
    for slot in t.slots:
        feeds = any(src.kind in ("winner", "loser") and src.ref in changed for src in slot.sources)
        if group_stage and any(src.kind == "qualifier" for src in slot.sources):
            feeds = True
        if feeds:
            out.append(slot.id)
            changed.add(slot.id)
    return out


def reopen(t: Tournament, results: Mapping[str, Result], slot_id: str) -> tuple[dict[str, Result], list[str]]:
    """``results`` without ``slot_id``'s result and without the results of every slot
    depending on it; returns ``(new_results, undone)`` where ``undone`` lists the
    dependent slots that had a result or were playable (their matches are void).

    :raise TournamentError: ``unknown_slot``.
    """
    before = resolve(t, results)
    deps = dependents(t, slot_id)
    undone = [d for d in deps if d in results or before.slots[d].status != "waiting"]
    new = {k: v for k, v in results.items() if k != slot_id and k not in deps}
    return new, undone


def comes_back(view: View, slot_id: str, teams: tuple[int | None, int | None]) -> bool:
    """Whether the match a reopening undid on ``slot_id``, played by ``teams`` (team indexes,
    sides 0 and 1, as the slot had them then), plays that slot again as it was: the slot
    has no result and the same two teams on the same sides now, so the reopened match kept
    its winner (docs/tournaments.md, step 5: the later matches keep their match, table and
    result). A team changed, or a team is still unknown: False (a new match will play it)."""
    sv = view.slots.get(slot_id)
    return sv is not None and sv.status == "ready" and None not in teams and tuple(sv.teams) == tuple(teams)


def record(t: Tournament, results: Mapping[str, Result], slot_id: str, result: Result) -> dict[str, Result]:
    """``results`` with ``result`` on ``slot_id`` (a first result; to change one, :func:`reopen` first).

    :raise TournamentError: ``unknown_slot``, ``not_playable`` (a team is still
        unknown), ``already_decided``, ``bad_result``.
    """
    view = resolve(t, results)
    if slot_id not in view.slots:
        t.slot(slot_id)
    sv = view.slots[slot_id]
    if sv.status == "waiting":
        _fail("not_playable", N_("This match cannot have a result yet: a team is still unknown."))
    if slot_id in results:
        _fail("already_decided", N_("This match already has a result: reopen it first."))
    if result.kind not in ("played", "walkover", "abandonment") or result.winner not in (0, 1):
        _fail("bad_result", N_("A result is played, walkover or abandonment, with a winning side 0 or 1."))
    return {**results, slot_id: result}


def confirm(t: Tournament, results: Mapping[str, Result], slot_id: str, side: int) -> dict[str, Result]:
    """``results`` with side ``side`` (0 or 1; 2 = the organizer, who confirms for both)
    having confirmed ``slot_id``'s proposed result.

    :raise TournamentError: ``nothing_to_confirm``.
    """
    res = results.get(slot_id)
    if res is None:
        _fail("nothing_to_confirm", N_("This match has no result to confirm yet."))
    sides = {0, 1} if side == 2 else {side}
    return {**results, slot_id: replace(res, confirmed=tuple(sorted(set(res.confirmed) | sides)))}
