"""``truco envido``, ``truco manilha`` and ``truco compare``: the calculators of
:mod:`scorer.core.calculators` on the command line.

``--json`` prints exactly the calculator's dict; otherwise a few lines of text. Bad input
raises :class:`CardError` from the calculators; the commands print it and exit with status 2
(issue 3, "CLI").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from scorer.cli import cli_lang
from scorer.core.calculators import compare_json, envido_json, manilha_json, manilha_variants
from scorer.core.cards import LANGS
from scorer.core.errors import CardError
from scorer.core.variants import Variant, default_variant, known_decks, variants_where

__all__ = ["compare_command", "compare_json", "envido_command", "envido_json", "manilha_command", "manilha_json"]


# --- text output ------------------------------------------------------------------------------

_WORDS = {
    "pt": {"beats": "{a} ganha de {b}", "parda": "parda: {a} empata com {b}", "order": "Ordem",
           "sings_flor": "Com Flor não se canta Envido: vale a Flor."},
    "es": {"beats": "{a} le gana a {b}", "parda": "parda: {a} empata con {b}", "order": "Orden",
           "sings_flor": "Con flor no se canta envido: vale la flor."},
    "en": {"beats": "{a} beats {b}", "parda": "parda: {a} ties with {b}", "order": "Order",
           "sings_flor": "A hand with Flor sings the Flor, not Envido."},
    "ca": {"beats": "{a} guanya a {b}", "parda": "empat: {a} empata amb {b}", "order": "Ordre",
           "sings_flor": "Amb flor no es canta l'envit: val la flor."},
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


class VariantChoice(click.Choice):
    """A variant id, read from the registry when the command runs (so a variant registered
    after import is a choice too); ``test`` keeps only some (those with manilhas, say)."""

    def __init__(self, test: Callable[[Variant], bool] = lambda _v: True) -> None:
        self._test = test
        super().__init__([])

    @property  # type: ignore[override]  # click.Choice's attribute, read from the registry here at each use
    def choices(self) -> list[str]:
        """The registered ids that pass ``test``, in registry order."""
        return variants_where(self._test)

    @choices.setter
    def choices(self, _value: Any) -> None:
        pass


_lang_option = click.option(
    "--lang", type=click.Choice(LANGS), default=None, callback=lambda _ctx, _param, value: cli_lang.resolve(value),
    help="Language of the cards and of every message (default: the locale's, else pt).",
)
_json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")


@click.command("envido")
@click.argument("cards", nargs=-1, required=True)
@click.option("--flor", is_flag=True, help="Play con flor: three of a suit is a Flor.")
@click.option("--muestra", metavar="CARD", help="Uruguayan muestra card.")
@click.option("--variant", type=VariantChoice(), default=None,
              help="Count with this variant's piezas and Flor (its --muestra or --vira).")
@click.option("--vira", metavar="CARD", help="The vira, where a variant's piezas follow it (venezolano).")
@_lang_option
@_json_option
def envido_command(
    cards: tuple[str, ...], flor: bool, muestra: str | None, variant: str | None, vira: str | None,
    lang: str, as_json: bool,
) -> None:
    """Envido (and Flor) points of three CARDS, e.g. ``truco envido 7o 6o 5c``."""
    _emit(lambda: envido_json(" ".join(cards), flor=flor, muestra=muestra, lang=lang, variant=variant, vira=vira),
          as_json, _envido_text, lang)


@click.command("manilha")
@click.argument("vira", nargs=-1)
@click.option("--deck", type=click.Choice(list(known_decks())), default=None,
              help="Baralho sujo (40 cards, the default) or limpo (24 cards, Q J K A 2 3).")
@click.option("--variant", type=VariantChoice(lambda v: v.cards.has_manilhas), default=manilha_variants()[0],
              show_default=True, help="Paulista (manilhas from the vira) or Mineiro (fixed).")
@_lang_option
@_json_option
def manilha_command(
    vira: tuple[str, ...], deck: str | None, variant: str, lang: str, as_json: bool
) -> None:
    """The manilhas for a VIRA (a rank like 7 or K, or a card) and the whole order, e.g.
    ``truco manilha 7``; no vira with ``--variant mineiro``."""
    _emit(lambda: manilha_json(" ".join(vira) or None, deck=deck, variant=variant, lang=lang),
          as_json, _manilha_text, lang)


@click.command("compare")
@click.argument("first")
@click.argument("second")
@click.option("--variant", type=VariantChoice(), default=default_variant().id, show_default=True)
@click.option("--vira", metavar="CARD", help="The vira: Paulista's (a rank or a card), Venezolano's (a card).")
@click.option("--muestra", metavar="CARD", help="Uruguayan muestra card.")
@click.option("--deck", type=click.Choice(list(known_decks())), default=None,
              help="The variant's deck, where it has more than one (Paulista's limpo); default its first.")
@_lang_option
@_json_option
def compare_command(
    first: str, second: str, variant: str, vira: str | None, muestra: str | None,
    deck: str | None, lang: str, as_json: bool,
) -> None:
    """Which card wins a trick: FIRST, SECOND or parda, e.g.
    ``truco compare "1 espada" "7 oro" --variant truco-15``."""
    _emit(lambda: compare_json(first, second, variant=variant, vira=vira, muestra=muestra,
                               lang=lang, deck=deck),
          as_json, _compare_text, lang)
