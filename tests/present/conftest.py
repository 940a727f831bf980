"""What the presentation tests share: the reader's catalog as a page without the server has it
(the standard library's :mod:`gettext` on the committed ``.mo`` files, no Flask)."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

import scorer

TRANSLATIONS = Path(scorer.__file__).resolve().parent / "translations"


def load_catalog(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (``pt_BR``, ``es`` or ``en``) read with :func:`gettext.translation`."""
    return gettext.translation("messages", localedir=TRANSLATIONS, languages=[lang])


@pytest.fixture
def catalog():
    """``catalog(lang)``: :func:`load_catalog`."""
    return load_catalog
