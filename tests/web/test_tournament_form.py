"""The create-a-tournament form keeps what the organizer typed (try-19): refused (a
repeated tiebreak, too few teams) or reloaded without JavaScript to show the chosen
variant's options, it comes back with every field as it was, never silently dropping
"best of 3" or "a result counts once both teams confirm"."""

from __future__ import annotations

import html
import re

import pytest

from web_client import EN

TYPED = {
    "name": "Liga da Firma", "variant": "argentino-30", "target": "40", "flor": "True",
    "teams": "Alfa\nBeta\nGama", "format": "round_robin", "best_of": "3", "final_best_of": "5",
    "draw": "on", "repescagem": "apart", "legs": "2", "groups": "3", "advance": "1", "best_extra": "1",
    "points_win": "2", "points_loss": "0", "points_walkover_present": "4", "points_walkover_absent": "-2",
    "points_abandon_winner": "5", "points_abandon_loser": "-1",
    "tiebreak1": "points", "tiebreak2": "wins", "tiebreak3": "head_to_head", "tiebreak4": "tento_difference",
    "tiebreak5": "tentos_for", "confirm": "on",
}

#: (what the page must hold for the field: a regular expression over the page's HTML)
KEPT = [
    r'<input name="name" value="Liga da Firma"',
    r'<option value="argentino-30"[^>]*selected',
    r'<select name="target">(?:(?!</select>).)*<option value="40" selected',
    r'<select name="flor">(?:(?!</select>).)*<option value="True" selected',
    r'<textarea name="teams"[^>]*>Alfa\nBeta\nGama</textarea>',
    r'name="format" value="round_robin" checked',
    r'<select name="best_of">(?:(?!</select>).)*<option value="3" selected',
    r'<select name="final_best_of">(?:(?!</select>).)*<option value="5" selected',
    r'name="draw" checked',
    r'<select name="repescagem">(?:(?!</select>).)*<option value="apart" selected',
    r'<select name="legs">(?:(?!</select>).)*<option value="2" selected',
    r'name="groups" [^>]*value="3"',
    r'name="advance" [^>]*value="1"',
    r'name="best_extra" [^>]*value="1"',
    r'name="points_win" [^>]*value="2"',
    r'name="points_loss" [^>]*value="0"',
    r'name="points_walkover_present" [^>]*value="4"',
    r'name="points_walkover_absent" [^>]*value="-2"',
    r'name="points_abandon_winner" [^>]*value="5"',
    r'name="points_abandon_loser" [^>]*value="-1"',
    r'name="confirm" checked',
]


def kept(text: str) -> list[str]:
    """The fields of :data:`KEPT` the page lost."""
    return [k for k in KEPT if not re.search(k, text, re.S)]


def test_a_refused_form_comes_back_as_typed(client):
    r = client.post("/tournaments", headers=EN, data={**TYPED, "tiebreak4": "wins"})
    text = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422 and "Each tiebreak can be chosen once" in text
    assert kept(text) == []
    r = client.post("/tournaments", headers=EN, data={**TYPED, "teams": "Alfa"})
    assert r.status_code == 422
    assert kept(html.unescape(r.get_data(as_text=True))) == [KEPT[4]]  # the teams, as typed: one


@pytest.mark.parametrize("variant", ["argentino-30", "uruguaio"])
def test_show_this_variants_options_works_without_javascript(client, variant):
    """The form's no-JavaScript button reloads it (GET) with the chosen variant's options."""
    r = client.get("/tournaments/new", headers=EN, query_string={**TYPED, "variant": variant, "target": "30"})
    text = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 200
    assert re.search(rf'<option value="{variant}"[^>]*selected', text)
    assert '<select name="target">' in text
    assert [k for k in kept(text) if "argentino" not in k and "target" not in k and "flor" not in k] == []
