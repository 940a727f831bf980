"""The draw laid out: every slot a format can ever have (:func:`build`): knockout brackets
with byes and a repescagem, round robins by the circle method, groups dealt snake-wise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scorer.core.errors import N_
from scorer.core.tournament.model import Settings, Slot, Source, Tournament, _fail


def seeding_order(places: int) -> list[int]:
    """Seeds (1-based) in bracket order for ``places`` (a power of two): 1 v places,
    then 2's half opposite 1's: ``seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]``."""
    order = [1]
    while len(order) < places:
        size = len(order) * 2
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return order


def knockout_slots(stage: str, entrants: Sequence[Source], best_of: int, final_best_of: int | None,
                   first_round: int = 1) -> tuple[list[Slot], list[Source], list[Source]]:
    """Slots of a knockout among ``entrants`` (one or more, in seed order).

    Returns ``(slots, byes, finals)``: the entrants with a round-1 bye (the top seeds)
    and, as a one-element list, the source of the champion (``winner`` of the final,
    or the lone entrant). Round numbers start at ``first_round``.
    """
    n = len(entrants)
    places = 1
    while places < n:
        places *= 2
    order = seeding_order(places)
    current: list[Source | None] = [entrants[s - 1] if s <= n else None for s in order]
    slots: list[Slot] = []
    byes: list[Source] = []
    rnd = first_round
    while len(current) > 1:
        nxt: list[Source | None] = []
        number = 0
        last = len(current) == 2
        for a, b in zip(current[::2], current[1::2]):
            if a is None or b is None:  # a bye (only ever in round 1: never bye v bye)
                survivor = a if b is None else b
                assert survivor is not None  # never bye v bye
                byes.append(survivor)
                nxt.append(survivor)
                continue
            number += 1
            slot = Slot(f"{stage}:{rnd}:{number}", stage, rnd, number, (a, b),
                        (final_best_of or best_of) if last else best_of)
            slots.append(slot)
            nxt.append(Source("winner", slot.id))
        current = nxt
        rnd += 1
    byes.sort(key=lambda src: entrants.index(src))  # in seed order
    final = current[0]
    assert final is not None  # the last slot's winner, or the one entrant (never a bye)
    return slots, byes, [final]


def circle_rounds(count: int) -> list[list[tuple[int, int]]]:
    """Pairings of a round robin among places 0..count-1 by the circle method: place 0
    fixed, the others rotating one step per round; pairs (first, last), (second, one
    before last), ... An odd count adds a resting place ``count``: a pair with it is a
    rest, left out. 6 teams, 1-based: R1 1-6 2-5 3-4, R2 1-5 6-4 2-3, ..."""
    places = list(range(count)) + ([count] if count % 2 else [])
    size = len(places)
    rounds = []
    for _ in range(size - 1):
        pairs = [(places[i], places[size - 1 - i]) for i in range(size // 2)]
        rounds.append([(a, b) for a, b in pairs if count not in (a, b)])
        places = [places[0], places[-1]] + places[1:-1]
    return rounds


def league_slots(stage: str, teams: Sequence[int], legs: int, best_of: int) -> tuple[list[Slot], dict[int, list[int]]]:
    """Round-robin slots of ``teams`` (team indexes in seed order) and the team resting
    in each round (odd counts). ``legs`` 2 repeats the cycle with sides swapped."""
    slots: list[Slot] = []
    rests: dict[int, list[int]] = {}
    base = circle_rounds(len(teams))
    for leg in range(legs):
        for r, pairs in enumerate(base, start=1):
            rnd = leg * len(base) + r
            for number, (a, b) in enumerate(pairs, start=1):
                if leg:
                    a, b = b, a
                slots.append(Slot(f"{stage}:{rnd}:{number}", stage, rnd, number,
                                  (Source("team", teams[a]), Source("team", teams[b])), best_of))
            playing = {x for pair in pairs for x in pair}
            rests[rnd] = [teams[i] for i in range(len(teams)) if i not in playing]
    return slots, rests


def snake_groups(seeds: Sequence[int], groups: int) -> list[list[int]]:
    """Seeds dealt to ``groups`` groups snake-wise: 1..G, then G..1, ... (8 teams, 2
    groups: [1, 4, 5, 8], [2, 3, 6, 7])."""
    out: list[list[int]] = [[] for _ in range(groups)]
    for i, team in enumerate(seeds):
        row, col = divmod(i, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(team)
    return out


def build(teams: Sequence[str], settings: Settings, seeds: Sequence[int] | None = None) -> Tournament:
    """Lay out every slot of a tournament among ``teams`` (names) in seed order ``seeds``
    (team indexes; default: the order entered).

    :raise TournamentError: ``bad_repescagem`` (fewer than 2 round-1 matches, or a
        round the bracket does not have).
    """
    seeds = tuple(range(len(teams))) if seeds is None else tuple(seeds)
    s = settings
    slots: list[Slot] = []
    byes: dict[str, tuple[int, ...]] = {}
    if s.format == "knockout":
        main, bye_sources, _ = knockout_slots("main", [Source("team", t) for t in seeds], s.best_of, s.final_best_of)
        byes["main"] = tuple(b.ref for b in bye_sources)
        if s.repescagem is not None:
            first = [x for x in main if x.round == 1]
            if len(first) < 2:
                _fail("bad_repescagem", N_("A repescagem needs at least 2 round-1 matches."))
            rep, _rb, champion = knockout_slots("repescagem", [Source("loser", x.id) for x in first], s.best_of, None)
            if s.repescagem != "apart":
                enter = int(s.repescagem)
                rounds = max(x.round for x in main)
                if enter > rounds:
                    _fail("bad_repescagem", N_("The bracket has only {rounds} rounds."), rounds=rounds)
                target = max((x for x in main if x.round == enter), key=lambda x: x.number)
                fed = target.sources[1]
                entry = Slot(f"repescagem:{max(x.round for x in rep) + 1}:1", "repescagem",
                             max(x.round for x in rep) + 1, 1, (fed, champion[0]), s.best_of)
                main = [replace(x, sources=(x.sources[0], Source("winner", entry.id))) if x.id == target.id else x
                        for x in main]
                rep.append(entry)
            slots = main + rep
        else:
            slots = main
    elif s.format == "round_robin":
        slots, rests = league_slots("league", seeds, s.legs, s.best_of)
        byes.update({f"league:{r}": tuple(t) for r, t in rests.items() if t})
    else:
        for g, members in enumerate(snake_groups(seeds, s.groups), start=1):
            group, rests = league_slots(f"group{g}", members, s.legs, s.best_of)
            slots += group
            byes.update({f"group{g}:{r}": tuple(t) for r, t in rests.items() if t})
        qualifiers = s.groups * s.advance + s.best_extra
        ko, bye_sources, _ = knockout_slots("main", [Source("qualifier", q) for q in range(qualifiers)],
                                            s.best_of, s.final_best_of)
        byes["qualifiers"] = tuple(b.ref for b in bye_sources)  # places in View.qualifiers
        slots += ko
    return Tournament(tuple(teams), seeds, settings, _in_play_order(slots), byes)


def _in_play_order(slots: Sequence[Slot]) -> tuple[Slot, ...]:
    """``slots`` reordered (stably) so that every slot comes after the slots it takes a
    winner or loser from (a repescagem's entry match feeds an earlier main round)."""
    placed: set[str] = set()
    out: list[Slot] = []
    remaining = list(slots)
    while remaining:
        later = []
        for slot in remaining:
            if all(src.kind not in ("winner", "loser") or src.ref in placed for src in slot.sources):
                out.append(slot)
                placed.add(slot.id)
            else:
                later.append(slot)
        remaining = later
    return tuple(out)


def group_members(t: Tournament) -> list[list[int]]:
    """The teams of each group (groups format), in seed order."""
    return snake_groups(t.seeds, t.settings.groups) if t.settings.format == "groups" else []


def stage_names(t: Tournament) -> list[str]:
    """The stages of the layout in order (``group1``.., ``league``, ``main``, ``repescagem``)."""
    return list(dict.fromkeys(s.stage for s in t.slots))
