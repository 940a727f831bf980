"""Helpers for the Flask test-client tests: request headers and the form posts a phone makes."""

from __future__ import annotations

import json
import re

HX = {"HX-Request": "true"}
PT = {"Accept-Language": "pt-BR,pt;q=0.9"}
ES = {"Accept-Language": "es-AR,es;q=0.9"}
EN = {"Accept-Language": "en-US,en;q=0.9"}
CA = {"Accept-Language": "ca-ES,ca;q=0.9"}


def new_match(client, variant="paulista", **fields):
    """Create a match through the form; return (scoreboard path, id, key)."""
    data = {"variant": variant, "name0": "Nós", "name1": "Eles", "mano": "0", **fields}
    r = client.post("/matches", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)
    path = r.headers["Location"]
    _, _, match_id, key = path.split("/")
    return path, match_id, key


def version_of(html: str) -> int:
    """The version a scoreboard shows."""
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def act(client, path, action, version, headers=None, **extra):
    """Post one action button's form (``extra``: more form fields)."""
    data = {"action": json.dumps(action), "version": str(version), **extra}
    return client.post(path + "/actions", data=data, headers=headers or {})
