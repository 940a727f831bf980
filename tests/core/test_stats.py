"""The evening in numbers (issue 22): whole matches with their statistics worked out by hand
(tests/matches/expected_stats.json, the reasoning in each "_why"), and hypothesis: the
statistics of any legal match add up and survive export and import."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.core.match import Match
from scorer.core.stats import SOURCES, SideStats, log_stats, match_stats, total
from scorer.core.variants import VARIANTS

MATCHES = Path(__file__).resolve().parents[1] / "matches"
EXPECTED = json.loads((MATCHES / "expected.json").read_text())
BY_HAND = json.loads((MATCHES / "expected_stats.json").read_text())


def replay(name: str) -> Match:
    e = EXPECTED[name]
    actions = [json.loads(x) for x in (MATCHES / f"{name}.jsonl").read_text().splitlines() if x.strip()]
    return Match.replay(e["variant"], e["options"], e["mano"], actions)


@pytest.mark.parametrize("name", sorted(BY_HAND))
def test_whole_match_statistics_as_worked_out_by_hand(name):
    got = [side.as_dict() for side in match_stats(replay(name))]
    for side, want in enumerate(BY_HAND[name]["sides"]):
        expected = {**SideStats().as_dict(), **want}
        assert got[side] == expected, (name, side)


def test_a_series_adds_counts_and_keeps_the_largest_run_and_deficit():
    a = match_stats(replay("truc_eleven_point_rule"))
    b = match_stats(replay("paulista_mao_de_ferro"))
    both = total([a[1], b[1]])
    assert both.matches_played == 2 and both.matches_won == 1
    assert both.hands_won == a[1].hands_won + b[1].hands_won
    assert both.largest_deficit_overcome == 9 and both.longest_run == 3
    assert both.tentos_by_source["truco"] == 6 + 11


def random_match(seed: int, variant: str, steps: int) -> Match:
    """A legal match: at each step one of the legal actions (possible counts typed where asked)."""
    rng = random.Random(seed)
    m = Match(variant, {"flor": True} if "flor" in VARIANTS[variant].option_specs else {}, seed % 2)
    for _ in range(steps):
        if m.winner is not None:
            break
        legal = m.legal_actions()  # undo and corrections included
        choice = {k: v for k, v in rng.choice(legal).items() if k not in ("points", "points_side")}
        if choice["type"] == "declare_points":
            counts = [n for low, high in m.state()["hand"]["counts"] for n in range(low, high + 1)]
            choice = {"type": "envido_points", "points": [rng.choice(counts), rng.choice(counts)]}
        m.apply(choice)
    return m


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(sorted(VARIANTS)), steps=st.integers(0, 200))
def test_statistics_of_any_legal_match_add_up_and_survive_replay(seed, variant, steps):
    m = random_match(seed, variant, steps)
    sides = match_stats(m)
    for index, side in enumerate(sides):
        assert sum(side.tentos_by_source[s] for s in SOURCES) == m.score[index] == side.tentos
    hands = [e for e in m.log for f in e.facts if f.kind == "hand"]
    nobody = sum(1 for e in m.log for f in e.facts if f.kind == "hand" and f.side is None)
    assert sides[0].hands_won + sides[1].hands_won + nobody == len(hands) == sides[0].hands_played
    again = Match.replay(m.variant.id, m.options, m.first_mano, m.actions)
    assert [s.as_dict() for s in match_stats(again)] == [s.as_dict() for s in sides]
    assert [s.as_dict() for s in log_stats(m.log, m.variant, m.target, m.winner)] == [s.as_dict() for s in sides]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_an_unplayed_match_needs_no_replay(variant):
    """issue 31: a tournament's games with no action yet are counted without building them."""
    from scorer.core.stats import unplayed

    assert unplayed() == match_stats(Match(variant))


def test_total_adds_as_plus_does():
    games = [match_stats(replay(name)) for name in sorted(BY_HAND)]
    for side in (0, 1):
        one_by_one = SideStats()
        for game in games:
            one_by_one = one_by_one + game[side]
        assert total([game[side] for game in games]) == one_by_one


def test_an_open_envido_raise_counts_as_an_envido_call_and_its_tentos_as_envido():
    """Envido, "quiero y envido", "tres más", accepted and won by side 0: 4 + 3 = 7 tentos from the
    Envido (GH-GIAMPIGA's 7; docs/rules.md §Open Envido raises); side 0 called twice, side 1 once."""
    from tests.engine_notation import play

    sides = match_stats(play("venezolano", "0:envido 1:envido 0:envido_mas+3 1:quiero ew0"))
    assert (sides[0].tentos_by_source["envido"], sides[0].envido_called, sides[1].envido_called) == (7, 2, 1)
    assert sides[0].envido_won == 1
