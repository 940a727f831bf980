"""``truco envido``, ``truco manilha`` and ``truco compare``, and the JSON they print.

The ``*_json`` builders are the whole answer as a plain dict (cards as canonical codes such as
``"4b"`` or ``"10c"``, names in the chosen language); the web views reuse them, and ``--json``
prints exactly them. Bad input raises :class:`CardError` from the builders; the commands print
it and exit with status 2 (issue 3, "CLI").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import click

from scorer import cli_lang
from scorer.card_order import (
    MANILHA_VARIANTS,
    VARIANTS,
    card_order,
    compare,
    manilha_name,
    manilhas_for,
    strength_level,
)
from scorer.cards import (
    DECKS,
    LANGS,
    Card,
    check_deck,
    check_lang,
    deck_cards,
    parse_card,
    parse_hand,
    parse_rank,
)
from scorer.envido_points import count_spans, envido_points, possible_counts
from scorer.errors import N_, CardError


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


def envido_json(
    cards: str, *, flor: bool = False, muestra: str | None = None, lang: str = "pt"
) -> dict[str, Any]:
    """Envido (and Flor) points of three typed-in cards, as a JSON-ready dict.

    :param cards: three cards as people type them (see :func:`scorer.cards.parse_cards`).
    :param flor: the game is played "con flor".
    :param muestra: the Uruguayan muestra card, typed in, or ``None``. Uruguayan truco is
        always played with Flor (REFERENCE.md 2.4; issue #2), so a muestra puts Flor in play.
    :param lang: ``pt``, ``es`` or ``en`` for reading the cards and writing names.
    :return: ``{"hand", "muestra", "piezas", "points", "cards", "flor", "flor_points",
        "flor_cards", "explanation", "envido_explanation", "possible", "names", "lang"}``; cards
        are canonical codes, ``names`` maps each code to its name in ``lang``; ``flor_points``
        and ``flor_cards`` are ``None`` without a Flor; ``points`` and ``envido_explanation``
        are ``None`` (``cards`` empty) for a hand with a Flor in play, which sings its Flor
        instead (REFERENCE.md 1.7); ``possible`` gives the counts a match accepts
        (``{"envido": [[0, 7], [20, 33]], "flor": [[20, 38]] or None}``), from
        :func:`scorer.envido_points.possible_counts`, the definition the engine uses.
    :raise CardError: bad card, wrong count (``card_count``), duplicate, bad language.
    Sources: see :func:`scorer.envido_points.envido_points`.
    """
    lang = check_lang(lang)
    muestra_card = _read_muestra(muestra, lang)
    hand = parse_hand(cards, lang, count=3)
    flor_in_play = flor or muestra_card is not None
    result = envido_points(hand, flor=flor_in_play, muestra=muestra_card)
    shown = list(hand) + ([muestra_card] if muestra_card else [])
    with_muestra = muestra_card is not None
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
            "envido": [list(span) for span in count_spans(possible_counts("envido", muestra=with_muestra))],
            "flor": (
                [list(span) for span in count_spans(possible_counts("flor", muestra=with_muestra))]
                if flor_in_play else None
            ),
        },
        "names": _names(shown, lang),
        "lang": lang,
    }


def manilha_json(
    vira: str | None, *, deck: str = "sujo", variant: str = "paulista", lang: str = "pt"
) -> dict[str, Any]:
    """The manilhas for a vira (Paulista) or the fixed ones (Mineiro), and the whole deck's order.

    :param vira: the vira typed as a rank (``"7"``, ``"K"``) or a card (``"7 de ouros"``);
        ``None`` for Mineiro.
    :param deck: ``"sujo"`` (40 cards) or ``"limpo"`` (24 cards, Paulista only).
    :param variant: ``"paulista"`` or ``"mineiro"``.
    :return: ``{"variant", "deck", "vira", "vira_rank", "manilhas", "manilha_names", "order",
        "names", "lang"}``: ``manilhas`` are codes strongest first, ``manilha_names`` the matching
        ``zap``/``copas``/``espadilha``/``pica-fumo``; ``order`` is the whole deck strongest
        first as a list of levels, each a list of codes that tie; ``vira`` is a code when a
        card was given, else ``None``.
    :raise CardError: ``no_manilhas``, ``vira_required``, ``vira_not_used``, ``not_in_deck``,
        ``deck_not_used``, bad card or rank.
    Sources: seed 001 "Valor das cartas e manilhas"; REFERENCE.md 3.2, 4.
    """
    lang = check_lang(lang)
    check_deck(deck)
    if variant not in MANILHA_VARIANTS:
        raise CardError(
            "no_manilhas", N_("The variant {token} has no manilhas."),
            allowed=list(MANILHA_VARIANTS), token=str(variant),
        )
    vira_value = _read_vira(vira, lang)
    manilhas = manilhas_for(variant, vira_value, deck=deck)
    order = card_order(variant, vira=vira_value, deck=deck)
    if isinstance(vira_value, Card):
        strength_level(vira_value, order)  # the vira must be a card of this deck
    return {
        "variant": variant,
        "deck": deck,
        "vira": vira_value.code if isinstance(vira_value, Card) else None,
        "vira_rank": vira_value.rank if isinstance(vira_value, Card) else vira_value,
        "manilhas": [c.code for c in manilhas],
        "manilha_names": [manilha_name(c, manilhas) for c in manilhas],
        "order": [[c.code for c in level] for level in order],
        "names": _names(deck_cards(deck) if variant == "paulista" else deck_cards(), lang),
        "lang": lang,
    }


def compare_json(
    first: str,
    second: str,
    *,
    variant: str = "truco-15",
    vira: str | None = None,
    muestra: str | None = None,
    lang: str = "pt",
    deck: str = "sujo",
) -> dict[str, Any]:
    """Which of two typed-in cards wins a trick in ``variant``.

    Paulista needs ``vira`` (a rank or a card) and may use ``deck="limpo"``; Uruguayo needs
    ``muestra``. With manilhas in force (Paulista with a vira, or Mineiro), ``zap``,
    ``copeta``, ``espadilha`` and ``pica-fumo`` are accepted as cards.

    :return: ``{"variant", "deck", "first", "second", "winner", "first_level",
        "second_level", "vira", "vira_rank", "muestra", "names", "lang"}``; ``winner`` is
        ``"first"``, ``"second"`` or ``"parda"``; levels are 1-based, 1 = strongest.
    :raise CardError: bad card, duplicate (also the vira/muestra card itself), ``bad_variant``,
        ``vira_required``, ``muestra_required``, ``vira_not_used``, ``muestra_not_used``,
        ``not_in_deck``, ``deck_not_used``.
    Sources: see :func:`scorer.card_order.card_order`.
    """
    lang = check_lang(lang)
    vira_value = _read_vira(vira, lang)
    muestra_card = _read_muestra(muestra, lang)
    order = card_order(variant, vira=vira_value, muestra=muestra_card, deck=deck)
    manilhas = manilhas_for(variant, vira_value, deck=deck) if variant in MANILHA_VARIANTS else None
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


# --- text output ------------------------------------------------------------------------------

_WORDS = {
    "pt": {"beats": "{a} ganha de {b}", "parda": "parda: {a} empata com {b}", "order": "Ordem",
           "sings_flor": "Com Flor não se canta Envido: vale a Flor."},
    "es": {"beats": "{a} le gana a {b}", "parda": "parda: {a} empata con {b}", "order": "Orden",
           "sings_flor": "Con flor no se canta envido: vale la flor."},
    "en": {"beats": "{a} beats {b}", "parda": "parda: {a} ties with {b}", "order": "Order",
           "sings_flor": "A hand with Flor sings the Flor, not Envido."},
}


def _envido_text(data: dict[str, Any]) -> str:
    lines = []
    if data["points"] is not None:
        lines.append(f"Envido: {data['points']} ({data['envido_explanation']})")
    if data["flor"]:
        lines.append(f"Flor: {data['flor_points']} ({data['explanation']})")
    if data["points"] is None:
        lines.append(_WORDS[data["lang"]]["sings_flor"])
    return "\n".join(lines)


def _manilha_text(data: dict[str, Any]) -> str:
    names = data["names"]
    manilhas = ", ".join(
        f"{nick} = {names[code]}" for code, nick in zip(data["manilhas"], data["manilha_names"])
    )
    lines = [f"Manilhas: {manilhas}", f"{_WORDS[data['lang']]['order']}:"]
    for index, level in enumerate(data["order"], start=1):
        lines.append(f"{index:>3}. " + " = ".join(names[code] for code in level))
    return "\n".join(lines)


def _compare_text(data: dict[str, Any]) -> str:
    names, words = data["names"], _WORDS[data["lang"]]
    a, b = names[data["first"]], names[data["second"]]
    if data["winner"] == "parda":
        return words["parda"].format(a=a, b=b)
    if data["winner"] == "second":
        a, b = b, a
    return words["beats"].format(a=a, b=b)


def _emit(
    build: Callable[[], dict[str, Any]], as_json: bool, render: Callable[[dict[str, Any]], str],
    lang: str = "pt",
) -> None:
    """Print what ``build`` answers, or its error in ``lang`` and exit with status 2."""
    try:
        data = build()
    except CardError as err:
        translate = cli_lang.translator(lang)
        if as_json:
            click.echo(json.dumps({"error": err.to_json(translate)}, ensure_ascii=False))
        else:
            click.echo(f"{cli_lang.ERROR_WORD[lang]}: {err.render(translate)}", err=True)
        raise click.exceptions.Exit(2) from err
    click.echo(json.dumps(data, ensure_ascii=False) if as_json else render(data))


_lang_option = click.option(
    "--lang", type=click.Choice(LANGS), default=None, callback=lambda _ctx, _param, value: cli_lang.resolve(value),
    help="Language of the cards and of every message (default: the locale's, else pt).",
)
_json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")


@click.command("envido")
@click.argument("cards", nargs=-1, required=True)
@click.option("--flor", is_flag=True, help="Play con flor: three of a suit is a Flor.")
@click.option("--muestra", metavar="CARD", help="Uruguayan muestra card.")
@_lang_option
@_json_option
def envido_command(
    cards: tuple[str, ...], flor: bool, muestra: str | None, lang: str, as_json: bool
) -> None:
    """Envido (and Flor) points of three CARDS, e.g. ``truco envido 7o 6o 5c``."""
    _emit(lambda: envido_json(" ".join(cards), flor=flor, muestra=muestra, lang=lang),
          as_json, _envido_text, lang)


@click.command("manilha")
@click.argument("vira", nargs=-1)
@click.option("--deck", type=click.Choice(DECKS), default="sujo", show_default=True,
              help="Baralho sujo (40 cards) or limpo (24 cards, Q J K A 2 3).")
@click.option("--variant", type=click.Choice(MANILHA_VARIANTS), default="paulista",
              show_default=True, help="Paulista (manilhas from the vira) or Mineiro (fixed).")
@_lang_option
@_json_option
def manilha_command(
    vira: tuple[str, ...], deck: str, variant: str, lang: str, as_json: bool
) -> None:
    """The manilhas for a VIRA (a rank like 7 or K, or a card) and the whole order, e.g.
    ``truco manilha 7``; no vira with ``--variant mineiro``."""
    _emit(lambda: manilha_json(" ".join(vira) or None, deck=deck, variant=variant, lang=lang),
          as_json, _manilha_text, lang)


@click.command("compare")
@click.argument("first")
@click.argument("second")
@click.option("--variant", type=click.Choice(VARIANTS), default="truco-15", show_default=True)
@click.option("--vira", metavar="CARD", help="Paulista vira (a rank or a card).")
@click.option("--muestra", metavar="CARD", help="Uruguayan muestra card.")
@click.option("--deck", type=click.Choice(DECKS), default="sujo", show_default=True,
              help="Paulista deck.")
@_lang_option
@_json_option
def compare_command(
    first: str, second: str, variant: str, vira: str | None, muestra: str | None,
    deck: str, lang: str, as_json: bool,
) -> None:
    """Which card wins a trick: FIRST, SECOND or parda, e.g.
    ``truco compare "1 espada" "7 oro" --variant truco-15``."""
    _emit(lambda: compare_json(first, second, variant=variant, vira=vira, muestra=muestra,
                               lang=lang, deck=deck),
          as_json, _compare_text, lang)
