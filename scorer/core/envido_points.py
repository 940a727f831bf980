"""Envido and Flor points of a three-card hand, with the cards that make them and a one-line
explanation; the Uruguayan muestra and its piezas.

Argentine counting (docs/rules.md §Envido count, §Flor count): cards 1-7 count their number, 10 11 12 count 0; two cards of one suit
make 20 + both values (three of a suit without Flor in play: the best two); no two of a suit:
the highest single card. Range 0-7 or 20-33. With Flor in play, three of a suit is a Flor worth
20 + all three (20-38).

Uruguayan counting with a muestra (issue 3; docs/rules.md §Envido count with a muestra): the piezas (2, 4, 5, 11,
10 of the muestra suit, or the 12 in place of the muestra's own rank) are worth 30, 29, 28,
27, 27. Envido with a pieza = the best pieza + the best other card, suits irrelevant. Flor with
three of a suit, two or three piezas, or one pieza and two cards of one suit: with two or more
piezas the best pieza counts in full and the others only their last digit (29 -> 9, 28 -> 8,
27 -> 7); with one pieza, the pieza + the other two; three of a suit without piezas, 20 + all.

Another variant's piezas are counted the same way with its own ranks and points, given as a
:class:`~scorer.core.card_rules.PiezaRules` (the variant's ``cards.piezas``): Venezolano's perico
and perica, the 11 and 10 of the vira's suit, count 30 and 29 (docs/rules.md §Truco venezolano).

Pure module: no I/O. Bad input raises :class:`CardError`.

>>> from scorer.core.cards import parse_card, parse_hand
>>> from scorer.core.envido_points import envido_points
>>> hand = envido_points(parse_hand("7e 6e 12c"))
>>> hand.points, hand.explanation("en")
(33, '7 + 6 of spades + 20 = 33')
>>> envido_points(parse_hand("7e 6b 12c")).explanation("pt")
'sem duas do mesmo naipe, vale a mais alta: 7 de espadas = 7'
>>> flor = envido_points(parse_hand("7e 6e 1e"), flor=True)   # three of a suit, con flor
>>> flor.points, flor.flor_points, flor.explanation("es")
(None, 34, '7 + 6 + 1 de espadas + 20 = 34')
>>> envido_points(parse_hand("2o 7c 5e"), muestra=parse_card("6o")).explanation("pt")
'2 de ouros (pieza 30) + 7 de copas (7) = 37'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from scorer.core.card_rules import URUGUAYAN_PIEZAS, PiezaRules
from scorer.core.cards import Card, check_lang, of_suit, rank_label
from scorer.core.errors import N_, NP_, CardError

PIEZA_POINTS: tuple[int, ...] = URUGUAYAN_PIEZAS.points
"""Envido value of the Uruguayan piezas 2, 4, 5, 11, 10 of the muestra suit (docs/rules.md §Envido count with a muestra);
another variant's piezas carry their own (:class:`~scorer.core.card_rules.PiezaRules`)."""

_PLURAL_SUITS = {
    "pt": {"e": "espadas", "b": "paus", "c": "copas", "o": "ouros"},
    "es": {"e": "espadas", "b": "bastos", "c": "copas", "o": "oros"},
    "en": {"e": "spades", "b": "clubs", "c": "hearts", "o": "diamonds"},
    "ca": {"e": "espases", "b": "bastos", "c": "copes", "o": "oros"},
}
_NO_PAIR = {
    "pt": "sem duas do mesmo naipe, vale a mais alta: {card} = {points}",
    "es": "sin dos del mismo palo, vale la más alta: {card} = {points}",
    "en": "no two of a suit, the highest card counts: {card} = {points}",
    "ca": "sense dues del mateix pal, val la més alta: {card} = {points}",
}


def possible_counts(kind: str, *, muestra: bool = False, pieces: PiezaRules | None = None) -> frozenset[int]:
    """Every count a hand can declare: the one definition the calculator, the Envido page,
    the API and the match engine share (issue 13 item 1).

    :param kind: ``"envido"`` or ``"flor"``.
    :param muestra: counting with piezas (a turned-up card, which always plays Flor): the
        ``pieces`` given, else the Uruguayan ones.
    :param pieces: the piezas' rules; giving them implies ``muestra``.
    :return: the possible counts (tentos of the Envido/Flor comparison):

        * Envido without muestra: 0-7 (no two of a suit: the highest card) and 20-33
          (20 + two of a suit, 7 + 6 at most) -- docs/rules.md §Envido count.
        * Envido with a muestra: also 27-37, a pieza (27-30) + the best other card (0-7);
          two piezas always make a Flor, so they never count as Envido (docs/rules.md §Envido count with a muestra).
        * Flor without muestra: 20-38, 20 + three cards of a suit (5 + 6 + 7 at most) --
          docs/rules.md §Flor count.
        * Flor with a muestra: 20-47: one pieza + two of a suit (27 + 0 + 0 to 30 + 7 + 6),
          two or three piezas (27 + 7 + 0 to 30 + 9 + 8) -- docs/rules.md §Flor count.

        A hand that holds a Flor where Flor is in play declares its Flor, not an Envido
        ("a player holding flor may not sing envido": docs/rules.md §Envido count).
    :raise ValueError: an unknown ``kind``.
    """
    if pieces is None and muestra:
        pieces = URUGUAYAN_PIEZAS
    points = sorted(pieces.points, reverse=True) if pieces is not None else []
    if kind == "envido":
        counts = {*range(0, 8), *range(20, 20 + 7 + 6 + 1)}
        # A pieza + the best other card, 0-7.
        counts |= {p + k for p in points for k in range(8)}
    elif kind == "flor":
        counts = set(range(20, 20 + 5 + 6 + 7 + 1))
        if points:
            # One pieza + two others (up to 7 + 6); two piezas + another (second's last digit
            # + up to 7); three piezas (the others' last digits).
            digits = [p % 10 for p in points[1:]]
            high = max([points[0] + 7 + 6, *([points[0] + digits[0] + 7] if digits else []),
                        *([points[0] + digits[0] + digits[1]] if len(digits) > 1 else [])])
            counts |= set(range(min(points), high + 1))
    else:
        raise ValueError(f"kind must be envido or flor, not {kind!r}")
    return frozenset(counts)


def count_spans(counts: frozenset[int] | set[int]) -> list[tuple[int, int]]:
    """``counts`` as runs of consecutive numbers, e.g. ``[(0, 7), (20, 33)]``."""
    spans: list[tuple[int, int]] = []
    for number in sorted(counts):
        if spans and number == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], number)
        else:
            spans.append((number, number))
    return spans


def describe_counts(counts: frozenset[int] | set[int]) -> str:
    """``counts`` written as people say a range: ``"0-7, 20-33"``."""
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in count_spans(counts))


def envido_value(card: Card, muestra: Card | None = None, pieces: PiezaRules = URUGUAYAN_PIEZAS) -> int:
    """Envido value of one card: 1-7 their number, 10 11 12 zero; with a ``muestra``, a pieza
    is worth 30, 29, 28, 27 or 27 (2, 4, 5, 11, 10 of its suit, the 12 standing in for the
    muestra's own rank).

    :return: 0-7, or 27-30 for a pieza.
    Source: docs/rules.md §Envido count, §Envido count with a muestra.
    """
    if muestra is not None:
        found = pieces.of(muestra)
        if card in found:
            return pieces.points[found.index(card)]
    return card.rank if card.rank <= 7 else 0


@dataclass(frozen=True)
class Term:
    """One card's share of a count: the ``card``, the ``value`` it adds, whether it is a pieza."""

    card: Card
    value: int
    pieza: bool = False


@dataclass(frozen=True)
class Count:
    """A sum of card values plus a ``bonus`` (20 for a pair or Flor, else 0); ``points`` is the total.

    ``suited`` is true when the terms are cards of one suit counted with the +20 bonus.
    """

    terms: tuple[Term, ...]
    bonus: int
    suited: bool

    @property
    def points(self) -> int:
        """Total: the terms' values + bonus."""
        return sum(t.value for t in self.terms) + self.bonus

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards that make the points, in the order counted."""
        return tuple(t.card for t in self.terms)

    def explain(self, lang: str = "pt") -> str:
        """One line such as ``"7 + 6 de ouros + 20 = 33"`` in ``lang`` (pt, es, en or ca)."""
        lang = check_lang(lang)
        if any(t.pieza for t in self.terms):
            parts = [f"{t.card.label(lang)} ({'pieza ' if t.pieza else ''}{t.value})"
                     for t in self.terms]
        elif self.suited:
            values = [str(t.value) if t.card.rank <= 7 else f"0 ({rank_label(t.card.rank, lang)})"
                      for t in self.terms]
            parts = [" + ".join(values) + " " + of_suit(_PLURAL_SUITS[lang][self.terms[0].card.suit], lang)]
        else:
            return _NO_PAIR[lang].format(card=self.terms[0].card.label(lang), points=self.points)
        bonus = [str(self.bonus)] if self.bonus else []
        return " + ".join(parts + bonus) + f" = {self.points}"


@dataclass(frozen=True)
class EnvidoPoints:
    """The Envido (and Flor) points of a hand.

    Attributes:
        hand: the three cards.
        muestra: the Uruguayan muestra, or ``None``.
        envido: the best Envido count, in :func:`possible_counts` ``("envido")``: 0-7 or
            20-33 without muestra, up to 37 with one (pieza 30 + 7); ``None`` for a hand
            that holds a Flor where Flor is in play (it sings its Flor instead: docs/rules.md §Envido count).
        flor: the Flor count when Flor is in play and the hand has one, else ``None``;
            20-38 without muestra, up to 47 with one.
    """

    hand: tuple[Card, ...]
    muestra: Card | None
    envido: Count | None
    flor: Count | None
    pieces: PiezaRules = URUGUAYAN_PIEZAS

    @property
    def points(self) -> int | None:
        """Envido points, or ``None`` for a hand that sings its Flor instead."""
        return self.envido.points if self.envido is not None else None

    @property
    def has_flor(self) -> bool:
        """True if Flor is in play and the hand has one."""
        return self.flor is not None

    @property
    def flor_points(self) -> int | None:
        """Flor points, or ``None`` without a Flor."""
        return self.flor.points if self.flor is not None else None

    @property
    def piezas(self) -> tuple[Card, ...]:
        """The hand's piezas, strongest first (empty without muestra)."""
        if self.muestra is None:
            return ()
        return tuple(p for p in self.pieces.of(self.muestra) if p in self.hand)

    def explanation(self, lang: str = "pt") -> str:
        """One line: the Flor's count if there is one, else the Envido's."""
        count = self.flor or self.envido
        assert count is not None
        return count.explain(lang)


def _check_hand(hand: Sequence[Card], muestra: Card | None) -> tuple[Card, ...]:
    cards = tuple(hand)
    if len(cards) != 3:
        raise CardError(
            "card_count", NP_("Expected {expected} card in \"{token}\", got {count}.", "Expected {expected} cards in \"{token}\", got {count}."),
            allowed=[], token=" ".join(c.code for c in cards), expected=3, count=len(cards),
        )
    seen: list[Card] = [] if muestra is None else [muestra]
    for card in cards:
        if card in seen:
            raise CardError(
                "duplicate_card",
                N_("The card {token} is used twice; each card is in the deck only once."),
                allowed=[], token=card.code,
            )
        seen.append(card)
    return cards


def _best_by_value(terms: Sequence[Term]) -> list[Term]:
    return sorted(terms, key=lambda t: -t.value)


def _plain_envido(terms: Sequence[Term]) -> Count:
    """Argentine rule on cards that are not piezas: best suited pair + 20, else highest card."""
    pairs = [
        Count(tuple(_best_by_value(pair)), 20, True)
        for pair in combinations(terms, 2)
        if pair[0].card.suit == pair[1].card.suit
    ]
    if pairs:
        return max(pairs, key=lambda count: count.points)
    return Count((_best_by_value(terms)[0],), 0, False)


def _last_digit(term: Term) -> Term:
    return Term(term.card, term.value % 10, term.pieza) if term.pieza else term


def envido_points(
    hand: Sequence[Card], *, flor: bool = False, muestra: Card | None = None,
    pieces: PiezaRules = URUGUAYAN_PIEZAS,
) -> EnvidoPoints:
    """Envido points of a three-card ``hand``, and its Flor when ``flor`` is in play.

    :param hand: three different cards.
    :param flor: whether the game is played "con flor" (docs/rules.md §Flor values); without it no Flor
        is counted and ``flor_points`` is ``None``.
    :param muestra: the turned-up card whose suit gives the piezas (not in the hand): the
        Uruguayan muestra, the Venezuelan vira; or ``None``. Variants with piezas always play
        Flor, so a turned-up card puts Flor in play.
    :param pieces: the piezas' ranks and points (the variant's
        :attr:`~scorer.core.card_rules.CardRules.piezas`; default the Uruguayan ones).
    :return: :class:`EnvidoPoints`; ``points`` in :func:`possible_counts` ``("envido")``
        (0-7 or 20-33 without a muestra), ``None`` for a hand with a Flor in play;
        ``flor_points`` in :func:`possible_counts` ``("flor")``.
    :raise CardError: ``card_count`` unless 3 cards; ``duplicate_card`` for a repeated card or
        the muestra in the hand.
    Sources: docs/rules.md §Envido count, §Envido count with a muestra, §Flor count; issue 3.
    """
    cards = _check_hand(hand, muestra)
    terms = [Term(c, envido_value(c, muestra, pieces), False) for c in cards]
    if muestra is not None:
        found = pieces.of(muestra)
        terms = [Term(t.card, t.value, t.card in found) for t in terms]
    with_pieza = _best_by_value([t for t in terms if t.pieza])
    others = _best_by_value([t for t in terms if not t.pieza])

    if with_pieza:
        # Best pieza + the best other card, another pieza counting its last digit
        # (docs/rules.md §Envido count with a muestra; the last-digit rule for a second pieza
        # is taken from the Flor count).
        best, rest = with_pieza[0], [_last_digit(t) for t in with_pieza[1:]] + others
        envido = Count((best, _best_by_value(rest)[0]), 0, False)
    else:
        envido = _plain_envido(terms)

    flor_count: Count | None = None
    if flor or muestra is not None:
        same_suit = len({c.suit for c in cards}) == 1
        if len(with_pieza) >= 2:
            rest = [_last_digit(t) for t in with_pieza[1:]] + others
            flor_count = Count((with_pieza[0], *rest), 0, False)
        elif len(with_pieza) == 1 and others[0].card.suit == others[1].card.suit:
            flor_count = Count((with_pieza[0], *others), 0, False)
        elif not with_pieza and same_suit:
            flor_count = Count(tuple(_best_by_value(terms)), 20, True)
    # A hand with a Flor sings its Flor; it declares no Envido (docs/rules.md §Envido count).
    return EnvidoPoints(hand=cards, muestra=muestra, envido=None if flor_count else envido, flor=flor_count,
                        pieces=pieces)
