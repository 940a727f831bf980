"""The runnable examples on the core's front door (issue 21): the match as a fold over
actions, the variant registry, the card parser, Envido counting and the manilha lookup
each show a short ``>>>`` example in their docstring, and it must still say the truth.

Run here, module by module, rather than with pytest's ``--doctest-modules`` for the whole
package, so the examples stay where a newcomer starts reading and the global options stay as
they are."""

from __future__ import annotations

import doctest
import importlib

import pytest

FRONT_DOOR = [
    "scorer.core.match",
    "scorer.core.variants",
    "scorer.core.cards",
    "scorer.core.envido_points",
    "scorer.core.card_order",
]
#: The club's modules (issue 32): each shows at least one example.
CLUB = ["scorer.core.club.ratings", "scorer.core.club.season", "scorer.core.club.draw"]


@pytest.mark.parametrize("name", CLUB)
def test_the_clubs_examples_run(name):
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, report=True)
    assert results.attempted >= 1 and results.failed == 0


@pytest.mark.parametrize("name", FRONT_DOOR)
def test_the_examples_run_and_say_the_truth(name):
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, report=True)
    assert results.attempted >= 4, f"{name} shows no runnable example"
    assert results.failed == 0
