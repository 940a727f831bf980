"""``truco i18n``: the translations in one command, for whoever changes a word.

It runs Babel's own ``pybabel`` (:class:`babel.messages.frontend.CommandLineInterface`)
three times, as the catalogs were always made:

1. ``extract``: every message of ``scorer/**.py`` and ``templates/**.html`` (the mapping is
   ``scorer/translations/babel.cfg``; keywords ``_``, ``gettext``, ``ngettext``... plus the
   project's ``N_``, ``NP_`` and ``lazy_gettext``) into ``messages.pot``, without source
   locations, lines unwrapped;
2. ``update``: each locale's ``messages.po`` gets the new messages (empty, to translate)
   and loses the ones no longer in the code; no fuzzy guesses (``-N``);
3. ``compile``: each ``messages.mo``, which the app reads.

When the messages did not change, the template is left as it was (only its creation date
would have moved), so running it twice changes nothing. Run it from a checkout: it reads
the source beside the ``scorer`` package.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import click

import scorer

#: The source tree the messages are extracted from: the folder that holds ``scorer/`` and
#: ``templates/``.
SOURCE_ROOT = Path(scorer.__file__).resolve().parent.parent
#: The catalogs: ``messages.pot``, ``babel.cfg`` and ``<locale>/LC_MESSAGES/messages.po``.
TRANSLATIONS = Path(scorer.__file__).resolve().parent / "translations"
#: The gettext functions the code calls, besides Babel's defaults (``_``, ``gettext``, ``ngettext``...).
KEYWORDS = ("N_", "NP_:1,2", "lazy_gettext")


class _ToClick(logging.Handler):
    """pybabel's log lines on click's stderr of the moment (a handler bound to one stream
    would outlive it: click's test runner swaps the streams per call)."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(self.format(record), err=True)


def pybabel(*args: str | Path, quiet: bool = False) -> None:
    """Run one ``pybabel`` command with ``args`` (``quiet``: its errors only).

    :raise click.ClickException: pybabel failed (its message is already on stderr).
    """
    from babel.messages.frontend import CommandLineInterface

    log = logging.getLogger("babel")
    if not log.handlers:
        log.addHandler(_ToClick())
    try:
        status = CommandLineInterface().run(["pybabel", *(["-q"] if quiet else []), *map(str, args)])
    except SystemExit as stop:  # optparse's answer to bad arguments
        status = stop.code
    if status:
        raise click.ClickException(f"pybabel {args[0]} failed")


def _messages(pot: Path) -> list[tuple]:
    """What a template says, its header (and so its creation date) left out."""
    from babel.messages.pofile import read_po

    with open(pot, "rb") as f:
        return [(m.id, m.context, sorted(m.flags), m.auto_comments) for m in read_po(f) if m.id]


def extract(translations: Path, source: Path) -> bool:
    """``pybabel extract`` into ``translations/messages.pot``; True if its messages changed
    (else the old file, and its date, stay)."""
    pot = translations / "messages.pot"
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch) / "messages.pot"
        keywords = [arg for keyword in KEYWORDS for arg in ("-k", keyword)]
        pybabel("extract", "-F", translations / "babel.cfg", *keywords, "--no-location", "--no-wrap",
                "-o", fresh, source, quiet=True)
        changed = not pot.exists() or _messages(fresh) != _messages(pot)
        if changed:
            pot.write_bytes(fresh.read_bytes())
    return changed


@click.command("i18n")
@click.option("--translations", type=click.Path(file_okay=False, path_type=Path), default=TRANSLATIONS,
              show_default=True, help="Folder of messages.pot, babel.cfg and <locale>/LC_MESSAGES/messages.po.")
@click.option("--source", type=click.Path(file_okay=False, path_type=Path), default=SOURCE_ROOT,
              show_default=True, help="Source tree to extract from (holds scorer/ and templates/).")
def i18n_command(translations: Path, source: Path) -> None:
    """Extract the messages, update the catalogs and compile them (pybabel extract, update, compile)."""
    if not all((source / part).is_dir() for part in ("scorer", "templates")) or not (translations / "babel.cfg").is_file():
        # An install that is not editable (``pip install .``) has no templates/ beside scorer/:
        # extracting there would drop the templates' messages from the installed catalogs.
        raise click.ClickException(f"run it from a checkout installed with pip install -e: no scorer/ and "
                                   f"templates/ in {source}, or no babel.cfg in {translations}")
    extract(translations, source)
    pybabel("update", "-N", "--no-wrap", "--ignore-obsolete", "-i", translations / "messages.pot",
            "-d", translations)
    pybabel("compile", "-d", translations)
