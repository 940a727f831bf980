"""Folding (irse al mazo, correr, fugir).

Expected numbers: docs/rules.md §Folding (truco-15 "Desistir", paulista "Correr"),
§Folding in the first trick, and issue #2 "Folding" (argentino-30/uruguaio option mazo_primera).
"""

import pytest

from scorer.core.errors import RuleError
from tests.engine_notation import play

MAZO_CASES = [
    # variant, options, script, expected score
    ("truco-15", {}, "1:mazo", [1, 0]),  # 1 if no truco accepted
    ("truco-15", {}, "0:truco 1:quiero t0 0:mazo", [0, 2]),  # the raised value
    ("truco-15", {}, "0:truco 1:retruco 0:quiero 1:mazo", [3, 0]),
    ("truco-15", {}, "0:truco 1:mazo", [1, 0]),  # folding facing a truco refuses it
    ("truco-15", {}, "0:truco 1:retruco 0:mazo", [0, 2]),
    ("truco-15", {}, "0:envido 1:mazo", [2, 0]),  # refused envido 1, then the hand 1
    ("truco-15", {}, "0:envido 1:real_envido 0:mazo", [0, 3]),  # refused E-R 2, then the hand 1
    ("truco-15", {}, "0:truco 1:envido 0:mazo", [0, 2]),  # refuses the envido (1) and hands over the hand (1)
    ("paulista", {}, "0:mazo", [0, 1]),
    ("paulista", {}, "0:truco 1:quiero 1:mazo", [3, 0]),
    ("paulista", {}, "0:truco 1:seis 0:mazo", [0, 3]),
    ("mineiro", {}, "0:mazo", [0, 2]),
    ("mineiro", {}, "0:truco 1:quiero 0:mazo", [0, 4]),
    ("gauderio", {}, "1:mazo", [1, 0]),
    # argentino-30: a fold in the first trick while envido could still be called gives 1 more
    ("argentino-30", {}, "1:mazo", [2, 0]),
    ("argentino-30", {}, "0:mazo", [0, 2]),
    ("argentino-30", {"mazo_primera": False}, "1:mazo", [1, 0]),
    ("argentino-30", {}, "t0 1:mazo", [1, 0]),  # the first trick is over
    ("argentino-30", {}, "0:envido 1:quiero ew0 1:mazo", [3, 0]),  # envido was sung: 2 + 1
    ("argentino-30", {}, "0:truco 1:mazo", [2, 0]),  # truco refused 1 + 1 (envido still open for 1)
    ("argentino-30", {}, "0:truco 1:quiero 1:mazo", [2, 0]),  # accepted truco closes the envido
    # Issue 20: the Uruguayan default pays 1 (its own engine); the +1 is an option there.
    ("uruguaio", {"mazo_primera": True}, "0:mazo", [0, 2]),
    ("uruguaio", {}, "0:mazo", [0, 1]),
]


@pytest.mark.parametrize(("variant", "options", "script", "expected"), MAZO_CASES)
def test_mazo_pays(variant, options, script, expected):
    match = play(variant, script, options=options)
    assert list(match.score) == expected
    assert match.state()["hand"]["number"] == 2, "a fold ends the hand"


@pytest.mark.parametrize(
    "script",
    ["0:truco 0:mazo", "0:envido 0:mazo", "0:truco 1:retruco 1:mazo"],
)
def test_the_side_whose_call_is_pending_cannot_fold(script):
    """docs/rules.md §Folding (Truco to 15): "Quem fez o pedido pendente não pode desistir para cancelar o próprio pedido"."""
    with pytest.raises(RuleError) as caught:
        play("truco-15", script)
    assert caught.value.code == "own_call_pending"
