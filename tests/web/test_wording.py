"""Issue 13 items 5 and 12: words a player at that table would say.

Every log line and every error template is rendered in pt-BR, es and en with a plural name
pair (Nós/Eles, Nosotros/Ellos, Us/Them) and a singular one (Ana/Beto), and checked against
the glossary of docs/rules.md §Table words: a side's name is never the subject of a
conjugated verb (it is a label, "Ana: ...", or follows "por/de/para/by/to..."), each variant's
calls come from its own table's words on every page, and no placeholder is left unfilled.
"""

import re
from pathlib import Path

import pytest
from flask_babel import force_locale

from scorer.core.match import LogKind, Match
from scorer.present.log_words import say_state
from scorer.core.variants import TABLE_WORDS, VARIANTS
from scorer.web import create_app
from scorer.web.i18n import translator
from tests.engine_notation import action
from tests.core.match.test_refusal_messages import CASES, refuse

LOCALES = ("pt_BR", "es", "en", "ca")
PLURAL = {"pt_BR": ("Nós", "Eles"), "es": ("Nosotros", "Ellos"), "en": ("Us", "Them"), "ca": ("Nosaltres", "Ells")}
SINGULAR = ("Ana", "Beto")

# Scripts that, between them, produce every log template of the engine.
SCRIPTS = [
    ("truco-15", {}, "0:truco 1:quiero w0"),
    ("truco-15", {}, "0:truco 1:retruco 0:no_quiero"),
    ("truco-15", {}, "0:envido 1:no_quiero"),
    ("truco-15", {}, "0:envido 1:quiero ew0"),
    ("truco-15", {}, "0:real_envido 1:quiero ep27-30"),
    ("truco-15", {}, "t0 tp t1"),
    ("truco-15", {}, "1:mazo a0+3"),
    ("truco-15", {}, "a0+14 0:truco 1:quiero w0"),
    ("argentino-30", {"flor": True}, "0:flor 1:no_flor"),
    ("argentino-30", {"flor": True}, "0:envido 1:flor 0:no_flor"),
    ("argentino-30", {"flor": True}, "0:flor 1:no_quiero"),
    ("argentino-30", {}, "0:mazo"),
    ("uruguaio", {}, "0:truco 1:quiero 1:retruco 0:quiero w1"),
    ("paulista", {}, "0:truco 1:seis 0:no_quiero"),
    ("paulista", {}, "a0+11 s0:play w0"),
    ("paulista", {}, "a1+11 s1:play tp tp tp"),
    ("paulista", {}, "a0+11 a1+11 w1"),
    ("mineiro", {}, "0:mazo a0+10 s0:run"),
    ("truc", {}, "0:truc t0 t0"),
    ("truc", {}, "a0+11 s0:play w0"),
    ("gauderio", {}, "a0+11 0:truco 1:quiero w0"),
    ("gauderio", {}, "t0 a0+11 a1+12 t0"),
    ("gauderio", {}, "0:flor 1:contraflor ep30-20 1:mazo"),
    ("venezolano", {}, "0:envido 1:envido 0:quiero ep33-37 0:truco 1:retruco 0:vale_nueve 1:vale_juego 0:quiero w1"),
    ("venezolano", {}, "0:flor 1:no_flor 1:truco 0:no_quiero"),
]

# Words a table of each family never says (docs/rules.md §Table words).
FOREIGN = {
    "rio": ["quero", "Quero", "correram", "Corremos", "Vale quatro"],
    "gaucho": ["quiero", "Quiero", "Vale cuatro", "Vale Cuatro", "al resto", "mazo"],
    "br": ["quiero", "Quiero", "mazo", "parda", "Parda", "Vale"],
    "ve": ["quero", "Quero", "correram", "Corremos", "Vale quatro", "Vale cuatro"],
    "cat": ["quiero", "Quiero", "quero", "Quero", "mão de onze", "Mão de onze", "mão de ferro", "Mão de ferro", "correram"],
}

# What may stand right before a side's name: a label start, a preposition, or points.
BEFORE_NAME = re.compile(
    r"(^|[.!] |\(|: |\bpor |\bde |\bof |\bby |\bfor |\bpara |\bfrom |\bto |\bcabe a |\btoca a |\+\d+ |victoria de |vitória de |won by |\bper |\bper a |victòria de )$"
)


def name_uses(text, names):
    """Each place a name appears: (what comes before it, the character after it)."""
    for name in names:
        for found in re.finditer(re.escape(name), text):
            yield name, text[: found.start()], text[found.end(): found.end() + 1]


def check_names(text, names):
    for name, before, after in name_uses(text, names):
        tail = before[-12:]
        if re.search(r"(^|[.!] )$", before):  # a sentence starting with the name: a label
            assert after == ":", (name, text)
        else:
            assert BEFORE_NAME.search(tail), (name, tail, text)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app({"TESTING": True, "DATABASE": tmp_path_factory.mktemp("w") / "w.sqlite3"})


def played(variant, options, script):
    match = Match(variant, options, 0)
    for token in script.split():
        match.apply(action(token))
    return match


@pytest.fixture(scope="module")
def logs(app):
    """Every script's log, rendered in each language with both name pairs."""
    out = []
    with app.test_request_context():
        for locale in LOCALES:
            with force_locale(locale):
                translate = translator()
                for variant, options, script in SCRIPTS:
                    match = played(variant, options, script)
                    for names in (PLURAL[locale], SINGULAR):
                        for entry in say_state(match.state(names), translate)["log"]:
                            out.append((locale, variant, names, entry["text"]))
    return out


def test_every_log_template_is_exercised():
    # The log's sentences live in the presentation module (the core holds facts): every
    # kind of fact and every template that says one is produced by the scripts above.
    source = Path("scorer/present/log_words.py").read_text()
    templates = set(re.findall(r'N_\("([^"]+)"\)', source))
    seen, kinds = set(), set()
    for variant, options, script in SCRIPTS:
        state = played(variant, options, script).state()
        kinds.update(fact.kind for entry in state["log"] for fact in entry.facts)
        say_state(state, lambda template: seen.add(template) or template)
    assert kinds == set(LogKind), set(LogKind) - kinds
    assert templates and templates <= seen, templates - seen


def test_log_lines_read_right_with_any_name(logs):
    assert logs
    for locale, variant, names, text in logs:
        assert "{" not in text and "}" not in text and "?" not in text, text
        check_names(text, names)


def test_log_lines_use_the_variants_own_table_words(logs):
    for locale, variant, names, text in logs:
        family = VARIANTS[variant].family
        for word in FOREIGN[family]:
            assert word not in text, (variant, locale, word, text)


@pytest.mark.parametrize("locale", LOCALES)
def test_rioplatense_shouts_keep_their_inverted_mark_on_every_page(logs, locale):
    shouts = [text for loc, variant, _n, text in logs if loc == locale and VARIANTS[variant].family == "rio" and "Truco!" in text]
    assert shouts and all("¡Truco!" in text for text in shouts)
    brazilian = [text for loc, variant, _n, text in logs if loc == locale and VARIANTS[variant].family == "br"]
    assert brazilian and not any("¡" in text for text in brazilian)


@pytest.mark.parametrize("locale", LOCALES)
def test_paulista_ties_are_empate_on_every_page(logs, locale):
    """docs/rules.md §Pardas (Truco Paulista, "Rodadas e empates"): a tied trick is an "empate" at a Paulista table."""
    ties = [t for loc, v, _n, t in logs if loc == locale and v == "paulista" and re.search(r"(rodada|Baza \d|Trick \d|Basa \d)", t)]
    assert ties and all("empate" in t and "parda" not in t for t in ties), ties


def test_catalan_special_hand_is_said_in_the_page_language(logs):
    expected = {"pt_BR": "Regra dos 11", "es": "Regla de los 11 puntos", "en": "11-point rule", "ca": "Regla dels 11 punts"}
    for locale, word in expected.items():
        texts = [t for loc, v, _n, t in logs if loc == locale and v == "truc" and "11" in t and "+" not in t[:2]]
        assert any(word in t for t in texts), (locale, texts)


@pytest.mark.parametrize(("locale", "line"), [
    ("pt_BR", "Fim de jogo, vitória de Ana: 13 a 0."),
    ("es", "Fin del partido, victoria de Ana: 13 a 0."),
    ("en", "Game over, won by Ana: 13 to 0."),
    ("ca", "Fi de la partida, victòria de Ana: 13 a 0."),
])
def test_gauderio_end_of_game_line_gives_the_losers_score(logs, locale, line):
    texts = [t for loc, v, names, t in logs if loc == locale and v == "gauderio" and names == SINGULAR]
    assert any(line in t for t in texts), texts


@pytest.mark.parametrize("locale", LOCALES)
def test_every_error_template_reads_right_with_any_name(app, locale):
    with app.test_request_context(), force_locale(locale):
        translate = translator()
        for variant, options, script, refused, code, _facts in CASES:
            error = refuse(variant, options, script, refused)
            for names in (PLURAL[locale], SINGULAR):
                message = error.render(translate, names)
                assert "{" not in message and "side 0" not in message and "side 1" not in message, message
                check_names(message, names)
                family = VARIANTS[variant].family
                for word in FOREIGN[family]:
                    if word in ("mazo", "quiero", "Quiero", "quero", "Quero"):
                        continue  # action ids (no_quiero, mazo) may be named in an error
                    assert word not in message, (variant, locale, word, message)


def test_table_words_are_data_on_the_variant_registry():
    assert {variant.family for variant in VARIANTS.values()} == set(TABLE_WORDS)
    for variant in VARIANTS.values():
        calls = {step.call for step in variant.truco_ladder}
        assert calls <= set(variant.words.shouts) and calls <= set(variant.words.calls), variant.id
    assert TABLE_WORDS["gaucho"].calls["vale_cuatro"] == "Vale quatro"
    assert TABLE_WORDS["rio"].shouts["truco"] == "¡Truco!" and TABLE_WORDS["br"].shouts["seis"] == "Seis!"


@pytest.mark.parametrize(("locale", "one", "three"), [
    ("pt_BR", 'Esperava 1 carta em "7o 6o", mas vieram 2.', 'Esperava 3 cartas em "7o", mas vieram 1.'),
    ("es", 'Hace falta 1 carta en "7o 6o" y hay 2.', 'Hacen falta 3 cartas en "7o" y hay 1.'),
    ("en", 'Expected 1 card in "7o 6o", got 2.', 'Expected 3 cards in "7o", got 1.'),
])
def test_card_counts_use_ngettext(app, locale, one, three):
    from scorer.core.cards import parse_card, parse_hand
    from scorer.core.errors import CardError

    with app.test_request_context(), force_locale(locale):
        translate = translator()
        with pytest.raises(CardError) as single:
            parse_card("7o 6o")
        with pytest.raises(CardError) as hand:
            parse_hand("7o")
        assert single.value.render(translate) == one
        assert hand.value.render(translate) == three


@pytest.mark.parametrize(("headers", "winner", "pending"), [
    ({"Accept-Language": "pt-BR"}, "Vitória: Ana!", "Truco de Ana: falta responder"),
    ({"Accept-Language": "es"}, "¡Partido para Ana!", "Truco de Ana: falta la respuesta"),
    ({"Accept-Language": "en"}, "Winner: Ana!", "Truco by Ana: waiting for an answer"),
])
def test_board_lines_read_right_with_a_singular_name(client, headers, winner, pending):
    from tests.web_client import act, new_match

    path, _id, _key = new_match(client, "truco-15", name0="Ana", name1="Beto")
    act(client, path, {"type": "call", "side": 0, "call": "truco"}, 0)
    html = client.get(path, headers=headers).get_data(as_text=True)
    assert pending in html and "¡Truco! de" not in html
    act(client, path, {"type": "quiero", "side": 1}, 1)
    act(client, path, {"type": "adjust", "side": 0, "delta": 15}, 2)
    html = client.get(path, headers=headers).get_data(as_text=True)
    assert winner in html, winner
    assert "Ana ganharam" not in html and "Ana ganaron" not in html and "Ana won" not in html


@pytest.mark.parametrize(("headers", "label"), [
    ({"Accept-Language": "en"}, "Me voy al mazo (fold)"),
    ({"Accept-Language": "es"}, "Me voy al mazo"),
])
def test_english_pages_gloss_the_table_words(client, headers, label):
    from tests.web_client import new_match

    path, _id, _key = new_match(client, "truco-15")
    labels = re.findall(r'<span class="label">([^<]*)</span>', client.get(path, headers=headers).get_data(as_text=True))
    assert label in labels and "¡Truco!" in labels


def test_a_pending_flor_has_one_button_per_action(client):
    from tests.web_client import act, new_match

    path, _id, _key = new_match(client, "argentino-30", flor="True")
    act(client, path, {"type": "call", "side": 0, "call": "flor"}, 0)
    labels = re.findall(r'<span class="label">([^<]*)</span>', client.get(path, headers={"Accept-Language": "es"}).get_data(as_text=True))
    assert "Con flor quiero" in labels and "¡Flor!" not in labels
