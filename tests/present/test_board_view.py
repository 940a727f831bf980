"""scorer/present/board_view.py: the scoreboard's typed view model, built from the engine's
state with a plain :mod:`gettext` catalog (no Flask), as a page without the server builds it.

The tables give, for states of the rule texts, each place's button: its words, its points
note and what it pays at once, the points being the rule's (docs/rules.md)."""

from __future__ import annotations

import doctest
import json

import pytest

from scorer.core.match import Match
from scorer.core.schema import bare_action
from scorer.core.series import series_status
from scorer.present import board_view as view_module
from scorer.present.board_buttons import Button
from scorer.present.board_view import board_view
from scorer.present.log_words import say_state

TRUCO = {"type": "call", "side": 0, "call": "truco"}
ENVIDO = {"type": "call", "side": 0, "call": "envido"}

#: (variant, options, actions, language, {place: (label, note, pays)}): the places named are
#: checked, with each row's rule.
STATES = {
    # docs/rules.md §Paulista ladder: Truco 3 (refused 1), Seis 6: the answer pays the refusal at
    # once, accepting pays later, the raise says what it is worth.
    "paulista-truco-answered": ("paulista", {}, [TRUCO], "pt_BR", {
        "1-yes": ("Quero", "", None),
        "1-no": ("Não quero", "+1 Nós", (1, 0)),
        "1-call": ("Seis!", "vale 6", None),
        "1-mazo": ("Corremos da mão", "+1 Nós", (1, 0)),
        "0-yes": None, "0-call": None,
    }),
    # docs/rules.md §Mão de onze: the side at 11 decides; run, the other side gets 1; no truco.
    "paulista-mao-de-onze": ("paulista", {}, [{"type": "adjust", "side": 0, "delta": 11}], "pt_BR", {
        "0-yes": ("Jogamos a mão de onze", "", None),
        "0-no": ("Corremos", "+1 Eles", (0, 1)),
        "0-call": None, "1-call": None,
    }),
    # docs/rules.md §Envido chains: an accepted Envido is worth 2 to the better count.
    "argentino-envido-accepted": ("argentino-30", {}, [ENVIDO, {"type": "quiero", "side": 1}], "pt_BR", {
        "0-yes": ("Ganhou o Envido", "+2 Nós", (2, 0)),
        "1-yes": ("Ganhou o Envido", "+2 Eles", (0, 2)),
        "0-envido": None, "1-call": None,
    }),
    # docs/rules.md §Falta Envido: uruguaio's default (C) in the malas gives the winner the game;
    # §Envido chains: Envido 2, Real Envido 3; §Argentine ladder: Truco 2; §Flor values: Flor 3.
    "uruguaio-first-hand": ("uruguaio", {}, [], "es", {
        "0-hand": ("Ganó la mano", "+1 Nós", (1, 0)),
        "0-call": ("¡Truco!", "vale 2", None),
        "0-mazo": ("Me voy al mazo", "+1 Eles", (0, 1)),
        "0-envido": ("¡Envido!", "vale 2", None),
        "0-real": ("¡Real envido!", "vale 3", None),
        "0-falta": ("¡Falta envido!", "gana el partido", None),
        "0-flor": ("¡Flor!", "vale 3", None),
        "s-parda": ("Parda", "", None),
    }),
    # docs/rules.md §Mineiro ladder: a hand is worth 2, Truco 4; §Pardas: after a first parda the
    # next trick decides the hand, and three pardas score nothing in Mineiro; §Table words:
    # Mineiro says "Empate", and English pages gloss the fold.
    "mineiro-after-a-parda": ("mineiro", {}, [{"type": "trick", "winner": None}], "en", {
        "0-trick": ("Won the trick", "+2 Nós", (2, 0)),
        "s-parda": ("Empate", "", None),
        "s-tie": ("Nobody wins the hand", "", None),
        "1-call": ("Truco!", "worth 4", None),
        "1-mazo": ("Corremos da mão (fold)", "+2 Nós", (2, 0)),
    }),
}


def build(catalog, variant, options, actions, lang, **kw):
    m = Match(variant, options)
    for action in actions:
        m.apply(action)
    state = say_state(m.state(), catalog(lang).gettext)
    return board_view(state, catalog(lang), gloss=lang == "en", **kw), m


@pytest.mark.parametrize("name", sorted(STATES))
def test_each_place_holds_the_button_the_rules_say(catalog, name):
    variant, options, actions, lang, expected = STATES[name]
    board, _m = build(catalog, variant, options, actions, lang)
    cells = {c.slot: c for row in board.buttons.rows for c in row.cells}
    shown = {slot: None if cells[slot].button is None else
             (cells[slot].button.label, cells[slot].button.note, cells[slot].button.pays) for slot in expected}
    assert shown == expected


@pytest.mark.parametrize("name", sorted(STATES))
def test_a_button_posts_the_engines_action_from_its_own_place(catalog, name):
    """Each button is made once, with its place: the place it sits in is the place it names, and
    its JSON is one of the engine's legal actions, as posted."""
    variant, options, actions, lang, _expected = STATES[name]
    board, m = build(catalog, variant, options, actions, lang)
    legal = [json.dumps(bare_action(a), separators=(",", ":"), sort_keys=True)
             for a in m.legal_actions() if a["type"] != "declare_points"]
    buttons = [c.button for row in board.buttons.rows for c in row.cells if c.button]
    assert all(c.button.place == c.slot for row in board.buttons.rows for c in row.cells if c.button)
    every = [*buttons, *board.buttons.extra, *board.buttons.adjust[0], *board.buttons.adjust[1], board.buttons.undo]
    assert sorted(b.json for b in every if b) == sorted(legal)


def test_corrections_and_undo_are_off_the_pad(catalog):
    board, _m = build(catalog, "paulista", {}, [{"type": "adjust", "side": 1, "delta": 1}], "pt_BR",
                      last_action={"type": "adjust", "side": 1, "delta": 1})
    assert board.buttons.adjust[1] == (
        Button("-1", "", '{"delta":-1,"side":1,"type":"adjust"}', "adjust", (0, -1), None),
        Button("+1", "", '{"delta":1,"side":1,"type":"adjust"}', "adjust", (0, 1), None))
    assert board.buttons.undo == Button("Desfazer", "", '{"type":"undo"}', "undo", None, None)
    assert board.adjust_open and board.delta == (0, 1)


def test_malas_and_buenas_are_drawn_and_named(catalog):
    """docs/rules.md §Malas and buenas: uruguaio to 30, malas 15; 17 is 2 in the buenas."""
    board, _m = build(catalog, "uruguaio", {}, [{"type": "adjust", "side": 0, "delta": 17}], "es")
    assert [(p.stage, p.name, p.squares) for p in board.tallies[0]] == [
        ("malas", "malas", (5, 5, 5)), ("buenas", "buenas", (2,))]
    assert [(s.stage, s.points) for s in board.stages] == [("buenas", 2), ("malas", 0)]
    assert board.announce.startswith("Nós 17, en buenas, Eles 0.")


def test_the_board_says_itself_in_the_readers_language(catalog):
    board, _m = build(catalog, "paulista", {}, [TRUCO], "pt_BR", series=series_status((0, 0), 3, 1))
    assert board.pending_call == "Truco" and board.hand.pending_side == 0
    assert board.undo_what == "Nós: Truco!"
    assert board.say == ("Nós 0, Eles 0. Mão 1, vale 1. Truco de Nós: falta responder. "
                         + board.series.sentence)
    assert board.series.title == "Melhor de 3" and board.series.wins == (0, 0)


def test_a_table_of_six_says_who_deals(catalog):
    players = [["Ana", "Bia", "Cris"], ["Davi", "Edu", "Fê"]]
    board, _m = build(catalog, "truco-15", {}, [], "en", players=players, first_mano=0)
    assert board.seats.mano.name == "Ana" and board.seats.sentence.startswith("Ana is mano")


def test_the_examples_run():
    results = doctest.testmod(view_module, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 3 and results.failed == 0
