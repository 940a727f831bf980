"""The committed OpenAPI description (``openapi.yaml``) against the real server.

Every ``/api`` route is described; then schemathesis generates requests from the
description (valid and invalid bodies, headers, ids) and sends them to a live
``truco serve`` on 127.0.0.1: no 500, every response as described, every 4xx says in
words what was wrong, and a refused request leaves the match as it was.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from schemathesis.generation import GenerationMode

from live_server import Server
from scorer.web import create_app

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
#: Generated requests per operation (docs/reliability.md's "Bad input" counts them).
EXAMPLES = 60


def test_every_api_route_is_described(tmp_path):
    """Every ``/api`` route, and nothing that is not a route; a JSON endpoint of the pages may be
    described too (the keyed export the phones read, issue 30)."""
    import yaml

    described = {re.sub(r"\{(\w+)\}", r"<\1>", p) for p in yaml.safe_load(SPEC.read_text())["paths"]}
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "o.sqlite3"})
    rules = {r.rule for r in app.url_map.iter_rules()}
    assert {r for r in rules if r.startswith("/api/")} == {p for p in described if p.startswith("/api/")}
    assert described <= rules
    assert "/m/<match_id>/<key>/export.json" in described


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("openapi") / "openapi.sqlite3")
    session = requests.Session()
    r = session.post(server.url + "/api/matches", json={"variant": "argentino-30", "options": {"flor": True}})
    TOURNAMENT.update(session.post(server.url + "/api/tournaments",
                                   json={"variant": "truco-15", "teams": ["A", "B", "C", "D"]}).json())
    yield server, session, r.json()
    session.close()
    server.stop()


@functools.cache
def operations():
    """Every operation of ``openapi.yaml`` (read once)."""
    schema = schemathesis.openapi.from_path(SPEC)
    return [result.ok() for result in schema.get_all_operations()]


@functools.cache
def spec() -> dict:
    """``openapi.yaml``, parsed once (each parse takes a fifth of a second)."""
    import yaml

    return yaml.safe_load(SPEC.read_text())


TRIED = {"requests": 0, "refused": 0}
#: What one field of a generated body may be replaced with (issue 23 item 4): schemathesis's
#: own strings hold no lone surrogate, and its negative cases rarely put a null or a NUL in
#: a field that has a schema.
HOSTILE = [None, "\ud800", "a\x00b", True, -1, 2**70, 1.5, [], {}, [None], {"a": None}, ""]
#: A real tournament (issue 11), so generated requests also reach existing ones.
TOURNAMENT: dict = {}
#: Slot ids of that tournament's first matches (the ones a correction can name).
SLOTS = ["main:1:1", "main:1:2", "main:2:1"]


@pytest.mark.parametrize("operation", operations(), ids=lambda op: f"{op.method.upper()} {op.path}")
def test_schemathesis_against_the_live_server(live, operation):
    server, session, match = live
    state_url = f"{server.url}/api/matches/{match['id']}"

    cases = st.one_of(operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
                      operation.as_strategy(generation_mode=GenerationMode.NEGATIVE))

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=cases, real_id=st.booleans(), real_key=st.booleans(),
           hostile=st.none() | st.tuples(st.integers(0, 99), st.sampled_from(HOSTILE)),
           real_slot=st.sampled_from(SLOTS))
    def run(case, real_id, real_key, hostile, real_slot):
        if real_id and case.path_parameters and "match_id" in case.path_parameters:
            case.path_parameters["match_id"] = match["id"]
        if real_key and case.headers is not None and "X-Edit-Key" in case.headers:
            case.headers["X-Edit-Key"] = match["edit_key"]
        if real_key and case.path_parameters and "key" in case.path_parameters:
            case.path_parameters["key"] = match["edit_key"]  # the keyed export: the edit key in its path
        if real_id and case.path_parameters and "tid" in case.path_parameters:
            case.path_parameters["tid"] = TOURNAMENT["id"]
        if real_key and case.headers is not None and "X-Organizer-Key" in case.headers:
            case.headers["X-Organizer-Key"] = TOURNAMENT["organizer_key"]
        if real_id and isinstance(case.body, dict) and "slot" in case.body:
            case.body["slot"] = real_slot  # a correction that reaches a real match of the tournament
        if hostile is not None and isinstance(case.body, dict) and case.body:
            field = sorted(case.body)[hostile[0] % len(case.body)]
            case.body[field] = hostile[1]
        tournament_url = f"{server.url}/api/tournaments/{TOURNAMENT['id']}"
        before = session.get(state_url).json()
        tournament_before = session.get(tournament_url).json()
        response = case.call(base_url=server.url, session=session)
        TRIED["requests"] += 1
        case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                                 content_type_conformance, response_schema_conformance])
        assert response.status_code < 500
        if 400 <= response.status_code < 500:
            TRIED["refused"] += 1
            message = response.json()["error"]["message"]
            assert len(message) > 10 and not re.search(r"Traceback|Exception", message), message
            after = session.get(state_url).json()
            assert after["version"] == before["version"] and after["names"] == before["names"]
            assert session.get(tournament_url).json()["version"] == tournament_before["version"]

    run()
    print(f"\nschemathesis: {TRIED['requests']} generated requests so far, {TRIED['refused']} refused with a 4xx,"
          " 0 server errors")


def described_fields(operation) -> list[str]:
    """The top-level fields ``openapi.yaml`` describes for an operation's JSON body."""
    body = spec()["paths"][operation.path][operation.method.lower()].get("requestBody")
    if not body:
        return []
    schema = body["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = spec()["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return list(schema.get("properties", {}))


def valid_bodies(path: str, session, server, match) -> list[dict]:
    """Bodies the server accepts for ``path`` (each described field is then spoilt in turn)."""
    state = session.get(f"{server.url}/api/matches/{match['id']}").json()
    return {
        "/api/matches": [{"variant": "paulista", "options": {}, "names": ["A", "B"], "mano": 0, "best_of": 3,
                          "players": [["a", "b"], ["c", "d"]]}],
        "/api/matches/import": [session.get(f"{server.url}/api/matches/{match['id']}/export").json()],
        "/api/matches/{match_id}/actions": [{"action": {"type": "adjust", "side": 0, "delta": 1},
                                             "version": state["version"]}],
        "/api/matches/{match_id}/names": [{"names": ["A", "B"]}],
        "/api/matches/{match_id}/taps": [{"taps": [{"tap_key": f"hostile-{state['version']}-tap", "version": state["version"],
                                                    "action": {"type": "adjust", "side": 0, "delta": 1}}], "apply": False}],
        "/api/offline-matches": [{"offline_id": "a-match-started-offline-1", "variant": "truco-15", "options": {},
                                  "names": ["A", "B"], "mano": 0, "best_of": 1, "players": None,
                                  "taps": [{"tap_key": "k1", "version": 0, "action": {"type": "hand_winner", "side": 0}}]}],
        "/api/tournaments": [{"name": "Copa", "variant": "truco-15", "options": {}, "teams": ["A", "B", "C", "D"],
                              "format": "knockout", "best_of": 1, "final_best_of": 3, "legs": 1, "repescagem": None,
                              "confirm": False, "draw": False, "points": {"win": 3}, "tiebreaks": ["points"]},
                             {"variant": "truco-15", "teams": ["A", "B", "C", "D", "E", "F"], "format": "groups",
                              "groups": 2, "advance": 1, "best_extra": 1}],
        "/api/tournaments/{tid}/corrections": [{"kind": "rename", "team": 0, "name": "Ases"},
                                               {"kind": "walkover", "slot": "main:1:1", "absent": 0},
                                               {"kind": "abandonment", "slot": "main:1:2", "abandoned": 1},
                                               {"kind": "confirm", "slot": "main:1:1", "side": 2},
                                               {"kind": "reopen", "slot": "main:1:1", "confirmed": True}],
        "/api/clubs/import": [{"format": "truco-scorer-club/1", "name": "Peña",
                               "players": [{"player": 1, "name": "Ana", "nickname": "Aninha"}, {"player": 2, "name": "Beto"}],
                               "seasons": [{"name": "2026", "first_night": "2026-01-01", "last_night": "2026-12-31"}],
                               "games": [{"sides": [[1], [2]], "winner": 0, "ended": 1.8e9, "variant": "truco-15",
                                          "options": {}, "mano": 0,
                                          "actions": [{"type": "call", "side": 0, "call": "truco"},
                                                      {"type": "no_quiero", "side": 1},
                                                      *[{"type": "adjust", "side": 0, "delta": 1}] * 14]}]}],
    }.get(path, [])


@pytest.mark.parametrize("operation", [op for op in operations() if described_fields(op)],
                         ids=lambda op: f"{op.method.upper()} {op.path}")
def test_every_described_field_given_a_hostile_value(live, operation):
    """Issue 23 item 4: each field ``openapi.yaml`` describes, in a body the server accepts,
    replaced in turn by a null, a lone surrogate, a NUL, a wrong type: never a 5xx, every
    answer as described, a 4xx says what was wrong and changes nothing."""
    server, session, match = live
    params = {"match_id": match["id"], "tid": TOURNAMENT["id"]}
    headers = {"X-Edit-Key": match["edit_key"], "X-Organizer-Key": TOURNAMENT["organizer_key"]}
    state_url = f"{server.url}/api/matches/{match['id']}"
    tournament_url = f"{server.url}/api/tournaments/{TOURNAMENT['id']}"
    sent = 0
    for field in described_fields(operation):
        for value in HOSTILE:
            for body in valid_bodies(operation.path, session, server, match):
                before, tournament_before = session.get(state_url).json(), session.get(tournament_url).json()
                case = operation.Case(body={**body, field: value}, headers=dict(headers),
                                      path_parameters={k: v for k, v in params.items() if "{" + k + "}" in operation.path})
                response = case.call(base_url=server.url, session=session)
                sent += 1
                case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                                         content_type_conformance, response_schema_conformance])
                if 400 <= response.status_code < 500:
                    assert len(response.json()["error"]["message"]) > 10
                    after = session.get(state_url).json()
                    assert (after["version"], after["names"]) == (before["version"], before["names"]), (field, value)
                    assert session.get(tournament_url).json()["version"] == tournament_before["version"], (field, value)
    TRIED["requests"] += sent
    assert sent >= len(HOSTILE)
    print(f"\nhostile fields: {sent} requests on {operation.method.upper()} {operation.path}, 0 server errors")


def test_the_description_names_the_kinds_calls_and_variants_of_the_schema():
    """openapi.yaml describes the typed schema of scorer/core/schema.py and the registry, not a copy
    that could drift: the same action kinds, calls and decisions, the legal actions' kinds
    (``declare_points`` instead of a placeholder ``envido_points``), the same variants."""
    import yaml

    from scorer.core.schema import ACTION_TYPES, CALLS, DECISIONS
    from scorer.core.variants import VARIANTS

    schemas = yaml.safe_load(SPEC.read_text())["components"]["schemas"]
    action = schemas["Action"]["properties"]
    assert action["type"]["enum"] == list(ACTION_TYPES)
    assert action["call"]["enum"] == list(CALLS)
    assert action["decision"]["enum"] == list(DECISIONS)
    legal = schemas["LegalAction"]["properties"]["type"]["enum"]
    assert legal == [t for t in ACTION_TYPES if t != "envido_points"] + ["declare_points"]
    assert schemas["NewMatch"]["properties"]["variant"]["enum"] == list(VARIANTS)


def _enums(node, path=""):
    """Every ``enum`` list in the spec, with where it is."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "enum" and isinstance(value, list):
                yield path, value
            else:
                yield from _enums(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _enums(value, f"{path}/{index}")


def test_every_enum_naming_variants_or_calls_is_the_registrys():
    """Every enum of openapi.yaml that names a variant id is the registry's ids, in its order;
    every one that names a ladder's call is :func:`scorer.core.schema.call_ids` (issue 20 item 3)."""
    import yaml

    from scorer.core.schema import call_ids
    from scorer.core.variants import VARIANTS

    # ``truc`` is a variant and a call: each kind is recognised by the ids only it has.
    ladder_calls = {step.call for v in VARIANTS.values() for step in v.truco_ladder} - set(VARIANTS)
    variant_ids = set(VARIANTS) - set(call_ids())
    found = {"variants": 0, "calls": 0}
    for where, values in _enums(yaml.safe_load(SPEC.read_text())):
        if set(values) & variant_ids:
            assert values == list(VARIANTS), where
            found["variants"] += 1
        if set(values) & ladder_calls:
            assert values == list(call_ids()), where
            found["calls"] += 1
    assert found == {"variants": 2, "calls": 1}
