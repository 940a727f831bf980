"""Side and player names as typed: tidied (invisible characters, spacing), cut to
``NAME_MAX`` characters a reader sees, blanks given the defaults, and whether a name was
shortened (the notice says so)."""

from __future__ import annotations

import unicodedata
from typing import Any

import regex
from flask import abort
from flask_babel import gettext

from scorer.web.i18n import default_names

NAME_MAX = 24
"""The longest side or player name, in characters a reader sees (grapheme clusters)."""


def clean_names(raw: object) -> list[str]:
    """Two side names (``raw`` as posted: any value, None for the defaults), trimmed to
    ``NAME_MAX`` characters; blanks get the defaults.

    :raise 422: not a list of two strings.
    """
    defaults = default_names()
    if raw is None:
        return list(defaults)
    if not isinstance(raw, (list, tuple)) or len(raw) != 2 or not all(isinstance(n, str) for n in raw):
        abort(422, gettext("Names must be two texts."))
    return [(cut_name(n) or d) for n, d in zip(raw, defaults)]


#: A name's visible characters: one grapheme cluster each (a flag, an emoji family, a letter
#: with its accents), as Unicode's text segmentation says (the ``regex`` module's ``\\X``).
GRAPHEME = regex.compile(r"\X")
#: Invisible characters trimmed from both ends of a name (with the white space).
INVISIBLE = "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad"


def _tidy(text: str) -> str:
    """``text`` without control characters (NULs included; tabs and line breaks become
    spaces) and without white space or invisible characters at either end."""
    text = "".join(" " if ch in "\t\n\r" else ch for ch in text if ch in "\t\n\r" or unicodedata.category(ch) != "Cc")
    return text.strip().strip(INVISIBLE).strip()


def cut_name(text: str) -> str:
    """``text`` tidied (:func:`_tidy`) and cut to at most ``NAME_MAX`` visible characters
    (grapheme clusters), so a flag, an emoji sequence or an accented letter is kept whole
    or dropped whole, never cut in half (issue 13 item 8)."""
    text = _tidy(text)
    clusters = GRAPHEME.findall(text)
    if len(clusters) <= NAME_MAX:
        return text
    return "".join(clusters[:NAME_MAX]).rstrip().rstrip(INVISIBLE).rstrip()


def name_length(text: str) -> int:
    """How many characters a reader sees in ``text`` (grapheme clusters)."""
    return len(GRAPHEME.findall(text))


def shortened(raw: Any) -> bool:
    """Whether a JSON ``names`` or ``players`` value holds a name that :func:`cut_name` shortens."""
    if isinstance(raw, str):
        return was_shortened(raw, cut_name(raw))
    if isinstance(raw, (list, tuple)):
        return any(shortened(item) for item in raw)
    return False


def was_shortened(raw: Any, cut: str) -> bool:
    """Whether ``cut_name`` dropped visible characters of ``raw`` (not only spaces or
    invisible ones), so the user is told."""
    return isinstance(raw, str) and name_length(_tidy(raw)) > name_length(cut)
