"""Languages: Flask-Babel with Portuguese (Brazil) by default, Spanish, English and Catalan.

The language comes from the ``lang`` cookie (set by the switch links), else from the
browser's Accept-Language, else pt_BR.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app, request
from flask_babel import Babel, get_locale, get_translations, gettext

#: Supported locales, the default first.
LANGUAGES = ("pt_BR", "es", "en", "ca")
#: How each language is named in the switch.
LANGUAGE_NAMES = {"pt_BR": "Português", "es": "Español", "en": "English", "ca": "Català"}
#: The card helpers' ``lang`` argument for each locale.
CARD_LANG = {"pt_BR": "pt", "es": "es", "en": "en", "ca": "ca"}
COOKIE = "lang"


def select_locale() -> str:
    """The locale for this request: cookie, then Accept-Language, then pt_BR."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(COOKIE)
    if chosen is not None and chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages) or languages[0]


def locale_code() -> str:
    """The current locale as text (``pt_BR``, ``es``, ``en`` or ``ca``)."""
    return str(get_locale() or LANGUAGES[0])


def card_lang() -> str:
    """The card helpers' language for the current locale (``pt``, ``es``, ``en``, ``ca``)."""
    return CARD_LANG.get(locale_code(), "pt")


def translate(message: str) -> str:
    """Translate an engine message template (marked ``N_`` in the core) with gettext.

    Placeholders stay as they are; the core fills them in after translation.
    """
    return gettext(message) if message else message


def _ngettext(singular: str, plural: str, n: int) -> str:
    return get_translations().ungettext(singular, plural, n)


translate.ngettext = _ngettext  # type: ignore[attr-defined]  # plural messages (errors.NP_)


def translator() -> Callable[[str], str]:
    """:func:`translate` bound to the current request's translations, looked up once.

    Flask-Babel's ``gettext`` finds the locale and its catalogue again on every call
    (about 6 µs); a match's log calls it once per line, so views that render a log take
    this callable once per request instead (about 0.2 µs a line). Use it inside one
    locale (not across a ``force_locale`` block).
    """
    translations = get_translations()
    ugettext = translations.ugettext

    def fast(message: str) -> str:
        return ugettext(message) if message else message

    fast.ngettext = translations.ungettext  # type: ignore[attr-defined]  # plural messages (errors.NP_)
    return fast


def default_names() -> tuple[str, str]:
    """The two sides' default names in the user's language ("Nós"/"Eles", ...)."""
    return (gettext("Us"), gettext("Them"))


def init_app(app: Flask) -> None:
    """Attach Flask-Babel and the template globals for the language switch."""
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(
        LANGUAGE_NAMES=LANGUAGE_NAMES,
        locale_code=locale_code,
        html_lang=lambda: locale_code().replace("_", "-"),
    )
