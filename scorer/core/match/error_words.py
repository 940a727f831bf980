"""How the engine's errors name calls and special hands: the variant's table words put in an
error's params (the error layer; the log is data, said by :mod:`scorer.present.log_words`)."""

from __future__ import annotations

from scorer.core.errors import PageText, RuleError
from scorer.core.variants import PageWord, TableWords

CALL_NAMES = {  # ids the engine accepts, with a neutral name (the table's words: variants.TABLE_WORDS)
    "truco": "Truco",
    "retruco": "Retruco",
    "vale_cuatro": "Vale Cuatro",
    "seis": "Seis",
    "nove": "Nove",
    "dez": "Dez",
    "doze": "Doze",
    "truc": "Truc",
    "retruc": "Retruc",
    "envido": "Envido",
    "real_envido": "Real Envido",
    "falta_envido": "Falta Envido",
    "flor": "Flor",
    "contraflor": "Contraflor",
    "contraflor_al_resto": "Contraflor al resto",
}
"""How a call is written where the variant's table has no word for it (a call of another
variant named in an error). Display only: which calls an action may carry is
:data:`scorer.core.schema.CALLS`."""


def use_table_words(error: RuleError, words: TableWords) -> None:
    """Write call and special-hand ids in an error's params as the variant's table says
    them (``vale_cuatro`` -> ``Vale cuatro``, ``mao_de_onze`` -> ``Mão de onze``; Catalan
    truc's 11-point rule in the page's language, as a :class:`~scorer.core.errors.PageText`).
    Changes ``error.params`` in place."""
    for key in ("call", "pending", "expected"):
        if isinstance(error.params.get(key), str):
            error.params[key] = words.calls.get(error.params[key], CALL_NAMES.get(error.params[key], error.params[key]))
    special = error.params.get("special")
    if isinstance(special, str):
        word = words.specials.get(special, special)
        # Inside a sentence: "the mão de onze" (the board's label says "Mão de onze").
        error.params["special"] = PageText(word.msgid) if isinstance(word, PageWord) else word[:1].lower() + word[1:]
