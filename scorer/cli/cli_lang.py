"""The command line's language (issue 13 item 7): ``--lang``, else the environment's locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``), else Portuguese; messages come from the
same gettext catalogs as the pages (``scorer/translations``, read with Babel).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from babel.support import Translations

from scorer.core.errors import N_, NP_

#: The CLI's languages and the catalog each one reads.
LOCALES = {"pt": "pt_BR", "es": "es", "en": "en", "ca": "ca"}
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
#: The environment variables that name a locale, strongest first (POSIX order).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
#: "Error" before a message printed to standard error.
ERROR_WORD = {"pt": "Erro", "es": "Error", "en": "Error", "ca": "Error"}


def lang_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """``pt``, ``es``, ``en`` or ``ca`` from the first locale variable naming one of them
    (``es_AR.UTF-8`` -> ``es``, ``ca_ES.UTF-8`` -> ``ca``); ``pt`` when none does (``C``, ``C.UTF-8``, unset)."""
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


#: click's own messages a user meets (usage errors, the help's headings), in our catalogs so
#: that they follow the language too: click reads them through the standard ``gettext``.
CLICK_MESSAGES = (
    N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
    N_("Usage:"),
    N_("Options"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("Missing argument"),
    N_("Missing option"),
    N_("Missing parameter"),
    N_("Missing command."),
    N_("Missing parameter: {param_name}"),
    N_("Invalid value for {param_hint}: {message}"),
    N_("Invalid value: {message}"),
    N_("No such option {name!r}."),
    N_("No such command {name!r}."),
    N_("Did you mean {possibility}?"),
    N_("(Did you mean one of: {possibilities}?)"),
    N_("Option {name!r} does not take a value."),
    N_("Could not open file {filename!r}: {message}"),
    N_("Aborted!"),
    NP_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    NP_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
    NP_("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
)


def lang_from_args(args: Sequence[str]) -> str | None:
    """The ``--lang`` given on the command line (``--lang es`` or ``--lang=es``), if any."""
    for index, arg in enumerate(args):
        if arg == "--lang" and index + 1 < len(args) and args[index + 1] in LOCALES:
            return args[index + 1]
        if arg.startswith("--lang=") and arg.split("=", 1)[1] in LOCALES:
            return arg.split("=", 1)[1]
    return None


@contextmanager
def click_language(lang: str) -> Iterator[None]:
    """While the command runs, click's own messages (read with the standard ``gettext``,
    default domain) come from our catalogs in ``lang``; the environment is restored after."""
    gettext.bindtextdomain("messages", str(TRANSLATIONS))
    saved = os.environ.get("LANGUAGE")
    os.environ["LANGUAGE"] = LOCALES.get(lang, "pt_BR")
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = saved
