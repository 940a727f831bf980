"""The table's calculators: Envido points (``/envido``), manilhas (``/manilha``), and
"which card wins?" on both. Plain GET forms; :mod:`scorer.calculators` does all the work.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.datastructures import MultiDict

from scorer import calculators
from scorer.errors import N_, TrucoError
from scorer.variants import VARIANTS, get_variant
from scorer.web.i18n import card_lang, translate

bp = Blueprint("tools", __name__)

#: The 40-card picker: ranks in the order players say them, suits with their symbols.
RANKS = {"pt": ("A", "2", "3", "4", "5", "6", "7", "Q", "J", "K"),
         "es": ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12"),
         "en": ("A", "2", "3", "4", "5", "6", "7", "Q", "J", "K")}
PICKER_RANKS = ("A", "2", "3", "4", "5", "6", "7", "Q", "J", "K")
SUITS = ("♠", "♣", "♥", "♦")
TRUE = ("1", "true", "on", "yes")
FALSE = ("", "0", "false", "off", "no")
#: The calculators' yes/no query parameters.
FLAGS = ("flor",)


def variant_choices(ids=None) -> list[tuple[str, str]]:
    """``(id, title)`` of the registered variants (or of ``ids``), the title shown to people."""
    return [(v.id, v.title) for v in VARIANTS.values() if ids is None or v.id in ids]


def picker() -> list[list[tuple[str, str]]]:
    """The 40 cards as ``(value posted, text shown)``, one row per suit."""
    shown = RANKS[card_lang()]
    return [[(f"{r}{s}", f"{t}{s}") for r, t in zip(PICKER_RANKS, shown)] for s in SUITS]


def typed_cards(args: MultiDict) -> str:
    """The typed ``cards`` plus the cards ticked on the picker, as one string."""
    return " ".join([args.get("cards", "").strip(), *args.getlist("card")]).strip()


def flag(args: MultiDict, name: str) -> bool:
    """The yes/no query parameter ``name``: True for 1, true, on or yes, False for 0,
    false, off, no, empty or missing (any case).

    :raise TrucoError: ``bad_flag``, any other value (its params name the parameter
        and the accepted values).
    """
    value = args.get(name, "").strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise TrucoError(
        "bad_flag",
        N_("{param} must be yes or no: {accepted} for yes; {refused} or empty for no."),
        allowed=list(TRUE + FALSE[1:]),
        param=name,
        accepted=", ".join(TRUE),
        refused=", ".join(FALSE[1:]),
    )


def check_flags(args: MultiDict) -> None:
    """Check every yes/no parameter of the calculators (see :func:`flag`).

    :raise TrucoError: ``bad_flag``.
    """
    for name in FLAGS:
        flag(args, name)


def envido_result(args: MultiDict) -> dict[str, Any]:
    """``envido_json`` for the request's ``cards``/``card``, ``flor`` and ``muestra``.

    :raise CardError: unreadable cards. :raise TrucoError: ``flor`` is not a yes/no value.
    """
    return calculators.envido_json(
        typed_cards(args),
        flor=flag(args, "flor"),
        muestra=args.get("muestra", "").strip() or None,
        lang=card_lang(),
    )


def manilha_result(args: MultiDict) -> dict[str, Any]:
    """``manilha_json`` for the request's ``vira``, ``deck`` and ``variant``.

    :raise CardError: unreadable vira or bad deck/variant.
    """
    return calculators.manilha_json(
        args.get("vira", "").strip(),
        deck=args.get("deck", "sujo"),
        variant=args.get("variant") or None,
        lang=card_lang(),
    )


def compare_result(args: MultiDict) -> dict[str, Any] | None:
    """``compare_json`` for ``first`` and ``second`` (None until both are typed).

    :raise CardError: unreadable cards.
    """
    first, second = args.get("first", "").strip(), args.get("second", "").strip()
    if not first or not second:
        return None
    return calculators.compare_json(
        first,
        second,
        variant=args.get("cvariant") or args.get("variant") or None,
        vira=args.get("vira", "").strip() or None,
        muestra=args.get("muestra", "").strip() or None,
        lang=card_lang(),
    )


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
    """The manilha table for a vira (sujo/limpo, Paulista/Mineiro), plus "which card wins?"."""
    result = error = None
    manilha_ids = calculators.manilha_variants()
    chosen = request.args.get("variant") or manilha_ids[0]
    fixed = chosen in VARIANTS and bool(get_variant(chosen).cards.fixed_manilhas)
    if request.args.get("vira", "").strip() or fixed:
        result, error = _run(manilha_result, request.args)
    compared, cmp_error = _run(compare_result, request.args)
    status = 422 if error or cmp_error else 200
    return render_template(
        "tools/manilha.html", result=result, error=error, compared=compared, cmp_error=cmp_error,
        variants=variant_choices(), manilha_variants=variant_choices(manilha_ids), chosen=chosen,
    ), status

