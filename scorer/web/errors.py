"""Error pages: every 4xx answered in the user's language, as a page or as JSON.

API paths (``/api/...``) and the scoreboard's JSON endpoints (:data:`JSON_ENDPOINTS`) get
``{"error": {"code", "message", "allowed"}}``.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from scorer.core.errors import N_

#: Generic messages for codes raised without a description of our own.
MESSAGES = {
    400: N_("The request could not be read."),
    403: N_("This link cannot change the match."),
    404: N_("Nothing here: check the address."),
    405: N_("That is not allowed here."),
    409: N_("Someone else changed this first."),
    413: N_("The request is too large."),
    422: N_("The request could not be understood."),
}
#: Endpoints outside ``/api/`` that a page's script calls with JSON, and that answer JSON.
JSON_ENDPOINTS = ("matches.upload_taps", "matches.keyed_export")
CODES = {400: "bad_request", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
         409: "stale_version", 413: "too_large", 422: "unprocessable"}


def message_for(e: HTTPException) -> str:
    """The user-facing message: the one a view gave to ``abort``, else a generic one
    for the status code (werkzeug's English defaults are never shown)."""
    ours = e.description if e.description != type(e).description else None
    return ours or gettext(MESSAGES.get(e.code or 500, N_("Something went wrong.")))


def handle_http_error(e: HTTPException):
    """Render any HTTP error as JSON (API) or as the error page, in the user's language."""
    code = e.code or 500
    message = message_for(e)
    if request.path.startswith("/api/") or request.endpoint in JSON_ENDPOINTS:
        return jsonify(error={"code": CODES.get(code, "error"), "message": message, "allowed": []}), code
    return render_template("errors/error.html", code=code, message=message), code


def init_app(app: Flask) -> None:
    """Register the handler for every HTTP error."""
    app.register_error_handler(HTTPException, handle_http_error)
