"""Which card wins a trick in a variant: its order, its manilhas for a vira, its piezas for
a muestra, and compare.

Every function takes a variant (its id, or a :class:`~scorer.core.variants.Variant`) and reads
the variant's :class:`~scorer.core.card_rules.CardRules`: nothing here knows a variant by name.
The orders themselves, the manilha cycles and the piezas are in :mod:`scorer.core.card_rules`.

Pure module: no I/O. Every bad input raises :class:`CardError`.

>>> from scorer.core.card_order import compare, manilha_name, manilhas_for
>>> from scorer.core.cards import parse_card
>>> manilhas = manilhas_for("paulista", parse_card("7o"))      # the vira is a 7: the Qs are manilhas
>>> [(str(card), manilha_name(card, manilhas)) for card in manilhas]
[('10b', 'zap'), ('10c', 'copas'), ('10e', 'espadilha'), ('10o', 'pica-fumo')]
>>> [str(card) for card in manilhas_for("mineiro")]             # fixed manilhas, no vira
['4b', '7c', '1e', '7o']
>>> compare(parse_card("3e"), parse_card("4b"), "mineiro")             # the zap beats a 3
'second'
>>> manilhas_for("paulista")
Traceback (most recent call last):
    ...
scorer.core.errors.CardError: Truco paulista needs the vira to know the manilhas.
"""

from __future__ import annotations

from typing import Literal

from scorer.core.card_rules import (
    ARGENTINE_ORDER,
    CATALAN_ORDER,
    LIMPO_CYCLE,
    MINEIRO_MANILHAS,
    PAULISTA_CYCLE,
    PIEZA_RANKS,
    PLAIN_RANKS,
    Level,
    Order,
    PiezaRules,
    manilha_rank,
    paulista_manilhas,
    piezas,
    without,
)
from scorer.core.card_rules import Deck
from scorer.core.cards import MANILHA_NAMES, Card
from scorer.core.errors import N_, CardError, PageText
from scorer.core.variants import VARIANTS, Variant, known_decks, variants_where

Winner = Literal["first", "second", "parda"]


def check_variant(variant: str | Variant) -> Variant:
    """The registered variant ``variant`` (an id, or a variant itself).

    :raise CardError: ``bad_variant`` for an unknown id, with the known ids in ``allowed``.
    """
    if isinstance(variant, Variant):
        return variant
    found = VARIANTS.get(variant) if isinstance(variant, str) else None
    if found is None:
        raise CardError(
            "bad_variant", N_("Unknown variant \"{token}\"."), allowed=list(VARIANTS),
            token=str(variant),
        )
    return found


def manilhas_for(
    variant: str | Variant, vira: Card | int | None = None, *, deck: str | None = None
) -> tuple[Card, ...]:
    """The manilhas in force, strongest first: from ``vira`` where the variant's manilhas
    follow the vira (Paulista), else the variant's fixed ones (Mineiro).

    :raise CardError: ``vira_required`` (no vira where one is needed), ``vira_not_used``
        (a vira where there is none), ``no_manilhas`` for a variant without manilhas,
        ``bad_deck`` and ``deck_not_used`` as :func:`variant_deck`, and as :func:`manilha_rank`.
    Source: docs/rules.md §Vira and manilhas, §Fixed manilhas.
    """
    v = check_variant(variant)
    played = variant_deck(v, deck)
    if v.cards.vira_manilhas:
        if vira is None:
            raise CardError(
                "vira_required", N_("{variant} needs the vira to know the manilhas."),
                allowed=["7", "3o", "K de copas"], variant=PageText(v.title),
            )
        return paulista_manilhas(vira, deck=played)
    if v.cards.fixed_manilhas:
        _check_table(v, vira=vira)
        return v.cards.fixed_manilhas
    raise CardError(
        "no_manilhas", N_("The variant {token} has no manilhas."),
        allowed=variants_where(lambda w: w.cards.has_manilhas), token=v.id,
    )


def manilha_name(card: Card, manilhas: tuple[Card, ...]) -> str | None:
    """``"zap"``, ``"copas"``, ``"espadilha"`` or ``"pica-fumo"`` if ``card`` is one of
    ``manilhas`` (strongest first), else ``None``. Source: docs/rules.md §Vira and manilhas, §Fixed manilhas.
    """
    return MANILHA_NAMES[manilhas.index(card)] if card in manilhas else None


def variant_deck(v: Variant, deck: str | None) -> Deck:
    """The deck ``v`` is played with: the one called ``deck``, or the variant's first for ``None``.

    :raise CardError: ``bad_deck`` for a name no registered variant plays with (the known
        names in ``allowed``), ``deck_not_used`` for a deck of another variant.
    """
    played = v.cards.deck(deck)
    if played is not None:
        return played
    known = known_decks()
    if deck not in known:
        raise CardError("bad_deck", N_("Unknown deck \"{token}\"."), allowed=list(known), token=str(deck))
    raise CardError(
        "deck_not_used", N_("The variant {token} is not played with the baralho {deck}; these variants are: {allowed_ids}."),
        allowed=variants_where(lambda w: w.cards.deck(deck) is not None), token=v.id,
        deck=deck, allowed_ids=", ".join(variants_where(lambda w: w.cards.deck(deck) is not None)),
    )


def _check_table(v: Variant, *, vira: object = None, muestra: object = None) -> None:
    """Refuse a muestra or a vira the variant does not use."""
    if muestra is not None and not v.cards.muestra:
        raise CardError(
            "muestra_not_used", N_("The variant {token} has no muestra; these variants have one: {allowed_ids}."),
            allowed=variants_where(lambda w: w.cards.muestra), token=v.id,
            allowed_ids=", ".join(variants_where(lambda w: w.cards.muestra)),
        )
    if vira is not None and not v.cards.takes_vira:
        raise CardError(
            "vira_not_used", N_("The variant {token} has no vira."),
            allowed=variants_where(lambda w: w.cards.takes_vira), token=v.id,
        )


def card_order(
    variant: str | Variant,
    *,
    vira: Card | int | None = None,
    muestra: Card | None = None,
    deck: str | None = None,
) -> Order:
    """The whole deck for ``variant``, strongest first, equal cards grouped in one level:
    the piezas of the muestra or the manilhas on top (one card a level), then the variant's
    order without them.

    :param vira: where manilhas follow the vira (a card, or a rank alone); required there.
    :param muestra: where the variant plays with a muestra; required there.
    :param deck: one of the variant's decks by name (``"limpo"``: 24 cards, Paulista); ``None``,
        its first (the 40 cards; Valencian truc's 22).
    :return: levels of cards, every card of the deck once.
    :raise CardError: ``bad_variant``, ``vira_required``, ``vira_not_used``,
        ``muestra_required``, ``muestra_not_used``, ``bad_deck``, ``deck_not_used``, ``not_in_deck``.
    Sources: docs/rules.md §Argentine order (also gauderio), §Muestra and piezas,
    §Vira and manilhas, §Fixed manilhas, §Catalan order.
    """
    v = check_variant(variant)
    played = variant_deck(v, deck)
    _check_table(v, vira=vira, muestra=muestra)
    top: tuple[Card, ...] = ()
    if v.cards.piezas is not None:
        top = v.cards.piezas.of(turned_up_card(v, vira=vira, muestra=muestra))
    elif v.cards.has_manilhas:
        top = manilhas_for(v, vira, deck=played.name)
    return tuple((c,) for c in top) + without(v.cards.order, top, played.cards)


def turned_up_card(v: Variant, *, vira: Card | int | None = None, muestra: Card | None = None) -> Card:
    """The card turned up whose suit gives ``v``'s piezas: the ``muestra`` or the ``vira``, as
    the variant's :attr:`~scorer.core.card_rules.PiezaRules.turned_up` names it.

    :raise CardError: ``muestra_required`` or ``vira_required`` (missing, or a vira given as a
        rank alone: the piezas need its suit).
    """
    assert v.cards.piezas is not None
    if v.cards.piezas.turned_up == "vira":
        if not isinstance(vira, Card):
            raise CardError(
                "vira_required", N_("{variant} needs the vira card (rank and suit) to know the piezas."),
                allowed=["7o", "4 de copa"], variant=PageText(v.title),
            )
        return vira
    if muestra is None:
        raise CardError(
            "muestra_required", N_("{variant} needs the muestra card."),
            allowed=["1e", "4 de copa"], variant=PageText(v.title),
        )
    return muestra


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
    variant: str | Variant,
    *,
    vira: Card | int | None = None,
    muestra: Card | None = None,
    deck: str | None = None,
) -> Winner:
    """Who wins a trick between two cards: ``"first"``, ``"second"`` or ``"parda"`` (a tie).

    The two cards must differ and neither may be the vira or muestra card itself (it is face up
    on the table, in nobody's hand).

    :raise CardError: ``duplicate_card``, and as :func:`card_order` and :func:`strength_level`.
    Sources: as :func:`card_order`; pardas: docs/rules.md §Pardas ("manilhas nunca empatam":
    docs/rules.md §Vira and manilhas).
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
    "ARGENTINE_ORDER", "CATALAN_ORDER", "LIMPO_CYCLE", "MINEIRO_MANILHAS", "PAULISTA_CYCLE",
    "PIEZA_RANKS", "PLAIN_RANKS", "PiezaRules", "VARIANTS", "Level", "Order", "Winner", "card_order",
    "check_variant", "compare", "manilha_name", "manilha_rank", "manilhas_for",
    "paulista_manilhas", "piezas", "strength_level", "turned_up_card", "variant_deck",
]
