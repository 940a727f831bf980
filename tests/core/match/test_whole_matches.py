"""Whole matches, one action file per variant under tests/matches/, replayed to the end.

The final scores in tests/matches/expected.json were worked out by hand, hand by hand, from the
sections of docs/rules.md (see each variant's rule tests for the values used).
"""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli.main import cli
from scorer.core.match import Match
from scorer.core.variants import VARIANTS

MATCHES = Path(__file__).resolve().parents[2] / "matches"
EXPECTED = json.loads((MATCHES / "expected.json").read_text(encoding="utf-8"))


def test_every_variant_has_a_whole_match():
    assert {entry["variant"] for entry in EXPECTED.values()} == set(VARIANTS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_match_replays_to_the_expected_end(name):
    entry = EXPECTED[name]
    lines = (MATCHES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    match = Match.replay(entry["variant"], entry["options"], entry["mano"], [json.loads(line) for line in lines])
    assert list(match.score) == entry["score"]
    assert match.winner == entry["winner"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cli_replay_gives_the_same_end(name):
    entry = EXPECTED[name]
    args = ["replay", "--variant", entry["variant"], "--mano", str(entry["mano"])]
    for key, value in entry["options"].items():
        args += ["--option", f"{key}={json.dumps(value)}"]
    result = CliRunner().invoke(cli, [*args, str(MATCHES / f"{name}.jsonl")])
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert (state["score"], state["winner"]) == (entry["score"], entry["winner"])
