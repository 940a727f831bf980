"""The language switch: a link that sets the ``lang`` cookie and goes back."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, request, url_for
from flask_babel import gettext

from scorer.web.i18n import COOKIE

bp = Blueprint("lang", __name__)


def safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else the home page (``/``).

    Refused: any control or format character (a newline would break the header; browsers
    drop tabs and newlines from a URL, so ``/<tab>/evil.com`` would become
    ``//evil.com``), a backslash (browsers read it as ``/``), and anything with a scheme
    or a host or not starting with a single ``/`` once split as a URL.
    """
    if not target or "\\" in target or any(unicodedata.category(c).startswith("C") for c in target):
        return url_for("matches.new")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return url_for("matches.new")
    return target


@bp.get("/lang/<code>")
def switch(code: str):
    """Remember ``code`` (pt_BR, es, en or ca) for this phone and go back to ``next``.

    :raise 404: unknown language.
    """
    if code not in current_app.config["LANGUAGES"]:
        abort(404, gettext("Unknown language."))
    response = redirect(safe_next(request.args.get("next")), 303)
    response.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response
