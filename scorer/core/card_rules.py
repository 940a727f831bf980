"""The card facts a variant is built from: card orders, manilha cycles, piezas, and
:class:`CardRules`, the frozen value each :class:`~scorer.core.variants.Variant` carries.

An order is a tuple of levels, strongest first; each level is a tuple of cards of equal
strength (a trick between two cards of one level is a *parda*). Within a level, cards are
listed espada, basto, copa, oro, except manilhas and piezas, which never tie.

Nothing here names a variant: :mod:`scorer.core.variants` says which variant uses which order,
and :mod:`scorer.core.card_order` applies a variant's rules to a vira or a muestra.

Pure module: no I/O. Every bad input raises :class:`CardError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.core.cards import DECK, LIMPO_DECK, MANILHA_SUITS, Card
from scorer.core.errors import N_, CardError

Level = tuple[Card, ...]
Order = tuple[Level, ...]

PLAIN_RANKS: tuple[int, ...] = (3, 2, 1, 12, 11, 10, 7, 6, 5, 4)
"""Ranks strongest first when suits do not matter: Catalan truc (docs/rules.md §Catalan order), and
the ordinary cards of Paulista (3 2 A K J Q 7 6 5 4: docs/rules.md §Vira and manilhas) and Mineiro."""

PAULISTA_CYCLE: tuple[int, ...] = (4, 5, 6, 7, 10, 11, 12, 1, 2, 3)
"""Paulista ranks weakest first, 4 5 6 7 Q J K A 2 3; the manilha is the rank after the vira,
3 wrapping to 4 (docs/rules.md §Vira and manilhas)."""

LIMPO_CYCLE: tuple[int, ...] = (10, 11, 12, 1, 2, 3)
"""Baralho limpo cycle Q J K A 2 3: vira 3 gives the Qs (docs/rules.md §Vira and manilhas)."""

MINEIRO_MANILHAS: tuple[Card, ...] = (Card(4, "b"), Card(7, "c"), Card(1, "e"), Card(7, "o"))
"""Mineiro's fixed manilhas, strongest first: 4 de paus (zap), 7 de copas (copeta),
A de espadas (espadilha), 7 de ouros (pica-fumo) (docs/rules.md §Fixed manilhas)."""

PIEZA_RANKS: tuple[int, ...] = (2, 4, 5, 11, 10)
"""Pieza ranks of the muestra suit, strongest first (docs/rules.md §Muestra and piezas)."""


def _by_rank(rank: int, cards: tuple[Card, ...] = DECK) -> Level:
    return tuple(c for c in cards if c.rank == rank)


def _argentine() -> Order:
    # Levels 1-14: docs/rules.md §Argentine order.
    return (
        (Card(1, "e"),), (Card(1, "b"),), (Card(7, "e"),), (Card(7, "o"),),
        _by_rank(3), _by_rank(2), (Card(1, "c"), Card(1, "o")),
        _by_rank(12), _by_rank(11), _by_rank(10), (Card(7, "b"), Card(7, "c")),
        _by_rank(6), _by_rank(5), _by_rank(4),
    )


ARGENTINE_ORDER: Order = _argentine()
"""The Argentine 14 levels, strongest first (docs/rules.md §Argentine order)."""

PLAIN_ORDER: Order = tuple(_by_rank(r) for r in PLAIN_RANKS)
"""3 2 1 12 11 10 7 6 5 4, suits irrelevant: Catalan truc (docs/rules.md §Catalan order),
and the cards below the manilhas in Paulista and Mineiro (docs/rules.md §Vira and manilhas, §Fixed manilhas)."""

CATALAN_ORDER: Order = PLAIN_ORDER
"""Catalan truc: 3 2 1 12 11 10 7 6 5 4, suits irrelevant (docs/rules.md §Catalan order)."""


@dataclass(frozen=True)
class Deck:
    """The cards a variant is dealt from, as data of the variant (minitruco's ``Modo`` keeps
    its deck the same way): :attr:`CardRules.decks` lists a variant's decks, the first the
    one it plays by default.

    Attributes:
        name: the deck's id as the table names it (``"sujo"``, ``"limpo"``, ``"valenciana"``);
            the calculators' and the CLI's ``deck`` argument.
        cards: the deck's cards (40, 24 or 22), each once.
        manilha_cycle: where manilhas follow the vira, the ranks weakest first whose next
            rank after the vira's is the manilha (3 wraps); empty for a deck without a vira.
    """

    name: str
    cards: tuple[Card, ...]
    manilha_cycle: tuple[int, ...] = ()


SUJO = Deck("sujo", DECK, PAULISTA_CYCLE)
"""The whole Spanish deck, 40 cards (the Brazilian baralho sujo: docs/rules.md §Vira and manilhas)."""

LIMPO = Deck("limpo", LIMPO_DECK, LIMPO_CYCLE)
"""The baralho limpo, 24 cards Q J K A 2 3 (docs/rules.md §Vira and manilhas)."""


def manilha_rank(vira: Card | int, *, deck: Deck = SUJO) -> int:
    """The Paulista manilha rank for a vira: the next rank in 4 5 6 7 Q J K A 2 3, 3 -> 4.

    In the baralho limpo (Q J K A 2 3) vira 3 gives Q. ``vira`` is a card or a rank alone.

    :return: a Spanish-numbered rank (10 = Q, 11 = J, 12 = K, 1 = A).
    :raise CardError: ``not_in_deck`` for a vira rank outside the deck's manilha cycle.
    Source: docs/rules.md §Vira and manilhas.
    """
    rank = vira.rank if isinstance(vira, Card) else vira
    cycle = deck.manilha_cycle
    if rank not in cycle:
        raise CardError(
            "not_in_deck",
            N_("The vira {token} is not in the baralho {deck}."),
            allowed=[str(r) for r in cycle],
            token=str(vira),
            deck=deck.name,
        )
    return cycle[(cycle.index(rank) + 1) % len(cycle)]


def paulista_manilhas(vira: Card | int, *, deck: Deck = SUJO) -> tuple[Card, ...]:
    """The four Paulista manilhas for ``vira``, strongest first: paus (zap), copas,
    espadas (espadilha), ouros (pica-fumo). They never tie.

    :raise CardError: as :func:`manilha_rank`.
    Source: docs/rules.md §Vira and manilhas.
    """
    rank = manilha_rank(vira, deck=deck)
    return tuple(Card(rank, s) for s in MANILHA_SUITS)


@dataclass(frozen=True)
class PiezaRules:
    """Piezas: cards of the turned-up card's suit that go on top of the order (one card a
    level, strongest first) and count high for Envido and Flor.

    Attributes:
        ranks: the piezas' ranks, strongest first (Uruguayo: 2 4 5 11 10).
        points: each pieza's Envido / Flor value, in the same order (30 29 28 27 27).
        stand_in: the rank of the turned-up suit that takes the place of a pieza that is the
            turned-up card itself (12 in both variants that have piezas).
        turned_up: what the table calls the turned-up card, and so the calculators' and the
            CLI's argument that gives it: ``"muestra"`` or ``"vira"``.
    """

    ranks: tuple[int, ...]
    points: tuple[int, ...]
    stand_in: int = 12
    turned_up: str = "muestra"

    def of(self, turned: Card) -> tuple[Card, ...]:
        """The piezas for the turned-up card ``turned``, strongest first."""
        return tuple(
            Card(self.stand_in if rank == turned.rank else rank, turned.suit) for rank in self.ranks
        )


URUGUAYAN_PIEZAS = PiezaRules(PIEZA_RANKS, (30, 29, 28, 27, 27))
"""Truco uruguayo's piezas: 2 4 5 11 10 of the muestra suit, worth 30 29 28 27 27 for Envido
and Flor; the 12 stands in for the muestra's own rank (issue 3; docs/rules.md §Muestra and piezas, §Envido count with a muestra)."""


def piezas(muestra: Card, rules: PiezaRules = URUGUAYAN_PIEZAS) -> tuple[Card, ...]:
    """The piezas for ``muestra`` under ``rules`` (default: the five Uruguayan ones), strongest
    first: the 2, 4, 5, 11, 10 of its suit; if the muestra is itself one of those ranks, the
    12 of the suit takes its place.

    Source: docs/rules.md §Muestra and piezas (muestra 4 copa: the 12 copa is the "4").
    """
    return rules.of(muestra)


@dataclass(frozen=True)
class CardRules:
    """Which card wins a trick in one variant, as data (minitruco's ``Modo`` keeps the same).

    Attributes:
        order: the levels strongest first, before any manilha or pieza goes on top, of every
            card of the variant's decks (a smaller deck keeps the levels of its own cards).
        decks: the decks the variant is played with (:class:`Deck`), the default first
            (:data:`SUJO`; Paulista also :data:`LIMPO`; Valencian truc its 22 cards).
        vira_manilhas: the four manilhas follow the vira (Paulista: :func:`paulista_manilhas`).
        fixed_manilhas: manilhas that never change, strongest first (Mineiro), else empty.
        piezas: a card is turned up and its piezas (:class:`PiezaRules`) go on top of the
            order (Uruguayo: the muestra; Venezolano: the vira), else ``None``.
    """

    order: Order
    decks: tuple[Deck, ...] = (SUJO,)
    vira_manilhas: bool = False
    fixed_manilhas: tuple[Card, ...] = ()
    piezas: PiezaRules | None = None

    def deck(self, name: str | None = None) -> Deck | None:
        """The deck called ``name`` among this variant's, its first for ``None``; ``None``
        when the variant is not played with a deck of that name."""
        if name is None:
            return self.decks[0]
        return next((d for d in self.decks if d.name == name), None)

    @property
    def has_manilhas(self) -> bool:
        """Whether some cards are manilhas (from the vira or fixed)."""
        return self.vira_manilhas or bool(self.fixed_manilhas)

    @property
    def muestra(self) -> bool:
        """Whether a card called the muestra is turned up (its piezas go on top). A muestra
        also puts Flor in play (see :func:`scorer.core.variants.flor_in_play`)."""
        return self.piezas is not None and self.piezas.turned_up == "muestra"

    @property
    def takes_vira(self) -> bool:
        """Whether a card called the vira is turned up: manilhas follow it, or piezas do."""
        return self.vira_manilhas or (self.piezas is not None and self.piezas.turned_up == "vira")


def without(order: Order, taken: tuple[Card, ...], cards: tuple[Card, ...] = DECK) -> Order:
    """``order`` keeping only ``cards`` and dropping ``taken``, empty levels removed."""
    levels = (tuple(c for c in level if c in cards and c not in taken) for level in order)
    return tuple(level for level in levels if level)
