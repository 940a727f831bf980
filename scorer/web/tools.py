"""The table's calculators: Envido points (``/envido``), manilhas (``/manilha``), and
"which card wins?" on both. Plain GET forms; :mod:`scorer.core.calculators` does all the work.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request

from scorer.core import calculators
from scorer.core.errors import TrucoError
from scorer.core.variants import VARIANTS, get_variant
from scorer.web.i18n import card_lang, translate
from scorer.web.tool_args import check_flags, compare_result, envido_result, flag, manilha_result, typed_cards

bp = Blueprint("tools", __name__)

#: The 40-card picker: ranks in the order players say them, suits with their symbols.
RANKS = {"pt": ("A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"),
         "es": ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12"),
         "en": ("A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"),
         "ca": ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")}
PICKER_RANKS = ("A", "2", "3", "4", "5", "6", "7", "Q", "J", "K")
SUITS = ("♠", "♣", "♥", "♦")


def variant_choices(ids=None) -> list[tuple[str, str]]:
    """``(id, title)`` of the registered variants (or of ``ids``), the title shown to people."""
    return [(v.id, v.title) for v in VARIANTS.values() if ids is None or v.id in ids]


def picker() -> list[list[tuple[str, str]]]:
    """The 40 cards as ``(value posted, text shown)``, one row per suit."""
    shown = RANKS[card_lang()]
    return [[(f"{r}{s}", f"{t}{s}") for r, t in zip(PICKER_RANKS, shown)] for s in SUITS]


def _run(fn, args) -> tuple[Any, str | None]:
    try:
        return fn(args), None
    except TrucoError as e:
        return None, e.render(translate)


@bp.get("/envido")
def envido():
    """The Envido calculator: type or tick three cards; optional Flor and muestra.

    Bad cards, or a yes/no parameter that is neither, answer 422 with the message (the
    form stays filled in).
    """
    result = None
    _ok, error = _run(check_flags, request.args)
    if typed_cards(request.args) and not error:
        result, error = _run(envido_result, request.args)
    compared, cmp_error = _run(compare_result, request.args)
    status = 422 if error or cmp_error else 200
    flor_ticked, _flag_error = _run(lambda args: flag(args, "flor"), request.args)
    return render_template(
        "tools/envido.html", result=result, error=error, compared=compared, cmp_error=cmp_error,
        picker=picker(), picked=set(request.args.getlist("card")), variants=variant_choices(),
        flor_ticked=bool(flor_ticked),
    ), status


@bp.get("/manilha")
def manilha():
    """The manilha table for a vira (sujo/limpo, Paulista/Mineiro), plus "which card wins?"
    in any variant (a muestra field for Uruguayo; the page's vira only for a variant that uses one)."""
    result = error = None
    manilha_ids = calculators.manilha_variants()
    chosen = request.args.get("variant") or manilha_ids[0]
    fixed = chosen in VARIANTS and bool(get_variant(chosen).cards.fixed_manilhas)
    if request.args.get("vira", "").strip() or fixed:
        result, error = _run(manilha_result, request.args)
    compared, cmp_error = _run(lambda args: compare_result(args, page_vira=True), request.args)
    status = 422 if error or cmp_error else 200
    return render_template(
        "tools/manilha.html", result=result, error=error, compared=compared, cmp_error=cmp_error,
        variants=variant_choices(), manilha_variants=variant_choices(manilha_ids), chosen=chosen,
    ), status

