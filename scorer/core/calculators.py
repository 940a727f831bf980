"""The table's calculators: Envido points of a hand, the manilhas for a vira, and which of
two cards wins a trick, as JSON-ready dicts.

This is the application service behind ``truco envido``/``manilha``/``compare`` (and their
``--json``), the web calculators (``/envido``, ``/manilha``) and ``/api/envido``,
``/api/manilha``: cards as canonical codes such as ``"4b"`` or ``"10c"``, names in the chosen
language. Bad input raises :class:`CardError`. Which variant has manilhas, a vira, a muestra
or the limpo deck is asked of the variant (:mod:`scorer.core.variants`), never of its id.
Pure: imports neither Flask nor sqlite3.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scorer.core.card_order import (
    card_order, check_variant, compare, manilha_name, manilhas_for, strength_level, turned_up_card, variant_deck,
)
from scorer.core.card_rules import URUGUAYAN_PIEZAS, PiezaRules
from scorer.core.cards import Card, check_lang, parse_card, parse_hand, parse_rank
from scorer.core.envido_points import count_spans, envido_points, possible_counts
from scorer.core.errors import N_, CardError
from scorer.core.variants import default_variant, flor_in_play, variants_where


def _names(cards: Iterable[Card], lang: str) -> dict[str, str]:
    return {c.code: c.label(lang) for c in cards}


def _read_vira(text: str | None, lang: str) -> Card | int | None:
    """A vira typed as a rank alone (``"7"``, ``"K"``) or as a card (``"7 de ouros"``)."""
    if text is None or not str(text).strip():
        return None
    try:
        return parse_rank(text, lang)
    except CardError as err:
        if err.code != "bad_rank":
            raise
        return parse_card(text, lang)


def _read_muestra(text: str | None, lang: str) -> Card | None:
    if text is None or not str(text).strip():
        return None
    return parse_card(text, lang)


def _piezas_of(
    variant: str | None, vira: str | None, muestra: str | None, lang: str, *, flor: bool
) -> tuple[Card | None, PiezaRules, bool]:
    """The turned-up card whose piezas count, the piezas' rules, and whether Flor is in play:
    the ``variant``'s (its vira or muestra, its piezas, its Flor), else the Uruguayan piezas
    for a ``muestra``.

    :raise CardError: as :func:`scorer.core.card_order.card_order` for the variant's card.
    """
    if variant is None:
        return _read_muestra(muestra, lang), URUGUAYAN_PIEZAS, flor
    v = check_variant(variant)
    vira_card, muestra_card = _read_muestra(vira, lang), _read_muestra(muestra, lang)
    card_order(v, vira=vira_card, muestra=muestra_card)  # the variant's turned-up card, or refused
    turned = turned_up_card(v, vira=vira_card, muestra=muestra_card) if v.cards.piezas else None
    return turned, v.cards.piezas or URUGUAYAN_PIEZAS, flor or v.plays_flor(v.resolve_options(None))


def envido_json(
    cards: str, *, flor: bool = False, muestra: str | None = None, lang: str = "pt",
    variant: str | None = None, vira: str | None = None,
) -> dict[str, Any]:
    """Envido (and Flor) points of three typed-in cards, as a JSON-ready dict.

    :param cards: three cards as people type them (see :func:`scorer.core.cards.parse_cards`).
    :param flor: the game is played "con flor".
    :param muestra: the Uruguayan muestra card, typed in, or ``None``; a muestra puts Flor
        in play (:func:`scorer.core.variants.flor_in_play`).
    :param lang: ``pt``, ``es`` or ``en`` for reading the cards and writing names.
    :param variant: a variant id whose piezas count (its
        :attr:`~scorer.core.card_rules.CardRules.piezas`; the turned-up card is its ``muestra``
        or its ``vira``, as the variant names it), and whose Flor is in play; ``None``: the
        Uruguayan piezas when a ``muestra`` is given.
    :param vira: the turned-up card of a variant whose piezas follow the vira (Venezolano).
    :return: ``{"hand", "muestra", "piezas", "points", "cards", "flor", "flor_points",
        "flor_cards", "explanation", "envido_explanation", "possible", "names", "lang"}``; cards
        are canonical codes, ``names`` maps each code to its name in ``lang``; ``flor_points``
        and ``flor_cards`` are ``None`` without a Flor; ``points`` and ``envido_explanation``
        are ``None`` (``cards`` empty) for a hand with a Flor in play, which sings its Flor
        instead (docs/rules.md §Envido count); ``possible`` gives the counts a match accepts
        (``{"envido": [[0, 7], [20, 33]], "flor": [[20, 38]] or None}``), from
        :func:`scorer.core.envido_points.possible_counts`, the definition the engine uses.
    :raise CardError: bad card, wrong count (``card_count``), duplicate, bad language,
        ``bad_variant``, ``vira_required``/``muestra_required``/``vira_not_used``/
        ``muestra_not_used`` for the variant's turned-up card.
    Sources: see :func:`scorer.core.envido_points.envido_points`.
    """
    lang = check_lang(lang)
    muestra_card, pieces, flor = _piezas_of(variant, vira, muestra, lang, flor=flor)
    hand = parse_hand(cards, lang, count=3)
    with_muestra = muestra_card is not None
    with_flor = flor_in_play(flor=flor, muestra=with_muestra)
    result = envido_points(hand, flor=with_flor, muestra=muestra_card, pieces=pieces)
    shown = list(hand) + ([muestra_card] if muestra_card else [])
    return {
        "hand": [c.code for c in hand],
        "muestra": muestra_card.code if muestra_card else None,
        "piezas": [c.code for c in result.piezas],
        "points": result.points,
        "cards": [c.code for c in result.envido.cards] if result.envido else [],
        "flor": result.has_flor,
        "flor_points": result.flor_points,
        "flor_cards": [c.code for c in result.flor.cards] if result.flor else None,
        "explanation": result.explanation(lang),
        "envido_explanation": result.envido.explain(lang) if result.envido else None,
        "possible": {
            "envido": [list(span) for span in count_spans(possible_counts("envido", pieces=pieces if with_muestra else None))],
            "flor": (
                [list(span) for span in count_spans(possible_counts("flor", pieces=pieces if with_muestra else None))]
                if with_flor else None
            ),
        },
        "names": _names(shown, lang),
        "lang": lang,
    }


def manilha_json(
    vira: str | None, *, deck: str | None = None, variant: str | None = None, lang: str = "pt"
) -> dict[str, Any]:
    """The manilhas for a vira (Paulista) or the fixed ones (Mineiro), and the whole deck's order.

    :param vira: the vira typed as a rank (``"7"``, ``"K"``) or a card (``"7 de ouros"``);
        ``None`` for Mineiro.
    :param deck: ``"sujo"`` (40 cards) or ``"limpo"`` (24 cards, Paulista only); ``None``, the
        variant's first deck.
    :param variant: the id of a variant with manilhas (default: the first, Paulista).
    :return: ``{"variant", "deck", "vira", "vira_rank", "manilhas", "manilha_names", "order",
        "names", "lang"}``: ``manilhas`` are codes strongest first, ``manilha_names`` the matching
        ``zap``/``copas``/``espadilha``/``pica-fumo``; ``order`` is the whole deck strongest
        first as a list of levels, each a list of codes that tie; ``vira`` is a code when a
        card was given, else ``None``.
    :raise CardError: ``no_manilhas``, ``vira_required``, ``vira_not_used``, ``not_in_deck``,
        ``deck_not_used``, bad card or rank.
    Sources: docs/rules.md §Vira and manilhas, §Fixed manilhas.
    """
    lang = check_lang(lang)
    if variant is None:
        variant = manilha_variants()[0]
    if variant not in manilha_variants():
        raise CardError(
            "no_manilhas", N_("The variant {token} has no manilhas."),
            allowed=manilha_variants(), token=str(variant),
        )
    played = variant_deck(check_variant(variant), deck)
    vira_value = _read_vira(vira, lang)
    manilhas = manilhas_for(variant, vira_value, deck=played.name)
    order = card_order(variant, vira=vira_value, deck=played.name)
    if isinstance(vira_value, Card):
        strength_level(vira_value, order)  # the vira must be a card of this deck
    return {
        "variant": variant,
        "deck": played.name,
        "vira": vira_value.code if isinstance(vira_value, Card) else None,
        "vira_rank": vira_value.rank if isinstance(vira_value, Card) else vira_value,
        "manilhas": [c.code for c in manilhas],
        "manilha_names": [manilha_name(c, manilhas) for c in manilhas],
        "order": [[c.code for c in level] for level in order],
        "names": _names(played.cards, lang),
        "lang": lang,
    }


def compare_json(
    first: str,
    second: str,
    *,
    variant: str | None = None,
    vira: str | None = None,
    muestra: str | None = None,
    lang: str = "pt",
    deck: str | None = None,
) -> dict[str, Any]:
    """Which of two typed-in cards wins a trick in ``variant`` (default: the first, ``truco-15``).

    Paulista needs ``vira`` (a rank or a card) and may use ``deck="limpo"`` (``None``: the
    variant's first deck); Uruguayo needs
    ``muestra``. With manilhas in force (Paulista with a vira, or Mineiro), ``zap``,
    ``copeta``, ``espadilha`` and ``pica-fumo`` are accepted as cards.

    :return: ``{"variant", "deck", "first", "second", "winner", "first_level",
        "second_level", "vira", "vira_rank", "muestra", "names", "lang"}``; ``winner`` is
        ``"first"``, ``"second"`` or ``"parda"``; levels are 1-based, 1 = strongest.
    :raise CardError: bad card, duplicate (also the vira/muestra card itself), ``bad_variant``,
        ``vira_required``, ``muestra_required``, ``vira_not_used``, ``muestra_not_used``,
        ``not_in_deck``, ``deck_not_used``.
    Sources: see :func:`scorer.core.card_order.card_order`.
    """
    lang = check_lang(lang)
    variant = variant if variant is not None else default_variant().id
    deck = variant_deck(check_variant(variant), deck).name
    vira_value = _read_vira(vira, lang)
    muestra_card = _read_muestra(muestra, lang)
    order = card_order(variant, vira=vira_value, muestra=muestra_card, deck=deck)
    has_manilhas = check_variant(variant).cards.has_manilhas
    manilhas = manilhas_for(variant, vira_value, deck=deck) if has_manilhas else None
    a = parse_card(first, lang, manilhas=manilhas)
    b = parse_card(second, lang, manilhas=manilhas)
    winner = compare(a, b, variant, vira=vira_value, muestra=muestra_card, deck=deck)
    table = [c for c in (vira_value, muestra_card) if isinstance(c, Card)]
    return {
        "variant": variant,
        "deck": deck,
        "first": a.code,
        "second": b.code,
        "winner": winner,
        "first_level": strength_level(a, order),
        "second_level": strength_level(b, order),
        "vira": vira_value.code if isinstance(vira_value, Card) else None,
        "vira_rank": vira_value.rank if isinstance(vira_value, Card) else vira_value,
        "muestra": muestra_card.code if muestra_card else None,
        "names": _names([a, b, *table], lang),
        "lang": lang,
    }


def manilha_variants() -> list[str]:
    """The ids of the variants with manilhas (``paulista``, ``mineiro``), first the default."""
    return variants_where(lambda v: v.cards.has_manilhas)
