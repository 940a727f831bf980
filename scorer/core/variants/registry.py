"""The registry: every variant, built from the numbers of docs/rules.md (:data:`VARIANTS`), and
how to look one up (:func:`get_variant`), add one (:func:`register`) or pick them by a test."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from scorer.core.card_rules import (
    ARGENTINE_ORDER, CATALAN_ORDER, LIMPO, MINEIRO_MANILHAS, PLAIN_ORDER, SUJO, URUGUAYAN_PIEZAS, CardRules, Deck,
    PiezaRules,
)
from scorer.core.cards import DECK, Card
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
"""docs/rules.md §Argentine ladder."""

VENEZUELAN_LADDER = (
    TrucoStep("truco", 3, 1),
    TrucoStep("retruco", 6, 3),
    TrucoStep("vale_nueve", 9, 6),
    TrucoStep("vale_juego", GAME, 9),
)
"""Truco 3 / refused 1, retruco 6 / 3, vale nueve 9 / 6, vale juego the game / 9 (STEEMIT-VE,
BUENASTAREAS-VE; docs/rules.md §Truco venezolano)."""

VENEZUELAN_ENVIDO_CHAINS = {("envido",): 2, ("envido", "envido"): 4}
"""Envido 2 / refused 1; "quiero y envido" (a second Envido) 4 / refused 2 (STEEMIT-VE,
BUENASTAREAS-VE; docs/rules.md §Truco venezolano). No Real Envido and no Falta Envido: the sources name neither."""

VENEZUELAN_PIEZAS = PiezaRules((11, 10), (30, 29), stand_in=12, turned_up="vira")
"""The perico (11 of the vira's suit) and the perica (10), best and second card; the 12 of
the suit stands in for either when it is the vira itself. Envido: 30 and 29 plus the best
other card (STEEMIT-VE, BUENASTAREAS-VE, OOC-VE; docs/rules.md §Truco venezolano)."""

VALENCIAN_LADDER = (
    TrucoStep("truc", 2, 1),
    TrucoStep("retruc", 3, 2),
    TrucoStep("quatre_val", 4, 3),
    TrucoStep("joc_fora", GAME, 4),
)
"""Truc 2 / refused 1, retruc 3 / 2, quatre val 4 / 3, joc fora what the winner lacks for the
cama / 4 (MURAL-UV, FJD; docs/rules.md §Valencian truc)."""

VALENCIAN_ENVIDO_CHAINS = {("envido",): 2, ("envido", "envido"): 4}
"""Envit 2 / refused 1; the torne (a second envit) 4 / refused 2; the falta ends either or
stands alone (MURAL-UV "L'envit, el torne i la falta", FJD; docs/rules.md §Valencian truc)."""

VALENCIAN_DECK = Deck(
    "valenciana", tuple(c for c in DECK if 3 <= c.rank <= 7 or (c.rank == 1 and c.suit in ("e", "b")))
)
"""The 22 cards of Valencian truc: oros and copas 3-7, espadas and bastos 1 and 3-7
(MURAL-UV "Cartes utilitzades", VILAPEDIA, STUDYLIB-TRUC; docs/rules.md §Valencian truc)."""

VALENCIAN_ORDER = (
    (Card(1, "e"),), (Card(1, "b"),), (Card(7, "e"),), (Card(7, "o"),),
    tuple(Card(3, suit) for suit in ("e", "b", "c", "o")),
    (Card(7, "b"), Card(7, "c")),
    *(tuple(Card(rank, suit) for suit in ("e", "b", "c", "o")) for rank in (6, 5, 4)),
)
"""Strongest first: the espasa (1 of swords), the basto (1 of clubs), the manilla d'espases (7 of
swords), the manilla d'oros (7 of coins), the 3s, the sets bords (7 of clubs and cups), the 6s,
5s, 4s (VILAPEDIA, FJD; docs/rules.md §Valencian truc)."""

_TARGET_LABEL = N_("Points to win")
_FLOR_LABEL = N_("Play with Flor")
_FALTA_LABEL = N_("Falta Envido is worth")
_MAZO_LABEL = N_("Folding in the first trick before Envido gives 1 more")
_PARDAS_LABEL = N_("Three pardas")
_FALTA_HELP = N_("What an accepted Falta Envido, or Contraflor al resto, pays.")
_FALTA_ADDS_LABEL = N_("Falta Envido adds the Envido accepted before it")
_FALTA_ADDS_HELP = N_("Yes: Envido, then Falta accepted pays 2 + the Falta. No: the Falta replaces the 2.")
_FLOR_PER_PLAYER_LABEL = N_("One Flor per player (tables of 4 or 6)")
_FLOR_PER_PLAYER_HELP = N_("Every player of a side may sing a Flor; each one unanswered pays 3.")
_ENVIDO_REPEAT_LABEL = N_("Envido may be called again and again")
_ENVIDO_REPEAT_HELP = N_("Each Envido adds 2, never past the Falta; refused, it pays what was accepted before.")
_FLOR_VS_FLOR_LABEL = N_("Flor against Flor pays")
_FLOR_VS_FLOR_HELP = N_("Per Flor: the better side takes 3 for each Flor it sang (two against one: 6).")
_FALTA_ENVIDO_LABEL = N_("Play the Falta Envido")
_FALTA_ENVIDO_HELP = N_("Yes: Falta Envido is a call, worth what the leader lacks for the game.")

#: The Falta conventions of a game in malas and buenas (docs/rules.md §Falta Envido).
_MALAS_FALTAS = ("leader_stage", "whole_game", "malas_wins_game", "winner_stage", "loser_lacks")


def _falta_option(choices: tuple[str, ...], default: str) -> OptionSpec:
    """The ``falta`` option: which convention values an accepted Falta (docs/rules.md §Falta Envido)."""
    return OptionSpec("falta", choices, default, _FALTA_LABEL, _FALTA_HELP)


_FALTA_ADDS = OptionSpec("falta_adds_stake", (False, True), False, _FALTA_ADDS_LABEL, _FALTA_ADDS_HELP)
_FLOR_PER_PLAYER = OptionSpec("flor_per_player", (False, True), False, _FLOR_PER_PLAYER_LABEL, _FLOR_PER_PLAYER_HELP)
_ENVIDO_REPEAT = OptionSpec("envido_repeat", (False, True), False, _ENVIDO_REPEAT_LABEL, _ENVIDO_REPEAT_HELP)

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
                option_specs=(_falta_option(("target_minus_leader", "loser_lacks"), "target_minus_leader"), _FALTA_ADDS),
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
                    _falta_option(_MALAS_FALTAS, "leader_stage"),
                    OptionSpec("mazo_primera", (True, False), True, _MAZO_LABEL),
                    _FALTA_ADDS,
                    _FLOR_PER_PLAYER,
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
                    # A pieza counts 27-30 and adds the best other card (docs/rules.md §Envido count with a muestra).
                    pieces=URUGUAYAN_PIEZAS,
                ),
                flor=FlorRules(pieces=URUGUAYAN_PIEZAS),
                falta="malas_wins_game",
                malas_buenas=True,
                # Folding before the Envido pays 1 by default: the Uruguayan engine does; the +1
                # comes from an Argentine one (docs/rules.md §Folding in the first trick).
                mazo_primera=False,
                # The piezas of the muestra, then the matas, on top of the Argentine order
                # (docs/rules.md §Muestra and piezas).
                cards=CardRules(ARGENTINE_ORDER, piezas=URUGUAYAN_PIEZAS),
                option_specs=(
                    OptionSpec("target", (30, 40), 30, _TARGET_LABEL),
                    _falta_option(("malas_wins_game", "leader_stage", "whole_game", "winner_stage", "loser_lacks"),
                                  "malas_wins_game"),
                    OptionSpec("mazo_primera", (False, True), False, _MAZO_LABEL),
                    _FALTA_ADDS,
                    _FLOR_PER_PLAYER,
                    _ENVIDO_REPEAT,
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
                # Manilhas from the vira over 3 2 A K J Q 7 6 5 4; sujo or limpo (docs/rules.md §Vira and manilhas).
                cards=CardRules(PLAIN_ORDER, decks=(SUJO, LIMPO), vira_manilhas=True),
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
                cards=CardRules(PLAIN_ORDER, fixed_manilhas=MINEIRO_MANILHAS),  # docs/rules.md §Fixed manilhas
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
                cards=ARGENTINE_CARDS,  # docs/rules.md §Argentine order
                option_specs=(
                    OptionSpec("target", (12, 24), 12, _TARGET_LABEL),
                    _falta_option(("target_minus_leader", "loser_lacks"), "target_minus_leader"),
                    _FALTA_ADDS,
                    _FLOR_PER_PLAYER,
                ),
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
                cards=CardRules(CATALAN_ORDER),  # docs/rules.md §Catalan order
            ),
            Variant(
                id="truc-valencia",
                title=N_("Truc valencià"),
                family="val",
                description=N_("Valencian truc: a cama of 18 in malas and buenas (9 + 9), 22 cards; truc, retruc, "
                               "quatre val, joc fora; envit, torne and falta."),
                target=18,
                ends_at_once=True,
                truco_ladder=VALENCIAN_LADDER,
                envido=EnvidoRules(VALENCIAN_ENVIDO_CHAINS),
                # The falta: both in the malas, the whole cama; otherwise what the leader lacks
                # (convention C: docs/rules.md §Valencian truc, §Falta Envido).
                falta="malas_wins_game",
                malas_buenas=True,
                cards=CardRules(VALENCIAN_ORDER, decks=(VALENCIAN_DECK,)),
                option_specs=(
                    _falta_option(_MALAS_FALTAS, "malas_wins_game"),
                    _FALTA_ADDS,
                ),
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
                # The Falta Envido is the table's option: the rule pages name none, the engine plays it
                # (docs/rules.md §Venezuelan options).
                # The answering side may raise an Envido by any number of tentos, "N más" (BUENASTAREAS-VE,
                # GH-GIAMPIGA: docs/rules.md §Open Envido raises).
                envido=EnvidoRules(VENEZUELAN_ENVIDO_CHAINS, pieces=VENEZUELAN_PIEZAS, falta=False, falta_option=True,
                                   open_raises=True),
                # Flor 3 (STEEMIT-VE); no Contraflor: the sources name none (docs/rules.md §Truco venezolano);
                # "mi flor envida" raises a Flor by 2 (GH-GIAMPIGA: docs/rules.md §Venezuelan options).
                flor=FlorRules(pieces=VENEZUELAN_PIEZAS, raises=("flor_envida",)),
                cards=CardRules(ARGENTINE_ORDER, piezas=VENEZUELAN_PIEZAS),
                # Its Falta (an option) is what the leader lacks, its only convention, so no falta nor
                # falta_adds_stake; its own chain already has the second Envido ("quiero y envido"), so
                # no envido_repeat. Flor is always in play: a table of 4 or 6 may let each player sing
                # one; Flor against Flor pays 3 for each Flor of the better side, as the Venezuelan
                # sources say, and matches stored before the option keep the compared 4
                # (docs/rules.md §Venezuelan options).
                option_specs=(
                    OptionSpec("target", (24, 12), 24, _TARGET_LABEL),
                    _FLOR_PER_PLAYER,
                    OptionSpec("flor_vs_flor", ("per_flor", "compared"), "per_flor", _FLOR_VS_FLOR_LABEL,
                               _FLOR_VS_FLOR_HELP, before="compared"),
                    OptionSpec("falta_envido", (False, True), False, _FALTA_ENVIDO_LABEL, _FALTA_ENVIDO_HELP),
                ),
            ),
        )
    }
VARIANTS: Mapping[str, Variant] = MappingProxyType(_REGISTRY)
"""Every variant by id (read-only; :func:`register` adds one)."""


def get_variant(variant_id: object) -> Variant:
    """The variant with id ``variant_id`` (any value: what is not a known id is refused).

    Raises:
        RuleError: ``no_variant`` when none was given, ``bad_variant`` naming the id; both
            list the known ones.
    """
    if variant_id is None:
        raise RuleError("no_variant", N_("Choose a variant."), allowed=list(VARIANTS))
    found = VARIANTS.get(variant_id) if isinstance(variant_id, str) else None
    if found is None:
        raise RuleError(
            "bad_variant",
            N_("Unknown variant {variant}."),
            allowed=list(VARIANTS),
            variant=str(variant_id),
        )
    return found


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


def known_decks() -> dict[str, Deck]:
    """Every deck some registered variant is played with, by name, in registry order (the
    calculators' and the CLI's ``deck`` choices): read from the variants, never listed."""
    decks: dict[str, Deck] = {}
    for variant in VARIANTS.values():
        for deck in variant.cards.decks:
            decks.setdefault(deck.name, deck)
    return decks


def default_variant() -> Variant:
    """The variant a new match or a calculator starts from: the first registered."""
    return next(iter(VARIANTS.values()))


def flor_in_play(*, flor: bool, muestra: bool) -> bool:
    """Whether an Envido count includes the Flor: when the table plays "con flor", or when a
    muestra is turned up, since every variant with a muestra always plays Flor (uruguaio:
    docs/rules.md §Flor values; issue #2)."""
    return flor or (muestra and all(v.flor is not None and not v.flor_option
                                    for v in VARIANTS.values() if v.cards.piezas is not None))
