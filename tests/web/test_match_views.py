"""The decorators that load "this match" and "this match, with its key" for a route
(scorer/web/common.py: match_view, keyed_match_view; issue 21): every route of a match, found
in the app's URL map, answers 404 for an unknown match and, where it takes a key, 403 for a
wrong one, before it reads anything else; and the right key reaches the view."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from scorer.web import create_app
from web_client import new_match


def match_routes() -> list[tuple[str, str]]:
    """``(rule, method)`` of every route of the app that takes a ``<match_id>``."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": Path(tmp) / "routes.sqlite3"})
        return sorted((rule.rule, method) for rule in app.url_map.iter_rules() if "match_id" in rule.arguments
                      for method in sorted(rule.methods - {"HEAD", "OPTIONS"}))


MATCH_ROUTES = match_routes()
#: Routes of the JSON API that take the edit key from the ``X-Edit-Key`` header.
HEADER_KEYED = {("/api/matches/<match_id>/actions", "POST"), ("/api/matches/<match_id>/names", "POST")}


def url(rule: str, match_id: str, key: str) -> str:
    return rule.replace("<match_id>", match_id).replace("<key>", key)


def test_the_map_has_the_match_routes():
    assert ("/m/<match_id>/<key>/actions", "POST") in MATCH_ROUTES
    assert ("/w/<match_id>", "GET") in MATCH_ROUTES
    assert HEADER_KEYED <= set(MATCH_ROUTES)


@pytest.mark.parametrize(("rule", "method"), MATCH_ROUTES)
def test_an_unknown_match_is_404(client, rule, method):
    r = client.open(url(rule, "nosuchmatch00000", "nosuchkey"), method=method, headers={"X-Edit-Key": "x"})
    assert r.status_code == 404


@pytest.mark.parametrize(("rule", "method"), [r for r in MATCH_ROUTES if "<key>" in r[0] or r in HEADER_KEYED])
def test_a_wrong_key_is_403_and_changes_nothing(client, rule, method):
    path, match_id, key = new_match(client)
    before = client.get(f"/api/matches/{match_id}").get_json()
    r = client.open(url(rule, match_id, key[::-1]), method=method, headers={"X-Edit-Key": key[::-1]},
                    data={"action": '{"type":"mazo","side":0}', "version": "0"})
    assert r.status_code == 403
    assert client.get(f"/api/matches/{match_id}").get_json() == before


def test_the_header_key_reaches_the_api(client):
    path, match_id, key = new_match(client)
    r = client.post(f"/api/matches/{match_id}/names", json={"names": ["A", "B"]}, headers={"X-Edit-Key": key})
    assert r.status_code == 200 and r.get_json()["names"] == ["A", "B"]
