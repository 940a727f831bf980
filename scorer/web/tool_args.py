"""Reading the calculators' query parameters (``/envido``, ``/manilha`` and their JSON
twins under ``/api/``) into calls of :mod:`scorer.core.calculators`.
"""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from scorer.core import calculators
from scorer.core.errors import N_, TrucoError
from scorer.core.variants import VARIANTS, get_variant
from scorer.web.i18n import card_lang

TRUE = ("1", "true", "on", "yes")
FALSE = ("", "0", "false", "off", "no")
#: The calculators' yes/no query parameters.
FLAGS = ("flor",)


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
    """``envido_json`` for the request's ``cards``/``card``, ``flor`` and ``muestra``, and a
    ``variant`` whose piezas count with its ``vira`` or ``muestra``.

    :raise CardError: unreadable cards. :raise TrucoError: ``flor`` is not a yes/no value.
    """
    return calculators.envido_json(
        typed_cards(args),
        flor=flag(args, "flor"),
        muestra=args.get("muestra", "").strip() or None,
        lang=card_lang(),
        variant=args.get("variant") or None,
        vira=args.get("vira", "").strip() or None,
    )


def manilha_result(args: MultiDict) -> dict[str, Any]:
    """``manilha_json`` for the request's ``vira``, ``deck`` and ``variant``.

    :raise CardError: unreadable vira or bad deck/variant.
    """
    return calculators.manilha_json(
        args.get("vira", "").strip(),
        deck=args.get("deck") or None,
        variant=args.get("variant") or None,
        lang=card_lang(),
    )


def compare_result(args: MultiDict, *, page_vira: bool = False) -> dict[str, Any] | None:
    """``compare_json`` for ``first`` and ``second`` (None until both are typed).

    ``page_vira``: the ``vira`` is the manilha form's, kept for its table: a compared
    variant whose manilhas do not follow a vira (Mineiro, Uruguayo's muestra) leaves it aside
    instead of refusing it. The ``muestra`` is always the one typed for the comparison.

    :raise CardError: unreadable cards.
    """
    first, second = args.get("first", "").strip(), args.get("second", "").strip()
    if not first or not second:
        return None
    variant = args.get("cvariant") or args.get("variant") or None
    vira = args.get("vira", "").strip() or None
    if page_vira and variant in VARIANTS and not get_variant(variant).cards.takes_vira:
        vira = None
    return calculators.compare_json(
        first,
        second,
        variant=variant,
        vira=vira,
        muestra=args.get("muestra", "").strip() or None,
        lang=card_lang(),
    )
