"""Rule sets as data: one frozen :class:`Variant` per Truco variant, in one registry.

Every number here is stated, with its public source, in ``docs/rules.md`` (the project's rules
reference); the comments name its sections (``docs/rules.md §Falta Envido``). A variant
holds every fact that differs between variants: the ladder, Envido and Flor, the special
hand, targets and options, the cards (order, deck, manilhas, muestra), pica-pica and the
malas/buenas split. The match engine (:mod:`scorer.core.match`), the card helpers
(:mod:`scorer.core.card_order`), the seats (:mod:`scorer.core.seats`) and the web read these fields;
no other module names a variant id or has a per-variant ``if``.

Units: every value is in tentos (points).

The package is in rooms, one job each: :mod:`.rules` (the parts a variant is built from:
ladder steps, Envido, Flor, special hand, options, Falta conventions), :mod:`.words` (the
table's words per family and language), :mod:`.variant` (:class:`Variant`) and
:mod:`.registry` (every variant, and looking one up). Callers use the names below.

A variant is looked up by id and read as data; a new one is a :class:`Variant` registered
(usually built in :mod:`.registry` itself), and every module that reads the registry sees it:

>>> import dataclasses
>>> from scorer.core.variants import VARIANTS, get_variant, register, unregister, variants_where
>>> paulista = get_variant("paulista")
>>> paulista.target, [(step.call, step.worth) for step in paulista.truco_ladder]
(12, [('truco', 3), ('seis', 6), ('nove', 9), ('doze', 12)])
>>> "paulista" in variants_where(lambda variant: variant.cards.has_manilhas)
True
>>> register(dataclasses.replace(get_variant("truco-15"), id="truco-12", target=12)).target
12
>>> "truco-12" in VARIANTS
True
>>> unregister("truco-12")
>>> get_variant("truco-12")
Traceback (most recent call last):
    ...
scorer.core.errors.RuleError: Unknown variant truco-12.
"""

from scorer.core.variants.registry import (
    ARGENTINE_LADDER, VARIANTS, default_variant, flor_in_play, get_variant, known_decks, register, unregister,
    variants_where,
)
from scorer.core.variants.rules import (
    ARGENTINE_ENVIDO_CHAINS, ENVIDO_CALLS, FALTA_CONVENTIONS, FLOR_CALLS, GAME, GAUDERIO_ENVIDO_CHAINS, OPEN_RAISE,
    EnvidoRules, FlorRules, OptionSpec, SpecialHandRules, TrucoStep, WINNER_FALTAS,
)
from scorer.core.variants.variant import ARGENTINE_CARDS, Variant
from scorer.core.variants.words import CHOICE_LABELS, GLOSSES, TABLE_WORDS, PageWord, TableWord, TableWords, choice_label

__all__ = [
    "ARGENTINE_CARDS", "ARGENTINE_ENVIDO_CHAINS", "ARGENTINE_LADDER", "CHOICE_LABELS", "ENVIDO_CALLS",
    "FALTA_CONVENTIONS", "FLOR_CALLS", "GAME", "GAUDERIO_ENVIDO_CHAINS", "GLOSSES", "OPEN_RAISE", "TABLE_WORDS",
    "VARIANTS",
    "EnvidoRules", "FlorRules", "OptionSpec", "PageWord", "SpecialHandRules", "TableWord", "TableWords", "TrucoStep",
    "Variant", "WINNER_FALTAS",
    "choice_label", "default_variant", "flor_in_play", "get_variant", "known_decks", "register", "unregister", "variants_where",
]
