"""The presentation module (scorer/present/log_words.py): each kind of log fact said in
pt-BR, es and en, with the sides' names and the variant's table words.

Expected sentences are the log as it read before the log became data (issue 10: no change
of behaviour; each one was checked against a capture of that version's ``truco replay`` and
web pages), in the words of docs/rules.md §Table words: Rioplatense "querido / no
querido", Paulista "correram" and "empate", gaúcho "Vou pro baralho", Catalan truc's words
in the page's language; a side's name is a label or follows a preposition.
"""

import json

import pytest
from flask_babel import force_locale

from scorer.cli.cli_lang import translator as cli_translator
from scorer.core.match import LogFact as F
from scorer.core.match import LogKind as K
from scorer.core.variants import VARIANTS
from scorer.present.log_words import SAYINGS, say_entry, say_facts, say_state
from scorer.web import create_app
from scorer.web.i18n import translator as web_translator
from tests.engine_notation import play
from tests.web.test_wording import SCRIPTS

NAMES = {"pt": ("Nós", "Eles"), "es": ("Nosotros", "Ellos"), "en": ("Us", "Them"), "ca": ("Nosaltres", "Ells")}

# variant, fact, then the sentence in pt-BR, es, en (NAMES of that language)
SENTENCES = [
    ("truco-15", F(K.CALL, side=0, call='truco'),
     'Nós: ¡Truco!', 'Nosotros: ¡Truco!', 'Us: ¡Truco!'),
    ("paulista", F(K.CALL, side=1, call='seis'),
     'Eles: Seis!', 'Ellos: Seis!', 'Them: Seis!'),
    ("truco-15", F(K.QUIERO, side=1, call='truco', value=2),
     'Truco querido por Eles: a mão vale 2.', 'Truco querido por Ellos: la mano vale 2.', 'Truco querido by Them: the hand is worth 2.'),
    ("paulista", F(K.QUIERO, side=1, call='truco', value=3),
     'Truco aceito por Eles: a mão vale 3.', 'Truco aceito por Ellos: la mano vale 3.', 'Truco aceito by Them: the hand is worth 3.'),
    ("truco-15", F(K.QUIERO, side=1, call='envido'),
     'Envido querido por Eles.', 'Envido querido por Ellos.', 'Envido querido by Them.'),
    ("truc", F(K.PLAYED_ON, side=1, call='truc', value=2),
     'Truc: aceito ao seguir jogando, a mão vale 2.', 'Truc: aceptado al seguir jugando, la mano vale 2.', 'Truc: accepted by playing on, the hand is worth 2.'),
    ("truco-15", F(K.TRUCO_REFUSED, side=0, call='retruco'),
     'Retruco: no querido.', 'Retruco: no querido.', 'Retruco: no querido.'),
    ("paulista", F(K.TRUCO_REFUSED, side=0, call='seis'),
     'Seis: correram.', 'Seis: correram.', 'Seis: correram.'),
    ("truc", F(K.TRUCO_REFUSED, side=0, call='truc'),
     'Truc: recusado.', 'Truc: rechazado.', 'Truc: refused.'),
    ("truco-15", F(K.ENVIDO_REFUSED, side=0, chain=('envido', 'real_envido'), points=2),
     'Envido, Real envido: no querido, +2 Nós.', 'Envido, Real envido: no querido, +2 Nosotros.', 'Envido, Real envido: no querido, +2 Us.'),
    ("argentino-30", F(K.FLOR_REFUSED, side=0, call='flor', points=3),
     'Flor: no querida, +3 Nós.', 'Flor: no querida, +3 Nosotros.', 'Flor: no querida, +3 Us.'),
    ("argentino-30", F(K.FLOR_REFUSED, side=0, call='contraflor_al_resto', points=4),
     'Contraflor al resto: no querida, +4 Nós.', 'Contraflor al resto: no querida, +4 Nosotros.', 'Contraflor al resto: no querida, +4 Us.'),
    # The word agrees with the call (WORDING-REVIEW 4a: "falta envido no querida"; issue 33: the
    # log said "Flor querido").
    ("argentino-30", F(K.QUIERO, side=1, call='flor'),
     'Flor querida por Eles.', 'Flor querida por Ellos.', 'Flor querida by Them.'),
    ("truco-15", F(K.CHAIN_WON, side=0, chain=('envido', 'falta_envido'), points=15),
     'Envido, Falta envido: querida, +15 Nós.', 'Envido, Falta envido: querida, +15 Nosotros.', 'Envido, Falta envido: querida, +15 Us.'),
    ("truco-15", F(K.ENVIDO_REFUSED, side=0, chain=('falta_envido',), points=1),
     'Falta envido: no querida, +1 Nós.', 'Falta envido: no querida, +1 Nosotros.', 'Falta envido: no querida, +1 Us.'),
    ("gauderio", F(K.FLOR_REFUSED, side=0, call='contraflor', points=4),
     'Contraflor: recusada, +4 Nós.', 'Contraflor: recusada, +4 Nosotros.', 'Contraflor: recusada, +4 Us.'),
    ("argentino-30", F(K.FLOR_UNCONTESTED, side=0, points=3),
     'Flor sem resposta (sem Flor para Eles): +3 Nós.', 'Flor sin respuesta (sin flor para Ellos): +3 Nosotros.', 'Flor uncontested (no Flor for Them): +3 Us.'),
    ("argentino-30", F(K.FLOR_CANCELS_ENVIDO, chain=('envido',)),
     'A Flor anula o Envido.', 'La Flor anula el Envido.', 'The Flor cancels the Envido.'),
    ("truco-15", F(K.CHAIN_WON, side=0, chain=('envido',), points=2),
     'Envido: querido, +2 Nós.', 'Envido: querido, +2 Nosotros.', 'Envido: querido, +2 Us.'),
    ("argentino-30", F(K.CHAIN_WON, side=1, chain=('real_envido',), points=3, counts=(29, 28)),
     'Real envido: querido, 29 a 28, +3 Eles.', 'Real envido: querido, 29 a 28, +3 Ellos.', 'Real envido: querido, 29 to 28, +3 Them.'),
    ("truco-15", F(K.TRICK, side=0, number=1),
     'Rodada 1: Nós.', 'Baza 1: Nosotros.', 'Trick 1: Us.'),
    ("truco-15", F(K.TRICK, number=2),
     '2ª rodada: parda.', 'Baza 2: parda.', 'Trick 2: parda.'),
    ("paulista", F(K.TRICK, number=1),
     '1ª rodada: empate.', 'Baza 1: empate.', 'Trick 1: empate.'),
    ("truc", F(K.TRICK, number=3),
     '3ª rodada: empate.', 'Baza 3: parda.', 'Trick 3: tie.'),
    ("truco-15", F(K.HAND, side=1, points=2, number=3),
     'Mão 3: +2 Eles.', 'Mano 3: +2 Ellos.', 'Hand 3: +2 Them.'),
    ("paulista", F(K.HAND, points=0, number=2),
     'Mão 2: ninguém pontua.', 'Mano 2: nadie suma.', 'Hand 2: nobody scores.'),
    ("truco-15", F(K.MAZO, side=1),
     'Me voy al mazo: Eles.', 'Me voy al mazo: Ellos.', 'Me voy al mazo: Them.'),
    ("paulista", F(K.MAZO, side=0),
     'Corremos da mão: Nós.', 'Corremos da mão: Nosotros.', 'Corremos da mão: Us.'),
    ("gauderio", F(K.MAZO, side=0),
     'Vou pro baralho: Nós.', 'Vou pro baralho: Nosotros.', 'Vou pro baralho: Us.'),
    ("argentino-30", F(K.MAZO_BONUS, side=1),
     'Foi ao mazo na primeira sem Envido cantado: +1.', 'Al mazo en primera sin envido cantado: +1 (por el envido).', 'Folded before the Envido: +1 more.'),
    ("paulista", F(K.SPECIAL_PLAYED, side=0, value=3, special='mao_de_onze'),
     'Mão de onze jogada por Nós: a mão vale 3, sem trucar.', 'Mão de onze jugada por Nosotros: la mano vale 3, sin cantos.', 'Mão de onze played by Us: the hand is worth 3, no betting.'),
    ("truc", F(K.SPECIAL_PLAYED, side=0, value=3, special='mao_de_onze'),
     'Regra dos 11 jogada por Nós: a mão vale 3, sem trucar.', 'Regla de los 11 puntos jugada por Nosotros: la mano vale 3, sin cantos.', '11-point rule played by Us: the hand is worth 3, no betting.'),
    ("mineiro", F(K.SPECIAL_RUN, side=0, special='mao_de_dez'),
     'Mão de dez recusada por Nós.', 'Mão de dez rechazada por Nosotros.', 'Mão de dez refused by Us.'),
    ("truco-15", F(K.CORRECTION, side=0, points=3),
     'Correção: +3 Nós.', 'Corrección: +3 Nosotros.', 'Correction: +3 Us.'),
    ("truco-15", F(K.CORRECTION, side=1, points=-1),
     'Correção: -1 Eles.', 'Corrección: -1 Ellos.', 'Correction: -1 Them.'),
    ("truco-15", F(K.CAPPED, points=2, target=15, counted=1),
     'O placar para em 15: contam 1 de 2.', 'El tanteador se corta en 15: cuentan 1 de 2.', '15 caps the score: 1 of 2 counted.'),
    ("truco-15", F(K.GAME_OVER, side=0, target=15),
     '15 para Nós: fim de jogo, vitória de Nós.', '15 para Nosotros: fin del partido, victoria de Nosotros.', '15 for Us: game over, won by Us.'),
    ("gauderio", F(K.GAME_OVER_AT_HAND_END, side=0, totals=(13, 0)),
     'Fim de jogo, vitória de Nós: 13 a 0.', 'Fin del partido, victoria de Nosotros: 13 a 0.', 'Game over, won by Us: 13 to 0.'),
    ("gauderio", F(K.TIE_PLAYS_ON, target=12),
     'Os dois lados passaram de 12 empatados: mais uma mão.', 'Los dos pasaron 12 empatados: otra mano.', 'Both sides passed 12 with equal totals: another hand.'),
]


def test_every_kind_of_fact_has_a_saying_and_a_row():
    assert set(SAYINGS) == set(K)
    assert {fact.kind for _v, fact, *_said in SENTENCES} == set(K)


@pytest.mark.parametrize(("variant", "fact", "pt", "es", "en"), SENTENCES)
def test_each_fact_is_said_in_three_languages(variant, fact, pt, es, en):
    for lang, expected in (("pt", pt), ("es", es), ("en", en)):
        assert say_facts([fact], NAMES[lang], cli_translator(lang), VARIANTS[variant].words) == expected


@pytest.mark.parametrize(("variant", "script", "names", "text"), [
    # An entry's facts are one text, in order: the hand, the cap, the end (issue 13 item 4).
    ("truco-15", "a0+14 0:truco 1:quiero w0", ("Ana", "Beto"),
     "Hand 1: +1 Ana. 15 caps the score: 1 of 2 counted. 15 for Ana: game over, won by Ana."),
    # A raise that answers a truco accepts it first (two facts of one action).
    ("truco-15", "0:truco 1:retruco", ("Nós", "Eles"), "Truco querido by Eles: the hand is worth 2. Eles: ¡Quiero retruco!"),
    # A fold facing an Envido refuses it, then pays the hand.
    ("truco-15", "0:envido 1:mazo", ("Nós", "Eles"), "Me voy al mazo: Eles. Envido: no querido, +1 Nós. Hand 1: +1 Nós."),
])
def test_an_entry_is_its_facts_said_in_order(variant, script, names, text):
    entry = play(variant, script).state(names)["log"][-1]
    assert say_facts(entry.facts, names, words=VARIANTS[variant].words) == text


def test_without_translate_or_words_it_is_english_at_a_rioplatense_table():
    assert say_facts([F(K.CALL, side=0, call="retruco"), F(K.TRICK, number=1)], ("A", "B")) == "A: ¡Quiero retruco! Trick 1: parda."


def test_say_state_gives_the_wire_form_and_changes_nothing_else():
    match = play("paulista", "a0+11 s0:play w0", mano=1)
    state = match.state(("Ana", "Beto"))
    said = say_state(state, cli_translator("pt"))
    assert list(said) == list(state)  # every key where it was (truco replay prints them in order)
    assert {key: value for key, value in said.items() if key != "log"} == {k: v for k, v in state.items() if k != "log"}
    assert said["log"] == [
        {"index": 0, "action": {"type": "adjust", "side": 0, "delta": 11}, "delta": [11, 0], "score": [11, 0], "hand": 1,
         "text": "Correção: +11 Ana."},
        {"index": 1, "action": {"type": "special_hand", "side": 0, "decision": "play"}, "delta": [0, 0], "score": [11, 0],
         "hand": 1, "text": "Mão de onze jogada por Ana: a mão vale 3, sem trucar."},
        {"index": 2, "action": {"type": "hand_winner", "side": 0}, "delta": [1, 0], "score": [12, 0], "hand": 1,
         "text": "Mão 1: +1 Ana. O placar para em 12: contam 1 de 3. 12 para Ana: fim de jogo, vitória de Ana."},
    ]
    assert [list(entry) for entry in said["log"]][0] == ["index", "action", "delta", "score", "hand", "text"]
    json.dumps(said)
    assert say_entry(state["log"][0], ("Ana", "Beto"), cli_translator("pt"), match.variant.words) == said["log"][0]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app({"TESTING": True, "DATABASE": tmp_path_factory.mktemp("w") / "w.sqlite3"})


@pytest.mark.parametrize(("locale", "lang"), [("pt_BR", "pt"), ("es", "es"), ("en", "en"), ("ca", "ca")])
def test_the_web_and_the_command_line_say_the_same_log(app, locale, lang):
    """One module for both edges: with the page's translations (Flask-Babel) and the
    command line's (``--lang``), every script's log reads the same."""
    with app.test_request_context(), force_locale(locale):
        for variant, options, script in SCRIPTS:
            state = play(variant, script, options=options).state(NAMES[lang])
            assert say_state(state, web_translator()) == say_state(state, cli_translator(lang))


@pytest.mark.parametrize(("variant", "second"), [
    ("venezolano", "Eles: ¡Quiero y envido!"),   # STEEMIT-VE, BUENASTAREAS-VE (docs/rules.md §Truco venezolano)
    ("truc-valencia", "Eles: Torne!"),          # MURAL-UV (docs/rules.md §Valencian truc)
    ("truco-15", "Eles: ¡Envido!"),
])
def test_the_log_says_a_second_envido_as_the_table_does(variant, second):
    state = play(variant, "0:envido 1:envido").state(["Nós", "Eles"])
    texts = [entry["text"] for entry in say_state(state)["log"]]
    assert texts[-1] == second
