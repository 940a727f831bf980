"""Typed errors of the pure core, all under one base class.

Every error carries a stable ``code``, an English message ``template`` with named
``params`` (so the web layer can translate it with gettext and fill it in), and the
list of what was ``allowed`` instead. Raising one never changes any state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it (the gettext ``N_`` idiom).

    The web layer extracts these strings with Babel and translates them at render time.
    """
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for translation (``ngettext``'s two msgids).

    The error's ``expected`` param (else its ``count``) chooses the form when it is rendered.
    """
    return (singular, plural)


class PageText(str):
    """An error param written in the page's language (an English msgid marked ``N_``):
    :meth:`TrucoError.render` translates it with the message."""


class TrucoError(ValueError):
    """Base class of every error the core raises on bad input or an illegal action.

    Attributes:
        code: stable machine-readable name, e.g. ``"call_pending"`` or ``"bad_card"``.
        template: English message with ``{name}`` placeholders, marked with :func:`N_`, or
            a singular and plural pair marked with :func:`NP_` (the ``count`` param chooses).
        params: values for the placeholders (plain str/int).
        allowed: what would have been accepted instead (action dicts, card forms, ...).
    """

    def __init__(
        self,
        code: str,
        template: str | tuple[str, str],
        *,
        allowed: Sequence[Any] = (),
        **params: Any,
    ) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.allowed = list(allowed)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The message in English, placeholders filled in."""
        return self.render()

    def render(
        self,
        translate: Callable[[str], str] | None = None,
        names: Sequence[str] | None = None,
    ) -> str:
        """The message translated by ``translate`` (e.g. Flask-Babel's gettext; its
        ``ngettext`` attribute, when it has one, translates a plural message), then filled in.

        Params named ``side`` or ``*_side`` hold a side (0 or 1) and are written as
        ``names[side]`` (``"side 0"``/``"side 1"`` without names).
        """
        if isinstance(self.template, tuple):  # NP_: singular and plural, chosen by params["count"]
            singular, plural = self.template
            count = int(self.params.get("expected", self.params.get("count", 1)))
            plural_of = getattr(translate, "ngettext", None)
            if plural_of is not None:
                template = plural_of(singular, plural, count)
            else:
                template = singular if count == 1 else plural
        else:
            template = translate(self.template) if translate else self.template
        sides = list(names) if names else ["side 0", "side 1"]
        params = {
            key: sides[value] if _is_side_param(key, value)
            else _page(value, translate)
            if isinstance(value, PageText)
            else ", ".join(_page(item, translate) for item in value)
            if isinstance(value, list)
            else value
            for key, value in self.params.items()
        }
        return str(template.format(**params))

    def to_json(
        self,
        translate: Callable[[str], str] | None = None,
        names: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        """``{"code", "message", "allowed"}``: the JSON form used by the CLI and the API."""
        return {"code": self.code, "message": self.render(translate, names), "allowed": self.allowed}


def _page(value: Any, translate: Callable[[str], str] | None) -> str:
    """A param as this page writes it: a :class:`PageText` translated, anything else as text."""
    return translate(value) if isinstance(value, PageText) and translate else str(value)


def _is_side_param(key: str, value: Any) -> bool:
    return (key == "side" or key.endswith("_side")) and type(value) is int and value in (0, 1)


class RuleError(TrucoError):
    """An action the rules do not allow now, or a malformed action or match setting."""


class CardError(TrucoError):
    """Typed-in cards that cannot be read: bad token, 8 or 9, duplicate, wrong count."""
