"""The engine's contract (issue #2): actions as JSON, the state, undo as replay, typed errors,
the CLI, and the purity of the core."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli.main import cli
from scorer.core.errors import RuleError, TrucoError
from scorer.core.match import Match
from scorer.present.log_words import say_state
from tests.engine_notation import actions, play


def test_undo_drops_the_last_action_and_replays():
    script = "0:truco 1:quiero t0 1:retruco"
    with_undo = Match.replay("truco-15", {}, 0, actions(script) + actions("0:quiero undo undo"))
    without = play("truco-15", "0:truco 1:quiero t0")
    assert with_undo.state()["score"] == without.state()["score"]
    assert with_undo.state()["hand"] == without.state()["hand"]
    assert with_undo.state()["log"] == without.state()["log"]
    assert with_undo.version == len(actions(script)) + 3


def test_undo_after_the_game_ended_resumes_it():
    match = play("paulista", "a0+11 a1+3 s0:play w0")
    assert match.winner == 0
    match.apply({"type": "undo"})
    assert match.winner is None and list(match.score) == [11, 3]
    assert match.state()["hand"]["value"] == 3


def test_nothing_to_undo():
    with pytest.raises(RuleError) as caught:
        Match("truco-15").apply({"type": "undo"})
    assert caught.value.code == "nothing_to_undo"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("truco", "bad_action"),
        ([], "bad_action"),
        ({}, "bad_action"),
        ({"type": "shout"}, "bad_action"),
        ({"type": "call", "side": 7, "call": "truco"}, "bad_side"),
        ({"type": "call", "side": True, "call": "truco"}, "bad_side"),
        ({"type": "call", "side": "0", "call": "truco"}, "bad_side"),
        ({"type": "call", "side": 0, "call": "quiero"}, "bad_action"),
        ({"type": "trick"}, "bad_action"),
        ({"type": "trick", "winner": 2}, "bad_side"),
        ({"type": "special_hand", "side": 0, "decision": "maybe"}, "bad_action"),
        ({"type": "envido_points", "points": [27]}, "bad_points"),
        ({"type": "envido_points", "points": "2730"}, "bad_points"),
        ({"type": "adjust", "side": 0, "delta": 10**9}, "bad_delta"),
        ({"type": "adjust", "side": 0, "delta": 1.5}, "bad_delta"),
        ({"type": "adjust", "side": 0, "delta": 0}, "bad_delta"),
        ({"type": "adjust", "side": 0, "delta": 16}, "bad_delta"),  # more than the target
        ({"type": "adjust", "side": 0, "delta": -1}, "below_zero"),
    ],
)
def test_bad_actions_raise_typed_errors_and_change_nothing(action, code):
    match = play("truco-15", "0:truco")
    before = match.state()
    with pytest.raises(RuleError) as caught:
        match.apply(action)
    assert caught.value.code == code
    assert isinstance(caught.value, TrucoError) and isinstance(caught.value, ValueError)
    assert caught.value.message
    assert match.state() == before


@pytest.mark.parametrize(
    ("variant", "options", "code"),
    [
        ("poker", {}, "bad_variant"),
        ("truco-15", {"flor": True}, "bad_option"),
        ("argentino-30", {"flor": "yes"}, "bad_option"),
        ("argentino-30", {"target": 31}, "bad_option"),
        ("paulista", {"all_pardas": "dealer"}, "bad_option"),
    ],
)
def test_bad_match_settings(variant, options, code):
    with pytest.raises(RuleError) as caught:
        Match(variant, options)
    assert caught.value.code == code


def test_adjust_at_the_start_of_a_hand_decides_the_special_hand():
    match = play("paulista", "a0+11")
    assert match.state()["hand"]["special"] == "mao_de_onze"
    match.apply({"type": "adjust", "side": 0, "delta": -1})
    assert match.state()["hand"]["special"] is None


def test_legal_actions_offer_exactly_the_table_choices_with_points():
    legal = play("paulista", "0:truco").legal_actions()
    by_kind = {(a["type"], a.get("side"), a.get("call")): a for a in legal}
    assert by_kind[("quiero", 1, None)]["points"] is None
    assert by_kind[("no_quiero", 1, None)]["points"] == 1 and by_kind[("no_quiero", 1, None)]["points_side"] == 0
    assert by_kind[("call", 1, "seis")]["points"] == 6
    assert ("quiero", 0, None) not in by_kind
    assert ("trick", None, None) not in by_kind
    assert ("mazo", 1, None) in by_kind and ("mazo", 0, None) not in by_kind
    # Every listed concrete action really applies.
    for candidate in legal:
        if candidate["type"] in ("adjust", "envido_points"):
            continue
        match = play("paulista", "0:truco")
        match.apply({k: v for k, v in candidate.items() if k not in ("points", "points_side")})


def test_legal_actions_at_mao_de_onze_are_only_the_decision():
    kinds = {(a["type"], a.get("side"), a.get("decision")) for a in play("paulista", "a1+11").legal_actions()}
    assert kinds == {
        ("special_hand", 1, "play"),
        ("special_hand", 1, "run"),
        ("adjust", 0, None),
        ("adjust", 1, None),
        ("undo", None, None),
    }


def test_state_has_the_contract_fields_and_a_log_in_words():
    match = play("argentino-30", "0:real_envido 1:quiero ep29-27")
    state = say_state(match.state(names=("Nós", "Eles")))
    for key in ("variant", "options", "target", "score", "winner", "hand", "legal_actions", "log", "version", "stages"):
        assert key in state
    for key in ("number", "mano", "value", "pending", "special", "envido_open"):
        assert key in state["hand"]
    # Issue 13 item 12: the table's own words ("Real envido ... querido", WORDING-REVIEW 4a).
    assert state["log"][-1]["text"] == "Real envido: querido, 29 to 27, +3 Nós."
    pt = {"{chain}: {said}, {winner_points} to {loser_points}, +{points} {side}.": "{chain}: {said}, {winner_points} a {loser_points}, +{points} {side}"}
    translated = say_state(match.state(names=("Nós", "Eles")), translate=lambda s: pt.get(s, s))
    assert translated["log"][-1]["text"] == "Real envido: querido, 29 a 27, +3 Nós"
    json.dumps(state)


def test_cli_replay_prints_the_final_state(tmp_path):
    path = tmp_path / "actions.jsonl"
    path.write_text("\n".join(json.dumps(a) for a in actions("0:truco 1:quiero w0")) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", "--variant", "truco-15", "--mano", "1", str(path)])
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert state["score"] == [2, 0] and state["hand"]["mano"] == 0


def test_cli_replay_options_and_stdin():
    stdin = "\n".join(json.dumps(a) for a in actions("0:flor 1:no_flor")) + "\n"
    result = CliRunner().invoke(cli, ["replay", "--variant", "argentino-30", "--option", "flor=true"], input=stdin)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["score"] == [3, 0]


@pytest.mark.parametrize(
    ("lines", "code", "index"),
    [
        (['{"type":"call","side":0,"call":"truco"}', '{"type":"quiero","side":0}'], "own_call", 1),
        (['{"type":"call","side":0,"call":"truco"}', "not json"], "bad_json", 1),
    ],
)
def test_cli_replay_illegal_action_exits_2(lines, code, index):
    result = CliRunner().invoke(cli, ["replay", "--variant", "truco-15"], input="\n".join(lines) + "\n")
    assert result.exit_code == 2
    error = json.loads(result.output)["error"]
    assert error["code"] == code and error["index"] == index and error["message"]


def test_cli_replay_bad_option_exits_2():
    result = CliRunner().invoke(cli, ["replay", "--variant", "truco-15", "--option", "flor=true"], input="")
    assert result.exit_code == 2
    assert json.loads(result.output)["error"]["code"] == "bad_option"


def test_state_log_limit_keeps_the_newest_entries():
    match = play("truco-15", "w0 w1 w0")
    log = match.state(log_limit=2)["log"]
    assert [entry.index for entry in log] == [1, 2]
    assert len(match.state()["log"]) == 3


# Bugs found by trying to break the engine: each gets the test that would have caught it.


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "call", "side": 0.0, "call": "truco"}, "bad_side"),  # JSON 0.0 is not a side
        ({"type": "mazo", "side": 1.0}, "bad_side"),
        ({"type": "trick", "winner": 1.0}, "bad_side"),
        ({"type": "call", "side": 0, "call": ["truco"]}, "bad_action"),
        ({"type": ["call"], "side": 0}, "bad_action"),
        ({"type": "hand_winner"}, "bad_action"),  # a missing side is not "nobody"
    ],
)
def test_malformed_actions_found_by_the_breaker(action, code):
    match = play("paulista", "0:truco 1:quiero")
    before = match.state()
    with pytest.raises(RuleError) as caught:
        match.apply(action)
    assert caught.value.code == code
    assert match.state() == before


@pytest.mark.parametrize("options", ["abc", {"target": 30.0}, {"flor": 1}])
def test_malformed_options_found_by_the_breaker(options):
    with pytest.raises(RuleError) as caught:
        Match("argentino-30", options)
    assert caught.value.code == "bad_option"


@pytest.mark.parametrize(
    ("variant", "script"),
    [("mineiro", "a0+10 a1+10 0:mazo"), ("truc", "a0+11 a1+11 w1"), ("truco-15", "a0+13 0:truco 1:envido 0:quiero ew1 undo ew0")],
)
def test_nothing_waits_in_the_hand_once_the_game_is_over(variant, script):
    hand = play(variant, script).state()["hand"]
    assert hand["awaiting"] is None and hand["pending"] is None


def test_gauderio_correction_mid_hand_waits_for_the_end_of_the_hand():
    match = play("gauderio", "0:truco 1:quiero a0+12")
    assert match.winner is None
    match.apply({"type": "hand_winner", "side": 1})
    assert match.winner == 0


def test_error_messages_name_the_sides():
    with pytest.raises(RuleError) as caught:
        play("truco-15", "0:truco 0:quiero")
    # Issue 13 item 12: no side name as the subject of a conjugated verb.
    assert caught.value.render(names=("Nós", "Eles")) == "Truco by Nós: the answer belongs to Eles."
    assert "side 0" in caught.value.message


@pytest.mark.parametrize(
    "payload",
    [
        b'\xff\xfe{"type":"undo"}\n',
        b"[" * 100000 + b"]" * 100000 + b"\n",
        b'{"type":"adjust","side":0,"delta":' + b"9" * 5000 + b"}\n",
    ],
)
def test_cli_replay_unreadable_input_exits_2(payload, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(payload)
    result = CliRunner().invoke(cli, ["replay", "--variant", "truco-15", str(path)])
    assert result.exit_code == 2, result.output
    assert json.loads(result.output)["error"]["index"] == 0


def test_cli_replay_accepts_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"type":"hand_winner","side":0}\n')
    result = CliRunner().invoke(cli, ["replay", "--variant", "truco-15", str(path)])
    assert result.exit_code == 0 and json.loads(result.output)["score"] == [1, 0]


def test_a_game_ending_action_shows_what_it_pays_not_the_capped_difference():
    """Mão de onze played at 11-7: the hand pays 3 (docs/rules.md §Mão de onze), even though the score stops at 12."""
    legal = play("paulista", "a0+11 a1+7 s0:play").legal_actions()
    won = next(a for a in legal if a["type"] == "hand_winner" and a["side"] == 0)
    assert (won["points"], won["points_side"]) == (3, 0)


def test_errors_use_the_table_words_for_calls_and_special_hands():
    with pytest.raises(RuleError) as caught:
        play("paulista", "a0+11 a1+7 s0:play 1:truco")
    assert caught.value.render() == "No Truco in this hand: the mão de onze is played without betting."


@pytest.mark.parametrize(
    ("variant", "script", "options", "expected"),
    [
        # Envido points 0-7 or 20-33 (docs/rules.md §Envido count).
        ("truco-15", "0:envido 1:quiero", {}, {"type": "declare_points", "what": "envido", "min": 0, "max": 33}),
        # With a muestra a pieza counts 27-30 plus the best other card: up to 37 (docs/rules.md §Envido count with a muestra).
        ("uruguaio", "0:envido 1:quiero", {}, {"type": "declare_points", "what": "envido", "min": 0, "max": 37}),
        # A Flor is 20 + three cards: 20-38 (docs/rules.md §Flor count).
        ("argentino-30", "0:flor 1:flor", {"flor": True}, {"type": "declare_points", "what": "flor", "min": 20, "max": 38}),
    ],
)
def test_typed_points_are_their_own_kind_of_legal_action(variant, script, options, expected):
    legal = play(variant, script, options=options).legal_actions()
    assert [a for a in legal if a["type"] == "declare_points"] == [expected]
    assert not any(a["type"] == "envido_points" for a in legal)


@pytest.mark.parametrize(
    ("script", "adjusts"),
    [
        ("", {(0, 1), (1, 1)}),  # 0-0: nothing to take away (a correction never goes below 0)
        ("w0", {(0, -1), (0, 1), (1, 1)}),
        ("w0 w1", {(0, -1), (0, 1), (1, -1), (1, 1)}),
    ],
)
def test_legal_actions_hold_no_placeholders(script, adjusts):
    """Every listed action can be posted as it is (issue 10): corrections are -1 and +1 where
    legal, never a template holding None."""
    match = play("paulista", script)
    legal = match.legal_actions()
    assert {(a["side"], a["delta"]) for a in legal if a["type"] == "adjust"} == adjusts
    for entry in legal:
        action = {k: v for k, v in entry.items() if k not in ("points", "points_side")}
        assert None not in [v for k, v in action.items() if k not in ("winner", "side")]
        play("paulista", script).apply(action)
