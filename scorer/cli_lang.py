"""The command line's language (issue 13 item 7): ``--lang``, else the environment's locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``), else Portuguese; messages come from the
same gettext catalogs as the pages (``scorer/translations``, read with Babel).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path

from babel.support import Translations

#: The CLI's languages and the catalog each one reads.
LOCALES = {"pt": "pt_BR", "es": "es", "en": "en"}
TRANSLATIONS = Path(__file__).with_name("translations")
#: The environment variables that name a locale, strongest first (POSIX order).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
#: "Error" before a message printed to standard error.
ERROR_WORD = {"pt": "Erro", "es": "Error", "en": "Error"}


def lang_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """``pt``, ``es`` or ``en`` from the first locale variable naming one of them
    (``es_AR.UTF-8`` -> ``es``); ``pt`` when none does (``C``, ``C.UTF-8``, unset)."""
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        for part in env.get(name, "").split(":"):
            code = part.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LOCALES:
                return code
    return "pt"


def resolve(lang: str | None) -> str:
    """The language to use: ``lang`` when given, else :func:`lang_from_environment`."""
    return lang if lang in LOCALES else lang_from_environment()


@lru_cache(maxsize=None)
def translator(lang: str) -> Callable[[str], str]:
    """A gettext callable for ``lang`` (English text passes through for ``en``)."""
    catalog = Translations.load(str(TRANSLATIONS), [LOCALES.get(lang, "pt_BR")], domain="messages")

    def translate(message: str) -> str:
        return catalog.gettext(message)

    translate.ngettext = catalog.ngettext  # type: ignore[attr-defined]  # plural messages (errors.NP_)
    return translate
