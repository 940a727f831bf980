"""Which board view code the phone's engine renders with (issue 24): the adapter between
:mod:`scorer.present.offline_table` and the board's view model.

INTERIM: the board's view model (``scorer/web/board.py`` and ``labels.py``) still imports
Flask-Babel and ``scorer.web.i18n`` for its words; the phone has neither. Until it takes its
translation as an argument, :func:`board_module` gives it small stand-ins for those two
imports, bound to the phone's catalog. Only the engine bundle's Python (in the browser)
calls it; never the server, whose ``flask_babel`` it would shadow.
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path
from typing import Any

#: The module of the board's view model (``view``, ``seats_view``, ``spoken``).
BOARD_VIEW = "scorer.web.board"


class LazyWord:
    """A word translated when shown (Flask-Babel's ``lazy_gettext``)."""

    def __init__(self, catalog: Any, msgid: str) -> None:
        self.catalog, self.msgid = catalog, msgid

    def __str__(self) -> str:
        return self.catalog.gettext(self.msgid)

    def __html__(self) -> str:
        from markupsafe import escape

        return str(escape(str(self)))


def board_module(root: str, lang: str) -> Any:
    """The board's view model module, its words in ``lang`` (the catalog under ``root``).

    :raise RuntimeError: called where the real Flask-Babel is loaded (the server).
    """
    from scorer.present.offline_table import translations

    if "flask" in sys.modules:
        raise RuntimeError("board_module() is the phone's: the server renders with Flask-Babel")
    catalog = translations(Path(root), lang)

    def gettext(msgid: str, **values: Any) -> str:
        text = catalog.gettext(msgid)
        return text % values if values else text

    babel = types.ModuleType("flask_babel")
    babel.gettext = gettext  # type: ignore[attr-defined]
    babel.lazy_gettext = lambda msgid: LazyWord(catalog, msgid)  # type: ignore[attr-defined]
    i18n = types.ModuleType("scorer.web.i18n")
    i18n.locale_code = lambda: lang  # type: ignore[attr-defined]
    sys.modules["flask_babel"], sys.modules["scorer.web.i18n"] = babel, i18n
    return importlib.import_module(BOARD_VIEW)
