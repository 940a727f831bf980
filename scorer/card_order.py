"""Which card wins a trick, per variant: orders, manilhas for a vira, piezas for a muestra.

An order is a tuple of levels, strongest first; each level is a tuple of cards of equal
strength (a trick between two cards of one level is a *parda*). Within a level, cards are
listed espada, basto, copa, oro, except manilhas and piezas, which never tie.

Variant ids (same as the rules engine's): ``truco-15``, ``argentino-30`` and ``gauderio``
use the Argentine 14 levels; ``uruguaio`` puts the piezas of the muestra, then the matas, on
top of them; ``paulista`` takes a vira; ``mineiro`` has fixed manilhas; ``truc`` is Catalan.

Pure module: no I/O. Every bad input raises :class:`CardError`.
"""

from __future__ import annotations

from typing import Literal

from scorer.cards import (
    DECK,
    MANILHA_NAMES,
    MANILHA_SUITS,
    Card,
    check_deck,
    deck_cards,
)
from scorer.errors import N_, CardError

VARIANTS: tuple[str, ...] = (
    "truco-15", "argentino-30", "uruguaio", "paulista", "mineiro", "gauderio", "truc",
)
"""Variant ids this module knows the card order of."""

ARGENTINE_VARIANTS: tuple[str, ...] = ("truco-15", "argentino-30", "gauderio")
"""Variants with the Argentine 14 levels (seeds 000/003; seed 002 for gauderio; REFERENCE.md 1.2, 5)."""

MANILHA_VARIANTS: tuple[str, ...] = ("paulista", "mineiro")
"""Variants with manilhas: Paulista (from the vira) and Mineiro (fixed)."""

Winner = Literal["first", "second", "parda"]
Level = tuple[Card, ...]
Order = tuple[Level, ...]

PLAIN_RANKS: tuple[int, ...] = (3, 2, 1, 12, 11, 10, 7, 6, 5, 4)
"""Ranks strongest first when suits do not matter: Catalan truc (seed 004 "Preparação"), and
the ordinary cards of Paulista (seed 001 "Valor das cartas": 3 2 A K J Q 7 6 5 4) and Mineiro."""

PAULISTA_CYCLE: tuple[int, ...] = (4, 5, 6, 7, 10, 11, 12, 1, 2, 3)
"""Paulista ranks weakest first, 4 5 6 7 Q J K A 2 3; the manilha is the rank after the vira,
3 wrapping to 4 (seed 001 "Valor das cartas e manilhas"; REFERENCE.md 3.2)."""

LIMPO_CYCLE: tuple[int, ...] = (10, 11, 12, 1, 2, 3)
"""Baralho limpo cycle Q J K A 2 3: vira 3 gives the Qs (seed 001; REFERENCE.md 3.2)."""

MINEIRO_MANILHAS: tuple[Card, ...] = (Card(4, "b"), Card(7, "c"), Card(1, "e"), Card(7, "o"))
"""Mineiro's fixed manilhas, strongest first: 4 de paus (zap), 7 de copas (copeta),
A de espadas (espadilha), 7 de ouros (pica-fumo) (REFERENCE.md 4)."""

MATAS: tuple[Card, ...] = (Card(1, "e"), Card(1, "b"), Card(7, "e"), Card(7, "o"))
"""The four top cards of the Argentine order, the Uruguayan *matas* (seed 000; REFERENCE.md 1.2, 2.3)."""

PIEZA_RANKS: tuple[int, ...] = (2, 4, 5, 11, 10)
"""Pieza ranks of the muestra suit, strongest first (issue 3; REFERENCE.md 2.2)."""


def _by_rank(rank: int, cards: tuple[Card, ...] = DECK) -> Level:
    return tuple(c for c in cards if c.rank == rank)


def _argentine() -> Order:
    # Seed 000 "A hierarquia não segue a ordem numérica", levels 1-14; REFERENCE.md 1.2.
    return (
        (Card(1, "e"),), (Card(1, "b"),), (Card(7, "e"),), (Card(7, "o"),),
        _by_rank(3), _by_rank(2), (Card(1, "c"), Card(1, "o")),
        _by_rank(12), _by_rank(11), _by_rank(10), (Card(7, "b"), Card(7, "c")),
        _by_rank(6), _by_rank(5), _by_rank(4),
    )


ARGENTINE_ORDER: Order = _argentine()
"""The Argentine 14 levels, strongest first (seed 000; REFERENCE.md 1.2)."""

CATALAN_ORDER: Order = tuple(_by_rank(r) for r in PLAIN_RANKS)
"""Catalan truc: 3 2 1 12 11 10 7 6 5 4, suits irrelevant (seed 004 "Preparação"; REFERENCE.md 6.1)."""


def check_variant(variant: str) -> str:
    """Return ``variant`` if it is one of :data:`VARIANTS`.

    :raise CardError: ``bad_variant`` otherwise, with the known ids in ``allowed``.
    """
    if variant not in VARIANTS:
        raise CardError(
            "bad_variant", N_("Unknown variant \"{token}\"."), allowed=list(VARIANTS),
            token=str(variant),
        )
    return variant


def manilha_rank(vira: Card | int, *, deck: str = "sujo") -> int:
    """The Paulista manilha rank for a vira: the next rank in 4 5 6 7 Q J K A 2 3, 3 -> 4.

    In the baralho limpo (Q J K A 2 3) vira 3 gives Q. ``vira`` is a card or a rank alone.

    :return: a Spanish-numbered rank (10 = Q, 11 = J, 12 = K, 1 = A).
    :raise CardError: ``not_in_deck`` for a vira rank outside the limpo deck; ``bad_deck``.
    Source: seed 001 "Valor das cartas e manilhas"; REFERENCE.md 3.2, section 8 examples 19-22.
    """
    rank = vira.rank if isinstance(vira, Card) else vira
    cycle = LIMPO_CYCLE if check_deck(deck) == "limpo" else PAULISTA_CYCLE
    if rank not in cycle:
        raise CardError(
            "not_in_deck",
            N_("The vira {token} is not in the baralho {deck}."),
            allowed=[str(r) for r in cycle],
            token=str(vira),
            deck=deck,
        )
    return cycle[(cycle.index(rank) + 1) % len(cycle)]


def paulista_manilhas(vira: Card | int, *, deck: str = "sujo") -> tuple[Card, ...]:
    """The four Paulista manilhas for ``vira``, strongest first: paus (zap), copas,
    espadas (espadilha), ouros (pica-fumo). They never tie.

    :raise CardError: as :func:`manilha_rank`.
    Source: seed 001 "Valor das cartas e manilhas"; REFERENCE.md 3.2.
    """
    rank = manilha_rank(vira, deck=deck)
    return tuple(Card(rank, s) for s in MANILHA_SUITS)


def manilhas_for(
    variant: str, vira: Card | int | None = None, *, deck: str = "sujo"
) -> tuple[Card, ...]:
    """The manilhas in force, strongest first: Paulista from ``vira``, Mineiro fixed.

    :raise CardError: ``vira_required`` (Paulista without vira), ``vira_not_used`` (Mineiro
        with one), ``no_manilhas`` for a variant without manilhas, ``deck_not_used`` for the
        limpo deck outside Paulista, and as :func:`manilha_rank`.
    Source: seed 001; REFERENCE.md 3.2 and 4.
    """
    check_variant(variant)
    check_deck(deck)
    if variant == "paulista":
        if vira is None:
            raise CardError(
                "vira_required", N_("Truco Paulista needs the vira to know the manilhas."),
                allowed=["7", "3o", "K de copas"],
            )
        return paulista_manilhas(vira, deck=deck)
    if variant == "mineiro":
        _no_vira(variant, vira)
        _sujo_only(variant, deck)
        return MINEIRO_MANILHAS
    raise CardError(
        "no_manilhas", N_("The variant {token} has no manilhas."),
        allowed=list(MANILHA_VARIANTS), token=variant,
    )


def manilha_name(card: Card, manilhas: tuple[Card, ...]) -> str | None:
    """``"zap"``, ``"copas"``, ``"espadilha"`` or ``"pica-fumo"`` if ``card`` is one of
    ``manilhas`` (strongest first), else ``None``. Source: seed 001 "Glossário"; REFERENCE.md 3.2, 4.
    """
    return MANILHA_NAMES[manilhas.index(card)] if card in manilhas else None


def piezas(muestra: Card) -> tuple[Card, ...]:
    """The five Uruguayan piezas for ``muestra``, strongest first: the 2, 4, 5, 11, 10 of its
    suit; if the muestra is itself one of those ranks, the 12 of the suit takes its place.

    Source: issue 3; REFERENCE.md 2.2 (section 8 example 15: muestra 4 copa -> 12 copa is the "4").
    """
    return tuple(
        Card(12 if rank == muestra.rank else rank, muestra.suit) for rank in PIEZA_RANKS
    )


def _no_vira(variant: str, vira: object) -> None:
    if vira is not None:
        raise CardError(
            "vira_not_used", N_("The variant {token} has no vira."),
            allowed=["paulista"], token=variant,
        )


def _sujo_only(variant: str, deck: str) -> None:
    if deck != "sujo":
        raise CardError(
            "deck_not_used", N_("Only Truco Paulista is played with the baralho limpo, not {token}."),
            allowed=["paulista"], token=variant,
        )


def _without(order: Order, taken: tuple[Card, ...]) -> Order:
    levels = (tuple(c for c in level if c not in taken) for level in order)
    return tuple(level for level in levels if level)


def card_order(
    variant: str,
    *,
    vira: Card | int | None = None,
    muestra: Card | None = None,
    deck: str = "sujo",
) -> Order:
    """The whole deck for ``variant``, strongest first, equal cards grouped in one level.

    :param vira: Paulista only (a card, or a rank alone); required there.
    :param muestra: Uruguayo only; required there.
    :param deck: ``"limpo"`` (24 cards) only for Paulista.
    :return: levels of cards; 40 cards in all (24 for the limpo deck).
    :raise CardError: ``bad_variant``, ``vira_required``, ``vira_not_used``,
        ``muestra_required``, ``muestra_not_used``, ``deck_not_used``, ``not_in_deck``.
    Sources: Argentine seed 000 (levels 1-14), seed 002 for gauderio, REFERENCE.md 1.2 and 5;
    Uruguayan REFERENCE.md 2.3; Paulista seed 001, REFERENCE.md 3.2; Mineiro REFERENCE.md 4;
    Catalan seed 004, REFERENCE.md 6.1.
    """
    check_variant(variant)
    check_deck(deck)
    if variant != "uruguaio" and muestra is not None:
        raise CardError(
            "muestra_not_used", N_("Only Truco Uruguayo has a muestra, not {token}."),
            allowed=["uruguaio"], token=variant,
        )
    if variant != "paulista":
        _no_vira(variant, vira)
        _sujo_only(variant, deck)
    if variant in ARGENTINE_VARIANTS:
        return ARGENTINE_ORDER
    if variant == "truc":
        return CATALAN_ORDER
    if variant == "uruguaio":
        if muestra is None:
            raise CardError(
                "muestra_required", N_("Truco Uruguayo needs the muestra card."),
                allowed=["1e", "4 de copa"],
            )
        top = piezas(muestra)
        return tuple((c,) for c in top) + _without(ARGENTINE_ORDER, top)
    manilhas = manilhas_for(variant, vira, deck=deck)
    cards = deck_cards(deck)
    plain = tuple(_by_rank(r, cards) for r in PLAIN_RANKS)
    return tuple((c,) for c in manilhas) + _without(tuple(lv for lv in plain if lv), manilhas)


def strength_level(card: Card, order: Order) -> int:
    """1-based level of ``card`` in ``order`` (1 = strongest).

    :raise CardError: ``not_in_deck`` if the card is not in that deck (e.g. a 4 in the limpo deck).
    """
    for index, level in enumerate(order, start=1):
        if card in level:
            return index
    raise CardError(
        "not_in_deck", N_("The card {token} is not in this deck."),
        allowed=[c.code for level in order for c in level], token=card.code,
    )


def compare(
    first: Card,
    second: Card,
    variant: str,
    *,
    vira: Card | int | None = None,
    muestra: Card | None = None,
    deck: str = "sujo",
) -> Winner:
    """Who wins a trick between two cards: ``"first"``, ``"second"`` or ``"parda"`` (a tie).

    The two cards must differ and neither may be the vira or muestra card itself (it is face up
    on the table, in nobody's hand).

    :raise CardError: ``duplicate_card``, and as :func:`card_order` and :func:`strength_level`.
    Sources: as :func:`card_order`; pardas: seed 000 "Quando uma vaza empata", seed 001
    ("manilhas nunca empatam"), seed 004.
    """
    order = card_order(variant, vira=vira, muestra=muestra, deck=deck)
    table = [c for c in (vira, muestra) if isinstance(c, Card)]
    if first == second or first in table or second in table:
        card = first if first == second or first in table else second
        raise CardError(
            "duplicate_card",
            N_("The card {token} is used twice; each card is in the deck only once."),
            allowed=[], token=card.code,
        )
    a, b = strength_level(first, order), strength_level(second, order)
    if a < b:
        return "first"
    if b < a:
        return "second"
    return "parda"


__all__ = [
    "ARGENTINE_ORDER", "ARGENTINE_VARIANTS", "CATALAN_ORDER", "LIMPO_CYCLE",
    "MANILHA_VARIANTS", "MATAS", "MINEIRO_MANILHAS", "PAULISTA_CYCLE", "PIEZA_RANKS",
    "PLAIN_RANKS", "VARIANTS", "Level", "Order", "Winner", "card_order",
    "check_variant", "compare", "manilha_name", "manilha_rank", "manilhas_for",
    "paulista_manilhas", "piezas", "strength_level",
]
