"""The core returns facts; the edges say them (issue 10): the match log is data.

Each action that counts leaves one :class:`LogEntry` (who acted, the tentos each side won, the
score after) with :class:`LogFact` values (what happened, a closed set of kinds). Nothing
under ``scorer/core/`` writes a log sentence, translates one or imports the presentation
module (``scorer/present/log_words.py`` says them). Expected values come from the rule
texts cited on each row (docs/rules.md, by section).
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path

import pytest

from scorer.core.variants import VARIANTS
from scorer.core.match import LogEntry, LogFact, LogKind, Match
from scorer.core.match.log import NEEDS
from scorer.present import log_words
from tests.engine_notation import play
from tests.web.test_wording import SCRIPTS

CORE = Path("scorer/core")
F, K = LogFact, LogKind


def core_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def test_the_core_imports_no_words_module():
    """No gettext, Babel or presentation module under scorer/core/ (the error layer keeps its
    English templates and is translated at the edges by ``TrucoError.render``)."""
    for path in core_files():
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("scorer.present", "gettext", "babel", "flask_babel")), (path, name)


def test_the_match_engine_never_translates_or_formats_a_log_line():
    for path in sorted((CORE / "match").glob("*.py")):
        tree = ast.parse(path.read_text())
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
            n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)} | {
            n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not names & {"translate", "gettext", "ngettext", "render_lines"}, path
    assert "translate" not in inspect.signature(Match.state).parameters


def test_no_log_template_is_written_in_the_core():
    """Every sentence the presentation module says is absent from the core's source."""
    said: set[str] = set()
    for variant, options, script in SCRIPTS:
        log_words.say_state(play(variant, script, options=options).state(), lambda t: said.add(t) or t)
    templates = {t for t in said if "{" in t or t.endswith(".")}
    assert len(templates) >= len(LogKind)
    source = {path: path.read_text() for path in core_files()}
    for template in templates:
        holders = [str(path) for path, text in source.items() if f'"{template}"' in text]
        assert holders == [], (template, holders)


ID = re.compile(r"^[a-z_]+$")


def plain(value) -> bool:
    """An int, None, an id (``real_envido``) or a tuple of them: never a sentence."""
    if isinstance(value, tuple):
        return all(plain(v) for v in value)
    return value is None or (isinstance(value, int) and not isinstance(value, bool)) or bool(ID.match(str(value)))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_fact_of_a_whole_match_is_plain_data(variant):
    expected = json.loads(Path("tests/matches/expected.json").read_text())
    name, entry = next((n, e) for n, e in sorted(expected.items()) if e["variant"] == variant)
    lines = Path(f"tests/matches/{name}.jsonl").read_text().splitlines()
    match = Match.replay(variant, entry["options"], entry["mano"], [json.loads(line) for line in lines if line.strip()])
    log = match.state(("Ana", "Beto"))["log"]
    assert log and all(isinstance(e, LogEntry) for e in log)
    for e in log:
        assert all(plain(value) for f in e.facts for value in f), e
        assert all(isinstance(f, LogFact) and isinstance(f.kind, LogKind) and f.missing() == () for f in e.facts), e
        assert sum(e.delta) == sum(e.score) - sum(log[e.index - 1].score if e.index else (0, 0))


@pytest.mark.parametrize(("variant", "script", "side", "facts", "delta", "score"), [
    # docs/rules.md §Argentine ladder: a refused Truco pays 1 to the caller; the hand ends.
    ("truco-15", "0:truco 1:no_quiero", 1,
     [F(K.TRUCO_REFUSED, side=1, call="truco"), F(K.HAND, side=0, number=1, points=1)], (1, 0), (1, 0)),
    # docs/rules.md §Argentine ladder: a refused Retruco pays 2 (the Truco accepted).
    ("truco-15", "0:truco 1:retruco 0:no_quiero", 0,
     [F(K.TRUCO_REFUSED, side=0, call="retruco"), F(K.HAND, side=1, number=1, points=2)], (0, 2), (0, 2)),
    # A raise answering a pending call accepts it: Truco worth 2, then Retruco called.
    ("truco-15", "0:truco 1:retruco", 1,
     [F(K.QUIERO, side=1, call="truco", value=2), F(K.CALL, side=1, call="retruco")], (0, 0), (0, 0)),
    # docs/rules.md §Paulista ladder: Seis refused pays 3 (truco 3/1, seis 6/3).
    ("paulista", "0:truco 1:seis 0:no_quiero", 0,
     [F(K.TRUCO_REFUSED, side=0, call="seis"), F(K.HAND, side=1, number=1, points=3)], (0, 3), (0, 3)),
    # docs/rules.md §Reaching the target: the game ends at 15; a Truco won at 14 counts 1 of 2.
    ("truco-15", "a0+14 0:truco 1:quiero w0", None,
     [F(K.HAND, side=0, number=1, points=1), F(K.CAPPED, target=15, counted=1, points=2),
      F(K.GAME_OVER, side=0, target=15)], (1, 0), (15, 0)),
    # Real Envido accepted pays 3; equal counts would go to the mano; 29 beats 27.
    ("truco-15", "0:real_envido 1:quiero ep29-27", None,
     [F(K.CHAIN_WON, side=0, chain=("real_envido",), points=3, counts=(29, 27))], (3, 0), (3, 0)),
    # Envido refused pays 1 to its caller (docs/rules.md §Envido chains).
    ("truco-15", "0:envido 1:no_quiero", 1,
     [F(K.ENVIDO_REFUSED, side=0, chain=("envido",), points=1)], (1, 0), (1, 0)),
    # docs/rules.md §Flor values: Flor uncontested pays 3.
    ("uruguaio", "0:flor 1:no_flor", 1, [F(K.FLOR_UNCONTESTED, side=0, points=3)], (3, 0), (3, 0)),
    # docs/rules.md §Flor cancels Envido: a Flor cancels the Envido called before it.
    ("uruguaio", "0:envido 1:flor", 1,
     [F(K.FLOR_CANCELS_ENVIDO, chain=("envido",)), F(K.CALL, side=1, call="flor")], (0, 0), (0, 0)),
    # docs/rules.md §Mão de onze: played, the hand is worth 3 and nobody may truco.
    ("paulista", "a0+11 s0:play", 0, [F(K.SPECIAL_PLAYED, side=0, special="mao_de_onze", value=3)], (0, 0), (11, 0)),
    # docs/rules.md §Mão de dez (mineiro): running from the mão de dez gives the others 2.
    ("mineiro", "a0+10 s0:run", 0,
     [F(K.SPECIAL_RUN, side=0, special="mao_de_dez"), F(K.HAND, side=1, number=1, points=2)], (0, 2), (10, 2)),
    # docs/rules.md §Pardas: three pardas, nobody scores (paulista).
    ("paulista", "tp tp tp", None, [F(K.TRICK, number=3), F(K.HAND, number=1, points=0)], (0, 0), (0, 0)),
    # docs/rules.md §Reaching the target: past the target with equal totals, another hand.
    ("gauderio", "t0 a0+11 a1+12 t0", None,
     [F(K.TRICK, side=0, number=2), F(K.HAND, side=0, number=1, points=1), F(K.TIE_PLAYS_ON, target=12)], (1, 0), (12, 12)),
    # docs/rules.md §Reaching the target: at the end of the hand the higher total wins.
    ("gauderio", "a0+11 0:truco 1:quiero w0", None,
     [F(K.HAND, side=0, number=1, points=2), F(K.GAME_OVER_AT_HAND_END, side=0, totals=(13, 0))], (2, 0), (13, 0)),
    # docs/rules.md §Catalan ladder: Catalan truc, playing on accepts the Truc (worth 2).
    ("truc", "0:truc t0", None, [F(K.PLAYED_ON, side=1, call="truc", value=2), F(K.TRICK, side=0, number=1)], (0, 0), (0, 0)),
    # docs/rules.md §Folding: a fold pays the hand's value (1) to the others.
    ("truco-15", "1:mazo", 1, [F(K.MAZO, side=1), F(K.HAND, side=0, number=1, points=1)], (1, 0), (1, 0)),
    # Corrections never take a score below 0; a negative one is a signed fact.
    ("truco-15", "a1+3 a1-1", 1, [F(K.CORRECTION, side=1, points=-1)], (0, -1), (0, 2)),
])
def test_the_last_entry_of_a_script_is_these_facts(variant, script, side, facts, delta, score):
    entry = play(variant, script).state()["log"][-1]
    assert (entry.side, list(entry.facts), entry.delta, entry.score) == (side, facts, delta, score)
    assert entry.index == len(script.split()) - 1 and entry.hand == 1


def test_a_fold_before_the_envido_gives_one_more():
    """argentino-30 option ``mazo_primera`` (on by default): folding in the first trick with
    the Envido still open gives 1 more (docs/rules.md §Folding in the first trick)."""
    entry = play("argentino-30", "0:mazo").state()["log"][-1]
    assert list(entry.facts) == [F(K.MAZO, side=0), F(K.MAZO_BONUS, side=1), F(K.HAND, side=1, number=1, points=2)]


def test_undo_removes_the_entry_and_returns_it():
    match = play("truco-15", "0:truco 1:quiero")
    last = match.state()["log"][-1]
    assert match.apply({"type": "undo"}) == last
    assert [e.index for e in match.state()["log"]] == [0]


def test_entries_and_facts_are_frozen():
    entry = play("truco-15", "0:truco").state()["log"][0]
    with pytest.raises(AttributeError):
        entry.delta = (1, 0)  # type: ignore[misc]
    with pytest.raises(TypeError):
        entry.action["side"] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        entry.facts[0].side = 1  # type: ignore[misc]


@pytest.mark.parametrize(("fact", "missing"), [
    (F(K.CALL, side=0), ("call",)),
    (F(K.HAND, number=1), ("points",)),
    (F(K.CHAIN_WON, side=0, points=2), ("chain",)),
    (F(K.CAPPED, target=15, counted=1), ("points",)),
    (F(K.TRICK, number=2), ()),  # a parda: no side
])
def test_a_fact_knows_what_its_kind_needs(fact, missing):
    assert fact.missing() == missing


def test_every_fact_of_every_scripted_log_is_complete():
    kinds = set()
    for variant, options, script in SCRIPTS:
        for entry in play(variant, script, options=options).state()["log"]:
            kinds.update(f.kind for f in entry.facts)
            assert all(f.missing() == () for f in entry.facts), entry
    assert kinds == set(LogKind) and set(NEEDS) == set(LogKind)


def test_a_fact_repr_rebuilds_it():
    fact = F(K.CHAIN_WON, side=1, chain=("envido", "real_envido"), points=5, counts=(31, 30))
    assert eval(repr(fact), {"LogFact": LogFact, "LogKind": LogKind}) == fact
    assert fact.as_dict() == {"kind": K.CHAIN_WON, "side": 1, "chain": ("envido", "real_envido"), "points": 5,
                              "counts": (31, 30)}
