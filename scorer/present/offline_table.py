"""A match played on the phone with no scorekeeper (issue 24): the same rules core, the same
board view code and the same Jinja templates as the server's, run by Pyodide in the browser
(``static/js/offline.js`` loads the engine bundle built by :mod:`scorer.web.engine_bundle`).

:class:`OfflineTable` holds one match as the phone knows it (its settings, and its actions:
the scorekeeper's plus the taps made on the phone), applies taps with
:class:`scorer.core.match.Match` and renders the ``#scoreboard`` fragment. It imports
neither Flask nor sqlite3: words come from the compiled catalogs through the standard
library's :mod:`gettext`, URLs from the app's own URL rules carried in the bundle
(``truco_routes.json``); the board is :func:`scorer.present.board_view.board_view`'s, the
server's own view model, rendered by the server's own ``partials/_scoreboard.html``.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from scorer.core.errors import N_, RuleError, TrucoError
from scorer.core.match import Match
from scorer.core.schema import Action
from scorer.core.seats import players_per_side
from scorer.present.log_words import SaidState, say_state

#: Log entries shown on the board (newest first), as the server's scoreboard (``LOG_LIMIT``).
LOG_LIMIT = 40
#: The languages the bundle has catalogs for; the first is the default.
LANGUAGES = ("pt_BR", "es", "en", "ca")


def translations(root: Path, lang: str) -> stdlib_gettext.NullTranslations:
    """The compiled catalog of ``lang`` under ``root/translations`` (Portuguese for an unknown
    language; no translation, English, if the file is missing)."""
    code = lang if lang in LANGUAGES else LANGUAGES[0]
    path = root / "translations" / code / "LC_MESSAGES" / "messages.mo"
    if not path.is_file():
        return stdlib_gettext.NullTranslations()
    with path.open("rb") as f:
        return stdlib_gettext.GNUTranslations(f)


def url_builder(rules: Mapping[str, str]) -> Callable[..., str]:
    """``url_for(endpoint, **values)`` from the app's URL rules (``{"matches.act":
    "/m/<match_id>/<key>/actions"}``): the rule's variables filled in, the other values
    (None left out) added as a query string in the order given, as Flask does.

    :raise KeyError: an endpoint the bundle does not carry.
    """

    def url_for(endpoint: str, **values: Any) -> str:
        rule = rules[endpoint]
        used: set[str] = set()

        def fill(m: re.Match[str]) -> str:
            name = m.group(1).split(":")[-1]
            used.add(name)
            return quote(str(values[name]), safe="")

        path = re.sub(r"<([^>]+)>", fill, rule)
        query = [(k, v) for k, v in values.items() if k not in used and v is not None]
        return path + ("?" + urlencode(query) if query else "")

    return url_for


class OfflineTable:
    """One match played on the phone.

    ``export``: the match as the scorekeeper exports it (``variant``, ``options``, ``mano``,
    ``names``, ``players``, ``best_of``, ``actions``); ``match_id`` and ``key``: its address
    (the links on the board). ``render``: the board renderer (:class:`BoardRenderer`).

    :raise RuleError: bad settings, or an action the rules refuse.
    """

    def __init__(self, export: Mapping[str, Any], match_id: str, key: str, render: BoardRenderer) -> None:
        self.export = dict(export)
        self.match_id, self.key, self.renderer = match_id, key, render
        self.match = Match.replay(export["variant"], export.get("options"), int(export.get("mano") or 0),
                                  export.get("actions") or [], players_per_side(export.get("players")))

    @property
    def version(self) -> int:
        """The match's version (actions applied, undo included)."""
        return self.match.version

    @property
    def actions(self) -> list[Action]:
        """Every action, the scorekeeper's first."""
        return list(self.match.actions)

    def apply(self, action: Mapping[str, Any]) -> str | None:
        """Apply one tap; ``None``, or the refusal in the page's language (nothing changed)."""
        try:
            self.match.apply(dict(action))
        except TrucoError as e:
            return e.render(self.renderer.translate, self.export.get("names"))
        return None

    def state(self) -> SaidState:
        """The state the board shows (the log said in words, the newest :data:`LOG_LIMIT`)."""
        state = self.match.state(names=tuple(self.export.get("names") or ("Nós", "Eles")), log_limit=LOG_LIMIT)
        state["id"] = self.match_id
        state["version"] = self.match.version
        return say_state(state, self.renderer.translate)

    def board(self, message: str | None = None) -> str:
        """The ``#scoreboard`` fragment, as the scorekeeper would answer it."""
        last = self.match.actions[-1] if self.match.actions else None
        return self.renderer.board(self, self.state(), last, message)


class BoardRenderer:
    """The board's view model (:func:`scorer.present.board_view.board_view`) and template,
    with the phone's words and links.

    ``root``: where the bundle was unpacked (``templates/``, ``translations/``,
    ``truco_routes.json``); ``lang``: the page's language."""

    def __init__(self, root: Path, lang: str) -> None:
        from jinja2 import Environment, FileSystemLoader

        self.catalog = translations(root, lang)
        self.gloss = lang == "en"

        def said(msgid: str) -> str:
            return self.catalog.gettext(msgid) if msgid else msgid

        said.ngettext = self.catalog.ngettext  # type: ignore[attr-defined]  # plural errors (NP_)
        self.translate = said
        # auto_reload off: the bundle never changes while the engine runs, so a template is
        # compiled once and never looked up on disk again (a restored memory snapshot has it).
        self.env = Environment(loader=FileSystemLoader(str(root / "templates")), autoescape=True,
                               extensions=["jinja2.ext.i18n"], auto_reload=False)
        self.env.install_gettext_translations(self.catalog, newstyle=True)  # type: ignore[attr-defined]  # set on the Environment by jinja2.ext.i18n, unknown to its type
        self.url_for = url_builder(json.loads((root / "truco_routes.json").read_text(encoding="utf-8")))

    def words(self, msgid: str, **values: Any) -> str:
        """``msgid`` in the page's language, ``%(name)s`` filled in."""
        text = self.catalog.gettext(msgid)
        return text % values if values else text

    def links(self, match_id: str, key: str, version: int) -> Any:
        """The board's addresses, from the app's URL rules (no Revanche, no series on the phone)."""
        from scorer.present.board_view import BoardLinks

        url = self.url_for
        return BoardLinks(poll=url("matches.poll", match_id=match_id, key=key, version=version, rematch=0),
                          act=url("matches.act", match_id=match_id, key=key),
                          revanche=url("matches.revanche", match_id=match_id, key=key), rematch=None,
                          share=url("matches.share", match_id=match_id, key=key),
                          story_chart=url("stats.story_chart", match_id=match_id, v=version),
                          stats=url("stats.stats_page", match_id=match_id))

    def board(self, table: OfflineTable, state: SaidState, last: Mapping[str, Any] | None,
              message: str | None) -> str:
        """Render ``partials/_scoreboard.html`` for ``state``, as the scorekeeper would."""
        from scorer.present.board_view import BoardPage, board_view

        board = board_view(state, self.catalog, gloss=self.gloss, last_action=dict(last) if last else None,
                           players=table.export.get("players"), first_mano=int(table.export.get("mano") or 0))
        page = BoardPage(board=board, links=self.links(table.match_id, table.key, board.version), can_edit=True,
                         message=message, guard_ms=0, shown=f"{time.time():.3f}", oob=True)
        return self.env.get_template("partials/_scoreboard.html").render(page=page)

    def banner(self, waiting: int, new_match: bool = False) -> dict[str, str]:
        """The words of the note above an offline board: ``{"text", "discard", "confirm"}``
        (playing with no scorekeeper, how many taps wait; the button that discards them and
        its question). ``new_match``: a match started on this phone, uploaded whole."""
        head = self.words(N_("Offline, same rules:"))
        if new_match:
            tail = self.words(N_("This match lives on this phone until the scorekeeper can be reached: "
                                 "then it is uploaded, and its links and QR code work."))
            return {"text": f"{head} {tail}", "discard": self.words(N_("Discard this match")),
                    "confirm": self.words(N_("Discard the match played on this phone? Nothing of it is kept."))}
        if waiting:
            tail = self.catalog.ngettext("%(n)s tap waits for the scorekeeper.",
                                         "%(n)s taps wait for the scorekeeper.", waiting) % {"n": waiting}
        else:
            tail = self.words(N_("Nothing waits for the scorekeeper."))
        return {"text": f"{head} {tail}", "discard": self.words(N_("Discard them")),
                "confirm": self.words(N_("Discard the taps made on this phone while offline? They are never sent."))}

    def held(self, count: int) -> dict[str, str]:
        """The new-match page's note about matches played on this phone and not yet uploaded."""
        text = self.catalog.ngettext("%(n)s match played offline waits on this phone for the scorekeeper.",
                                     "%(n)s matches played offline wait on this phone for the scorekeeper.",
                                     count) % {"n": count}
        return {"text": text, "resume": self.words(N_("Continue it")), "discard": self.words(N_("Discard this match")),
                "confirm": self.words(N_("Discard the match played on this phone? Nothing of it is kept."))}

    def default_names(self) -> tuple[str, str]:
        """The two sides' default names in the page's language (the server's ``default_names``)."""
        return self.catalog.gettext("Us"), self.catalog.gettext("Them")


def settings_from_fields(fields: Mapping[str, str], default_names: Sequence[str]) -> dict[str, Any]:
    """A match's settings from the new-match form's fields as the phone read them (the
    server's ``forms.settings_from_form`` does the same from the posted form; the upload is
    cleaned again there): options typed as the variant's choices (a value that is none of
    them kept as text, for the engine to refuse), names trimmed (blank: the defaults),
    mano, series length, and the players of a table of 4 or 6 (blank: "<side> <n>").

    :raise RuleError: unknown variant, bad option, mano or series length (the engine's errors).
    """
    from scorer.core.variants import VARIANTS

    variant = VARIANTS.get(fields.get("variant", ""))
    options = {}
    for spec in variant.option_specs if variant else ():
        if spec.key in fields:
            typed = [c for c in spec.choices if str(c) == fields[spec.key]]
            options[spec.key] = typed[0] if typed else fields[spec.key]
    names = [(fields.get(f"name{side}") or "").strip() or default_names[side] for side in (0, 1)]
    size = fields.get("table_size") or "2"
    players = None
    if size in ("4", "6"):
        players = [[(fields.get(f"player{side}_{i}") or "").strip() or f"{names[side]} {i + 1}"
                    for i in range(int(size) // 2)] for side in (0, 1)]
    best_of = fields.get("best_of") or "1"
    mano = 1 if fields.get("mano") == "1" else 0
    Match(fields.get("variant", ""), options=options, mano=mano)  # the engine's own checks
    return {"variant": fields.get("variant", ""), "options": options, "names": names, "mano": mano,
            "best_of": int(best_of) if best_of in ("1", "3", "5") else 1, "players": players}


#: The renderers made so far, by ``(root, lang)`` (:func:`renderer_for`).
_RENDERERS: dict[tuple[str, str], BoardRenderer] = {}


def renderer_for(root: str | Path, lang: str) -> BoardRenderer:
    """The board renderer of ``lang`` (an unknown language: the default one, as
    :func:`translations`) for the bundle unpacked at ``root``, made once and kept: the bundle
    never changes while the engine runs, so its catalog is read and its templates compiled
    once per language."""
    lang = lang if lang in LANGUAGES else LANGUAGES[0]
    found = _RENDERERS.get((str(root), lang))
    if found is None:
        found = _RENDERERS[(str(root), lang)] = BoardRenderer(Path(root), lang)
    return found


def warm(root: str | Path) -> None:
    """Do ahead everything that reads the bundle's files, so that the engine can run with none
    of them on disk: every module of the bundle imported (one the phone cannot import is
    skipped: it could never run there), and in every language the renderer made (catalog read,
    URL rules loaded) with every template compiled, a fresh match of the default variant
    replayed and its board drawn, the notes above a board and on the new-match page worded.
    The engine worker calls it before it makes its memory snapshot
    (``static/js/engine-worker.js``): a start from the snapshot does none of it and needs no
    file of the bundle until the worker unpacks it again, after the first board."""
    import importlib

    from scorer.core.variants import default_variant

    base = Path(root)
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        try:
            importlib.import_module(".".join(parts))
        except Exception:  # noqa: BLE001 (say, a module needing a C extension the phone lacks)
            continue
    for lang in LANGUAGES:
        renderer = renderer_for(root, lang)
        for name in renderer.env.list_templates(extensions=["html"]):
            renderer.env.get_template(name)
        table = OfflineTable({"variant": default_variant().id, "actions": []}, "warm", "warm", renderer)
        table.board()
        renderer.banner(1)
        renderer.banner(0, new_match=True)
        renderer.held(1)


def load(root: str, lang: str, export_json: str, match_id: str, key: str,
         pending: Sequence[Mapping[str, Any]] = ()) -> OfflineTable:
    """The phone's match: ``export_json`` (the scorekeeper's export), then the ``pending``
    taps' actions in order (a refused one is skipped: the scorekeeper will refuse it too)."""
    renderer = renderer_for(root, lang)
    table = OfflineTable(json.loads(export_json), match_id, key, renderer)
    for tap in pending:
        table.apply(tap["action"])
    return table


__all__ = ["BoardRenderer", "OfflineTable", "RuleError", "load", "renderer_for", "settings_from_fields", "translations",
           "url_builder", "warm"]
