"""Bad input never gets a 500: property tests over the card parser and the action JSON,
absurd values and oversized bodies refused with a 4xx that says what was wrong, and the
match unchanged afterwards."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.core.cards import Card, parse_card, parse_cards, parse_hand
from scorer.core.errors import CardError, RuleError
from scorer.core.match import Match, normalize_action
from scorer.web import create_app

#: How many inputs each property test tries (docs/reliability.md's "Bad input" adds them up).
EXAMPLES = 300

CARD_WORDS = st.sampled_from(
    ["7", "de", "oro", "ouros", "espada", "1e", "12b", "QC", "K♠", "zap", "ancho", "e", "y", ",", "8", "9",
     "sota", "♦", "Ás", "paus", "copas", "13", "0", "-1", "  ", "\x00", "ö", "🂡"]
)
TYPED = st.one_of(st.text(max_size=60), st.lists(CARD_WORDS, max_size=8).map(" ".join))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
ACTION_KEYS = st.sampled_from(["type", "side", "call", "winner", "decision", "points", "delta"])
ACTION_VALUES = st.one_of(
    st.sampled_from(["call", "quiero", "trick", "hand_winner", "mazo", "adjust", "undo", "envido_points",
                     "special_hand", "truco", "envido", "flor", "play", "run", "no_quiero"]),
    st.integers(min_value=-10**12, max_value=10**12), JSON,
)
ACTIONS = st.one_of(JSON, st.dictionaries(ACTION_KEYS, ACTION_VALUES, max_size=5))


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=TYPED, lang=st.sampled_from(["pt", "es", "en"]))
def test_card_parser_reads_or_raises_card_error(text, lang):
    try:
        cards = parse_cards(text, lang)
    except CardError as e:
        assert e.code and e.message
    else:
        assert all(isinstance(c, Card) for c in cards)
        assert parse_cards(" ".join(str(c) for c in cards), "pt") == cards  # round trip of the codes
    for parse in (parse_card, parse_hand):
        try:
            parse(text, lang)
        except CardError:
            pass


@settings(max_examples=EXAMPLES, deadline=None)
@given(action=ACTIONS)
def test_engine_checks_any_action_json(action):
    m = Match("argentino-30", options={"flor": True})
    before = m.state()
    try:
        m.apply(normalize_action(action))
    except RuleError as e:
        assert e.code and e.message
        assert m.state() == before


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    app = create_app({"TESTING": True, "DATABASE": tmp_path_factory.mktemp("bad") / "bad.sqlite3"})
    client = app.test_client()
    r = client.post("/api/matches", json={"variant": "paulista", "names": ["A", "B"]})
    return client, r.get_json()


def post(client, match, body, **kw):
    kw.setdefault("headers", {"X-Edit-Key": match["edit_key"]})
    return client.post(f"/api/matches/{match['id']}/actions", **({"json": body} if "data" not in kw else {}), **kw)


def assert_refused_cleanly(r, client, match, status=422):
    assert r.status_code == status, r.get_data(as_text=True)[:300]
    error = r.get_json()["error"]
    assert error["code"] and len(error["message"]) > 10
    assert client.get(f"/api/matches/{match['id']}").get_json() == match["state"]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=st.one_of(JSON, st.fixed_dictionaries({"action": ACTIONS, "version": st.just(99)}),
                      st.fixed_dictionaries({"action": ACTIONS}, optional={"version": JSON})))
def test_api_refuses_any_bad_action_json_with_a_4xx(api, body):
    client, match = api
    r = post(client, match, body)
    assert r.status_code in (409, 422), r.get_data(as_text=True)[:300]
    assert r.get_json()["error"]["message"]
    assert client.get(f"/api/matches/{match['id']}").get_json()["version"] == 0


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "adjust", "side": 0, "delta": 10**9}, "bad_delta"),
        ({"type": "adjust", "side": 0, "delta": -10**9}, "bad_delta"),
        ({"type": "adjust", "side": 0, "delta": 10**30}, "bad_delta"),
        ({"type": "adjust", "side": 7, "delta": 1}, "bad_side"),
        ({"type": "mazo", "side": 7}, "bad_side"),
        ({"type": "hand_winner", "side": -1}, "bad_side"),
        ({"type": "trick", "winner": 7}, "bad_side"),
        ({"type": "call", "side": 0, "call": ["truco"]}, "bad_action"),
        ({"type": ["call"], "side": 0}, "bad_action"),
        ({"type": "special_hand", "side": 0, "decision": {"a": 1}}, "bad_action"),
        ({"type": "envido_points", "points": [10**9, 0]}, None),
        ([{"type": "undo"}] * 1000, "bad_action"),
    ],
)
def test_absurd_values_are_refused_with_the_reason(api, action, code):
    client, match = api
    r = post(client, match, {"action": action, "version": 0})
    assert_refused_cleanly(r, client, match)
    if code:
        assert r.get_json()["error"]["code"] == code


@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b"null", b"[]", b'"x"', b"\xff\xfe", b'{"action": {"type": "undo"}, "version": 1e999}',
     b'{"action": {"type": "undo"}, "version": "0"}', b'{"action": {"type": "undo"}, "version": true}',
     b"[" * 5000 + b"]" * 5000],
)
def test_unreadable_bodies_are_422(api, raw):
    client, match = api
    r = post(client, match, None, data=raw, content_type="application/json")
    assert_refused_cleanly(r, client, match)


def test_deeply_nested_json_in_a_form_or_a_cookie_is_not_a_500(api):
    # Found by this file: json.loads raises RecursionError (not ValueError) past ~1000 levels.
    import base64

    client, match = api
    r = client.post(f"/m/{match['id']}/{match['edit_key']}/actions", data={"version": "0", "action": "[" * 5000})
    assert r.status_code == 422
    client.set_cookie("last", base64.urlsafe_b64encode(b"[" * 3000).decode())
    assert client.get("/").status_code == 200
    client.delete_cookie("last")


def test_oversized_body_is_413(api):
    client, match = api
    body = json.dumps({"action": {"type": "undo", "pad": "x" * 200_000}, "version": 0})
    r = post(client, match, None, data=body, content_type="application/json")
    assert_refused_cleanly(r, client, match, status=413)
    r = client.post("/api/matches", data=body, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "too_large"
    r = post(client, match, {"action": [{"type": "undo"}] * 10_000, "version": 0})  # 10,000 actions at once
    assert_refused_cleanly(r, client, match, status=413)


def test_oversized_form_is_413(api):
    client, match = api
    r = client.post(f"/m/{match['id']}/{match['edit_key']}/actions", data={"type": "undo", "pad": "x" * 200_000})
    assert r.status_code == 413


def test_a_match_refuses_actions_beyond_its_limit(tmp_path):
    client = create_app({"TESTING": True, "DATABASE": tmp_path / "long.sqlite3", "MAX_ACTIONS": 10}).test_client()
    match = client.post("/api/matches", json={"variant": "truco-15"}).get_json()
    for version in range(10):
        r = post(client, match, {"action": {"type": "hand_winner", "side": version % 2}, "version": version})
        assert r.status_code == 200
    r = post(client, match, {"action": {"type": "hand_winner", "side": 0}, "version": 10})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "too_many_actions"
    assert client.get(f"/api/matches/{match['id']}").get_json()["version"] == 10
