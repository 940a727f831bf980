"""A tap's own key, and the answer to many taps sent at once (issue 24): what the scoreboard's
``/m/<id>/<key>/taps`` and the API's ``/api/matches/<id>/taps`` share.

A phone with JavaScript gives every tap a key (``tap_key``, a form field or JSON field, or the
``Idempotency-Key`` header); the scorekeeper records a key once
(:mod:`scorer.app.tap_upload`, :meth:`scorer.app.match_service.MatchService.act`). Bad input
is a 422 saying what was wrong, in the user's language; nothing is recorded then.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import abort, jsonify, request
from flask_babel import gettext

from scorer.app import tap_upload
from scorer.web.common import json_body, service
from scorer.web.db import get_db
from scorer.web.i18n import translate

#: A tap's key: what ``crypto.getRandomValues`` gives as a UUID, or any 8 to 64 letters, digits, ``-`` or ``_``.
TAP_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: Taps one upload may carry (a phone sends more in several uploads; a body stays under
#: ``MAX_CONTENT_LENGTH``).
MAX_TAPS = 200


def tap_key(value: Any = None) -> str | None:
    """The tap's key: ``value`` (a form's or body's ``tap_key``), else the ``Idempotency-Key``
    header (its quotes, as the IETF draft writes it, taken off); None when there is neither.

    A header that is there but empty is not "no key": granian hands the app a header whose
    value is not ASCII as an empty one, and waitress as Latin-1 text, so such a key (and a
    key of spaces alone) is refused, never recorded as a tap without a key (issue 30).

    :raise 422: a key that is not 8 to 64 letters, digits, ``-`` or ``_``.
    """
    if value is None or value == "":
        header = request.headers.get("Idempotency-Key")
        if header is None:
            return None
        value = header.strip(" \t")  # HTTP's own spaces only: str.strip() would also take U+00A0 and U+0085
        if len(value) > 1 and value[0] == value[-1] == '"':
            value = value[1:-1]
    if not isinstance(value, str) or not TAP_KEY.fullmatch(value):
        abort(422, gettext("A tap's key (tap_key or Idempotency-Key) must be 8 to 64 letters, digits, - or _."))
    return value


def taps_from_body(data: Mapping[str, object]) -> tuple[list[tap_upload.Tap], bool]:
    """The taps and ``apply`` of an upload's JSON body
    ``{"taps": [{"tap_key", "version", "action", "hand"}, ...], "apply": false}`` (``hand``: the
    hand the phone showed, optional; other fields of a tap, such as the phone's ``made_at``,
    are ignored).

    :raise 422: ``taps`` is not a list of at most :data:`MAX_TAPS` taps, ``apply`` is not
        true or false, or a tap lacks a valid key, version (a whole number from 0) or action
        (an object), or has a ``hand`` that is not a whole number from 1; the message names
        the tap by its number.
    """
    taps, apply = data.get("taps"), data.get("apply", False)
    if not isinstance(taps, list) or len(taps) > MAX_TAPS or not isinstance(apply, bool):
        abort(422, gettext('The body needs "taps", a list of at most %(n)d taps, and may say "apply": true or false.',
                           n=MAX_TAPS))
    out = []
    for number, tap in enumerate(taps, start=1):
        key = tap.get("tap_key") if isinstance(tap, dict) else None
        version = tap.get("version") if isinstance(tap, dict) else None
        action = tap.get("action") if isinstance(tap, dict) else None
        if (not isinstance(key, str) or not TAP_KEY.fullmatch(key) or type(version) is not int or version < 0
                or not isinstance(action, dict)):
            abort(422, gettext("Tap number %(n)d cannot be read: each tap needs tap_key (8 to 64 letters, digits, "
                               "- or _), version (a whole number) and action (an object).", n=number))
        hand = tap.get("hand")
        if hand is not None and (type(hand) is not int or hand < 1):
            abort(422, gettext("Tap number %(n)d has a bad hand: the hand it was made in is a whole number from 1.",
                               n=number))
        out.append(tap_upload.Tap(key, version, action, hand))
    return out, apply


def upload_answer(row):
    """Record the request's taps on ``row`` (:func:`scorer.app.tap_upload.upload`) and answer:
    200 ``{"applied", "repeated", "refused": [{"tap_key", "code", "error"}], "version"}``
    (``code``: why, e.g. ``hand_over`` for a tap made in a hand that has ended; ``error``: the
    message in the user's language), or 409 ``{"conflict": true, "pending", "version",
    "error"}`` when the match had moved on and the taps left were not recorded.

    :raise 422: a bad body (:func:`taps_from_body`, :func:`scorer.web.common.json_body`).
    """
    taps, apply = taps_from_body(json_body())
    done = tap_upload.upload(service(), get_db(), row, taps, apply=apply)
    if done.conflict:
        message = gettext("Another phone recorded something first, so these taps were not recorded: "
                          "check the scoreboard, then apply them or discard them.")
        return jsonify(conflict=True, pending=done.conflict, version=done.row.version,
                       error={"code": "stale_version", "message": message, "allowed": []}), 409
    refused = [{"tap_key": key, "code": e.code, "error": e.render(translate, done.row.names)} for key, e in done.refused]
    return jsonify(applied=done.applied, repeated=done.repeated, refused=refused, version=done.row.version)
