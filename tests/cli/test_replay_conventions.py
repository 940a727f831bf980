"""``truco replay --option ...`` with the conventions of issue 20: the options reach the engine
and the points follow docs/rules.md (the section beside each row; values worked by hand)."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli.main import cli
from tests.engine_notation import actions

CASES = [
    # variant, --option values, script, expected score
    ("argentino-30", ["falta=\"winner_stage\""], "a0+14 0:falta_envido 1:quiero ew1", [14, 15]),  # §Falta Envido D
    ("argentino-30", ["falta=\"loser_lacks\""], "a0+12 a1+9 0:falta_envido 1:quiero ew1", [12, 27]),  # §Falta Envido E
    ("truco-15", ["falta=\"loser_lacks\""], "a0+9 a1+4 0:falta_envido 1:quiero ew1", [9, 10]),  # E, to 15
    ("argentino-30", ["falta_adds_stake=true"], "0:envido 1:falta_envido 0:quiero ew0", [17, 0]),  # §Falta adds the stake
    ("argentino-30", ["flor=true", "flor_per_player=true"], "0:flor 0:flor 1:no_flor", [6, 0]),  # §One Flor per player
    ("gauderio", ["flor_per_player=true"], "1:flor 1:flor 1:flor 0:no_flor", [0, 9]),  # a table of 6
    ("uruguaio", ["envido_repeat=true"], "0:envido 1:envido 0:envido 1:no_quiero", [4, 0]),  # §Repeated Envido
    ("uruguaio", ["mazo_primera=true"], "0:mazo", [0, 2]),  # §Folding in the first trick
    ("uruguaio", [], "0:mazo", [0, 1]),
]


@pytest.mark.parametrize(("variant", "options", "script", "expected"), CASES)
def test_replay_with_the_option(variant, options, script, expected):
    args = ["replay", "--variant", variant]
    for option in options:
        args += ["--option", option]
    stdin = "".join(json.dumps(a) + "\n" for a in actions(script))
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == expected


def test_replay_refuses_the_option_where_it_does_not_apply():
    result = CliRunner().invoke(cli, ["replay", "--variant", "paulista", "--option", "envido_repeat=true"], input="")
    assert result.exit_code != 0
    assert "envido_repeat" in result.output


@pytest.mark.parametrize(("lang", "words"), [("pt", "não é KEY=VALUE"), ("es", "no es KEY=VALUE"),
                                             ("en", "is not KEY=VALUE")])
def test_an_option_without_its_value_is_refused_in_the_users_language(lang, words):
    # Found by hand: `truco replay --option target` said "'target' is not KEY=VALUE" in English
    # after click's Portuguese "Valor inválido para --option".
    result = CliRunner().invoke(cli, ["replay", "--variant", "uruguaio", "--lang", lang, "--option", "target"],
                                input="")
    assert result.exit_code == 2
    assert words in result.output and "target" in result.output, result.output
