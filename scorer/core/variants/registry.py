"""The registry: every variant, built from its seed's numbers (:data:`VARIANTS`), and
how to look one up (:func:`get_variant`), add one (:func:`register`) or pick them by a test."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from scorer.core.card_rules import (
    ARGENTINE_ORDER, CATALAN_ORDER, MINEIRO_MANILHAS, PLAIN_ORDER, URUGUAYAN_PIEZAS, CardRules, PiezaRules,
)
from scorer.core.errors import N_, RuleError
from scorer.core.variants.rules import (
    ARGENTINE_ENVIDO_CHAINS, GAME, GAUDERIO_ENVIDO_CHAINS, EnvidoRules, FlorRules, OptionSpec, SpecialHandRules,
    TrucoStep,
)
from scorer.core.variants.variant import ARGENTINE_CARDS, Variant

ARGENTINE_LADDER = (
    TrucoStep("truco", 2, 1),
    TrucoStep("retruco", 3, 2),
    TrucoStep("vale_cuatro", 4, 3),
)
"""Seed 000 "Pedir Truco" / "Responder a um pedido"; REFERENCE.md 1.4."""

VENEZUELAN_LADDER = (
    TrucoStep("truco", 3, 1),
    TrucoStep("retruco", 6, 3),
    TrucoStep("vale_nueve", 9, 6),
    TrucoStep("vale_juego", GAME, 9),
)
"""Truco 3 / refused 1, retruco 6 / 3, vale nueve 9 / 6, vale juego the game / 9 (STEEMIT-VE,
BUENASTAREAS-VE; docs/rules-venezolano.md)."""

VENEZUELAN_ENVIDO_CHAINS = {("envido",): 2, ("envido", "envido"): 4}
"""Envido 2 / refused 1; "quiero y envido" (a second Envido) 4 / refused 2 (STEEMIT-VE,
BUENASTAREAS-VE). No Real Envido and no Falta Envido: the sources name neither."""

VENEZUELAN_PIEZAS = PiezaRules((11, 10), (30, 29), stand_in=12, turned_up="vira")
"""The perico (11 of the vira's suit) and the perica (10), best and second card; the 12 of
the suit stands in for either when it is the vira itself. Envido: 30 and 29 plus the best
other card (STEEMIT-VE, BUENASTAREAS-VE, OOC-VE; docs/rules-venezolano.md)."""

_TARGET_LABEL = N_("Points to win")
_FLOR_LABEL = N_("Play with Flor")
_FALTA_LABEL = N_("Falta Envido is worth")
_MAZO_LABEL = N_("Folding in the first trick before Envido gives 1 more")
_PARDAS_LABEL = N_("Three pardas")

_REGISTRY: dict[str, Variant] = {
        variant.id: variant
        for variant in (
            Variant(
                id="truco-15",
                title=N_("Truco (15)"),
                description=N_("Two players to 15, Envido, no Flor; the game ends at 15."),
                target=15,
                ends_at_once=True,
                truco_ladder=ARGENTINE_LADDER,
                envido=EnvidoRules(ARGENTINE_ENVIDO_CHAINS),
                cards=ARGENTINE_CARDS,
            ),
            Variant(
                id="argentino-30",
                title=N_("Truco argentino (30)"),
                description=N_("30 tentos in malas and buenas, Envido, Flor if agreed."),
                target=30,
                ends_at_once=True,
                truco_ladder=ARGENTINE_LADDER,
                envido=EnvidoRules(ARGENTINE_ENVIDO_CHAINS, closes_on_truco_accepted=True),
                flor=FlorRules(),
                flor_option=True,
                falta="leader_stage",
                malas_buenas=True,
                mazo_primera=True,
                cards=ARGENTINE_CARDS,
                pica_pica=True,
                option_specs=(
                    OptionSpec("target", (30, 18, 40), 30, _TARGET_LABEL),
                    OptionSpec("flor", (False, True), False, _FLOR_LABEL),
                    OptionSpec("falta", ("leader_stage", "whole_game", "malas_wins_game"), "leader_stage", _FALTA_LABEL),
                    OptionSpec("mazo_primera", (True, False), True, _MAZO_LABEL),
                ),
            ),
            Variant(
                id="uruguaio",
                title=N_("Truco uruguayo"),
                description=N_("Uruguayan truco with muestra: 30 (or 40) in malas and buenas, Envido and Flor."),
                target=30,
                ends_at_once=True,
                truco_ladder=ARGENTINE_LADDER,
                envido=EnvidoRules(
                    ARGENTINE_ENVIDO_CHAINS,
                    closes_on_truco_accepted=True,
                    # A pieza counts 27-30 and adds the best other card (REFERENCE.md 2.4).
                    pieces=URUGUAYAN_PIEZAS,
                ),
                flor=FlorRules(pieces=URUGUAYAN_PIEZAS),
                falta="malas_wins_game",
                malas_buenas=True,
                mazo_primera=True,
                # The piezas of the muestra, then the matas, on top of the Argentine order
                # (REFERENCE.md 2.3).
                cards=CardRules(ARGENTINE_ORDER, piezas=URUGUAYAN_PIEZAS),
                option_specs=(
                    OptionSpec("target", (30, 40), 30, _TARGET_LABEL),
                    OptionSpec("falta", ("malas_wins_game", "leader_stage", "whole_game"), "malas_wins_game", _FALTA_LABEL),
                    OptionSpec("mazo_primera", (True, False), True, _MAZO_LABEL),
                ),
            ),
            Variant(
                id="paulista",
                title=N_("Truco paulista"),
                family="br",
                description=N_("12 tentos with vira and manilhas: Truco 3, Seis, Nove, Doze; mão de onze."),
                target=12,
                ends_at_once=True,
                truco_ladder=(
                    TrucoStep("truco", 3, 1),
                    TrucoStep("seis", 6, 3),
                    TrucoStep("nove", 9, 6),
                    TrucoStep("doze", 12, 9),
                ),
                special_hand=SpecialHandRules(threshold=11, name="mao_de_onze", play_worth=3, run_pays=1, ferro_worth=1),
                all_pardas="nobody",
                # Manilhas from the vira over 3 2 A K J Q 7 6 5 4; sujo or limpo (seed 001; REFERENCE.md 3.2).
                cards=CardRules(PLAIN_ORDER, decks=("sujo", "limpo"), vira_manilhas=True),
                option_specs=(OptionSpec("all_pardas", ("nobody", "mano"), "nobody", _PARDAS_LABEL),),
            ),
            Variant(
                id="mineiro",
                title=N_("Truco mineiro"),
                family="br",
                description=N_("12 tentos with fixed manilhas: hand 2, Truco 4, Seis, Dez, Doze; mão de dez."),
                target=12,
                ends_at_once=True,
                base_hand_value=2,
                truco_ladder=(
                    TrucoStep("truco", 4, 2),
                    TrucoStep("seis", 6, 4),
                    TrucoStep("dez", 10, 6),
                    TrucoStep("doze", 12, 10),
                ),
                special_hand=SpecialHandRules(threshold=10, name="mao_de_dez", play_worth=4, run_pays=2, ferro_worth=2),
                all_pardas="nobody",
                cards=CardRules(PLAIN_ORDER, fixed_manilhas=MINEIRO_MANILHAS),  # REFERENCE.md 4
                option_specs=(OptionSpec("all_pardas", ("nobody", "mano"), "nobody", _PARDAS_LABEL),),
            ),
            Variant(
                id="gauderio",
                title=N_("Truco gaudério"),
                family="gaucho",
                description=N_("12 (or 24) tentos, Envido and Flor with the Gaudério values."),
                target=12,
                ends_at_once=False,
                truco_ladder=ARGENTINE_LADDER,
                envido=EnvidoRules(GAUDERIO_ENVIDO_CHAINS),
                flor=FlorRules(compared=None, refused=4, contraflor_answered=False),
                cards=ARGENTINE_CARDS,  # seed 002; REFERENCE.md 5
                option_specs=(OptionSpec("target", (12, 24), 12, _TARGET_LABEL),),
            ),
            Variant(
                id="truc",
                title=N_("Truc català"),
                family="cat",
                description=N_("Catalan truc to 12: truc 2, retruc 3, the 11-point rule."),
                target=12,
                ends_at_once=True,
                truco_ladder=(TrucoStep("truc", 2, 1), TrucoStep("retruc", 3, 2)),
                special_hand=SpecialHandRules(threshold=11, name="mao_de_onze", play_worth=3, run_pays=1, ferro_worth=1),
                trick_accepts_pending=True,
                cards=CardRules(CATALAN_ORDER),  # seed 004 "Preparação"; REFERENCE.md 6.1
            ),
            Variant(
                id="venezolano",
                title=N_("Truco venezolano"),
                family="ve",
                description=N_("Venezuelan truco to 24 (or 12) with a vira, perico and perica: Truco 3, Retruco 6, "
                               "Vale nueve, Vale juego; Envido and Flor."),
                target=24,
                ends_at_once=True,
                truco_ladder=VENEZUELAN_LADDER,
                envido=EnvidoRules(VENEZUELAN_ENVIDO_CHAINS, pieces=VENEZUELAN_PIEZAS, falta=False),
                # Flor 3 (STEEMIT-VE); no Contraflor: the sources name none (docs/rules-venezolano.md).
                flor=FlorRules(pieces=VENEZUELAN_PIEZAS, raises=()),
                cards=CardRules(ARGENTINE_ORDER, piezas=VENEZUELAN_PIEZAS),
                option_specs=(OptionSpec("target", (24, 12), 24, _TARGET_LABEL),),
            ),
        )
    }
VARIANTS: Mapping[str, Variant] = MappingProxyType(_REGISTRY)
"""Every variant by id (read-only; :func:`register` adds one)."""


def get_variant(variant_id: str) -> Variant:
    """The variant with id ``variant_id``.

    Raises:
        RuleError: ``no_variant`` when none was given, ``bad_variant`` naming the id; both
            list the known ones.
    """
    if variant_id is None:
        raise RuleError("no_variant", N_("Choose a variant."), allowed=list(VARIANTS))
    try:
        return VARIANTS[variant_id]
    except (KeyError, TypeError):
        raise RuleError(
            "bad_variant",
            N_("Unknown variant {variant}."),
            allowed=list(VARIANTS),
            variant=str(variant_id),
        ) from None


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the registry (a variant built from the parts above, say); every
    module that reads :data:`VARIANTS` sees it at once.

    Raises:
        ValueError: a variant with that id is already registered.
    """
    if variant.id in _REGISTRY:
        raise ValueError(f"variant {variant.id!r} is already registered")
    _REGISTRY[variant.id] = variant
    return variant


def unregister(variant_id: str) -> None:
    """Remove the variant ``variant_id`` from the registry (nothing if it is not there)."""
    _REGISTRY.pop(variant_id, None)


def variants_where(test: Callable[[Variant], bool]) -> list[str]:
    """The ids of the registered variants for which ``test(variant)`` is true, in order."""
    return [v.id for v in VARIANTS.values() if test(v)]


def default_variant() -> Variant:
    """The variant a new match or a calculator starts from: the first registered."""
    return next(iter(VARIANTS.values()))


def flor_in_play(*, flor: bool, muestra: bool) -> bool:
    """Whether an Envido count includes the Flor: when the table plays "con flor", or when a
    muestra is turned up, since every variant with a muestra always plays Flor (uruguaio:
    REFERENCE.md 2.4; issue #2)."""
    return flor or (muestra and all(v.flor is not None and not v.flor_option
                                    for v in VARIANTS.values() if v.cards.piezas is not None))
