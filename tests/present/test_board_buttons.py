"""scorer/present/board_buttons.py: the steady pad (issue #14): every action has one place, the
rows a variant has are the same in every state, and a button says what it pays at once; and
each button's words, points, JSON and place are made together (issue 21), without Flask."""

from __future__ import annotations

import pytest

import gettext

from scorer.core.match import Match
from scorer.present import board_buttons as board
from scorer.present.board_view import board_view
from scorer.present.log_words import say_state


@pytest.mark.parametrize(("action", "cell"), [
    ({"type": "hand_winner", "side": 0}, "hand"),
    ({"type": "hand_winner", "side": None}, "tie"),
    ({"type": "trick", "winner": 1}, "trick"),
    ({"type": "trick", "winner": None}, "parda"),
    ({"type": "quiero", "side": 1}, "yes"),
    ({"type": "envido_winner", "side": 0}, "yes"),
    ({"type": "special_hand", "side": 0, "decision": "play"}, "yes"),
    ({"type": "no_quiero", "side": 1}, "no"),
    ({"type": "special_hand", "side": 0, "decision": "run"}, "no"),
    ({"type": "call", "side": 0, "call": "truco"}, "call"),
    ({"type": "call", "side": 1, "call": "seis"}, "call"),
    ({"type": "call", "side": 1, "call": "retruc"}, "call"),
    ({"type": "mazo", "side": 0}, "mazo"),
    ({"type": "call", "side": 0, "call": "envido"}, "envido"),
    ({"type": "call", "side": 0, "call": "contraflor"}, "envido"),
    ({"type": "call", "side": 0, "call": "real_envido"}, "real"),
    ({"type": "call", "side": 0, "call": "contraflor_al_resto"}, "real"),
    ({"type": "call", "side": 0, "call": "falta_envido"}, "falta"),
    ({"type": "no_flor", "side": 1}, "falta"),
    ({"type": "call", "side": 1, "call": "flor"}, "flor"),
])
def test_every_action_has_one_place(action, cell):
    assert board.cell_of(action) == cell


@pytest.mark.parametrize(("action", "expected"), [
    ({"type": "hand_winner", "side": 1, "points": 3, "points_side": 1}, (0, 3)),
    ({"type": "no_quiero", "side": 1, "points": 1, "points_side": 0}, (1, 0)),
    ({"type": "adjust", "side": 1, "delta": -1}, (0, -1)),
    ({"type": "call", "side": 0, "call": "truco", "points": 3, "points_side": None}, None),  # a stake, paid later
    ({"type": "trick", "winner": 0, "points": None, "points_side": None}, None),
])
def test_pays_is_what_the_engine_says_the_action_adds(action, expected):
    assert board.pays(action) == expected


SCRIPTS = {
    "paulista": ({}, [[], [{"type": "call", "side": 0, "call": "truco"}], [{"type": "adjust", "side": 0, "delta": 11}]],
                 ["hand", "trick", "shared", "answer", "ladder"]),
    "argentino-30": ({"flor": True}, [[], [{"type": "call", "side": 0, "call": "envido"}], [{"type": "call", "side": 0, "call": "flor"}]],
                     ["hand", "trick", "shared", "answer", "ladder", "envido", "falta"]),
    "truco-15": ({}, [[], [{"type": "call", "side": 0, "call": "envido"}, {"type": "quiero", "side": 1}]],
                 ["hand", "trick", "shared", "answer", "ladder", "envido", "falta"]),
}


@pytest.mark.parametrize("variant", sorted(SCRIPTS))
def test_the_same_places_in_every_state(variant):
    options, scripts, rows = SCRIPTS[variant]
    seen = []
    for script in scripts:
        m = Match(variant, options)
        for action in script:
            m.apply(action)
        buttons = board_view(say_state(m.state()), gettext.NullTranslations()).buttons
        assert [r.name for r in buttons.rows] == rows
        assert buttons.extra == ()
        seen.append([[c.slot for c in r.cells] for r in buttons.rows])
    assert all(s == seen[0] for s in seen)


@pytest.mark.parametrize(("lang", "note"), [("en", "wins the game"), ("pt_BR", "ganha o jogo"), ("es", "gana el partido")])
def test_a_falta_that_wins_the_game_says_so(catalog, lang, note):
    """uruguaio's default Falta in the malas is worth the game (docs/rules.md §Falta Envido, "malas wins
    the game"): its button says so instead of showing no worth (a tester's finding)."""
    state = Match("uruguaio").state()
    falta = next(a for a in state["legal_actions"] if a.get("call") == "falta_envido" and a["side"] == 0)
    assert falta["points"] is None
    table = board.Table("uruguaio", ["Nós", "Eles"], state["hand"], catalog(lang))
    assert board.points_note(falta, table) == note


@pytest.mark.parametrize(("variant", "first", "second"), [
    # A second Envido is "quiero y envido" at a Venezuelan table (STEEMIT-VE, BUENASTAREAS-VE; docs/rules.md
    # §Truco venezolano) and the torne at a Valencian one (MURAL-UV; docs/rules.md §Valencian truc).
    ("venezolano", "¡Envido!", "¡Quiero y envido!"),
    ("truc-valencia", "Envide!", "Torne!"),
    ("truco-15", "¡Envido!", "¡Envido!"),  # a Rioplatense table says it again
])
def test_a_call_over_the_same_call_says_the_tables_words(variant, first, second):
    match = Match(variant)
    state = match.state(["Nós", "Eles"])
    table = board.Table(variant, ["Nós", "Eles"], state["hand"], gettext.NullTranslations())
    assert board.action_label({"type": "call", "side": 0, "call": "envido"}, table) == first
    match.apply({"type": "call", "side": 0, "call": "envido"})
    state = match.state(["Nós", "Eles"])
    table = board.Table(variant, ["Nós", "Eles"], state["hand"], gettext.NullTranslations())
    assert board.action_label({"type": "call", "side": 1, "call": "envido"}, table) == second


@pytest.mark.parametrize(("amount", "label", "spoken"), [
    # docs/rules.md §Open Envido raises: "N más", the table's number words. Found by trying it as a
    # player: past fifteen the words ("¡Diecinueve más!") were cut in the raise's narrow place at
    # 360 px; the button writes those in digits, the log and the spoken line keep the words.
    (3, "¡Tres más!", "Tres más"),
    (14, "¡Catorce más!", "Catorce más"),
    (16, "¡16 más!", "Dieciséis más"),
    (19, "¡19 más!", "Diecinueve más"),
    (22, "¡22 más!", "Veintidós más"),
])
def test_an_open_raise_button_keeps_its_number_whole(amount, label, spoken):
    match = Match("venezolano")
    match.apply({"type": "call", "side": 0, "call": "envido"})
    state = match.state(["Nós", "Eles"])
    table = board.Table("venezolano", ["Nós", "Eles"], state["hand"], gettext.NullTranslations())
    raise_by = {"type": "call", "side": 1, "call": "envido_mas", "amount": amount}
    assert board.action_label(raise_by, table) == label
    assert board.call_name("venezolano", "envido_mas", amount) == spoken
