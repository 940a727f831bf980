"""The language switch: a link that sets the ``lang`` cookie and goes back."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, request, url_for
from flask_babel import gettext

from scorer.web.i18n import COOKIE

bp = Blueprint("lang", __name__)


def safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else the home page."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("matches.new")


@bp.get("/lang/<code>")
def switch(code: str):
    """Remember ``code`` (pt_BR, es or en) for this phone and go back to ``next``.

    :raise 404: unknown language.
    """
    if code not in current_app.config["LANGUAGES"]:
        abort(404, gettext("Unknown language."))
    response = redirect(safe_next(request.args.get("next")), 303)
    response.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response
