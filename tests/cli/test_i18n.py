"""``truco i18n`` (issue 21): extract, update and compile the catalogs in one command, with
Babel's own pybabel. Run on a copy of the translations folder, never on the real one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from click.testing import CliRunner

from scorer.cli.main import cli

CATALOGS = Path(__file__).resolve().parents[2] / "scorer" / "translations"
LOCALES = ("pt_BR", "es", "en", "ca")


def catalog(path: Path, locale: str | None = None):
    with open(path, "rb") as f:
        return read_po(f, locale=locale)


def translations(cat) -> dict:
    """``{(id, context): string}`` of every message of a catalog (plurals as tuples)."""
    return {(m.id if isinstance(m.id, str) else tuple(m.id), m.context):
            m.string if isinstance(m.string, str) else tuple(m.string) for m in cat if m.id}


def po(folder: Path, locale: str) -> Path:
    return folder / locale / "LC_MESSAGES" / "messages.po"


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "translations"
    shutil.copytree(CATALOGS, copy)
    return copy


def run(folder: Path, *extra: str):
    result = CliRunner().invoke(cli, ["i18n", "--translations", str(folder), *extra])
    assert result.exit_code == 0, result.output
    return result


def test_the_catalogs_hold_every_message_of_the_code_and_keep_every_translation(folder):
    run(folder)
    template = translations(catalog(folder / "messages.pot"))
    assert ("seeding drawn at random", None) in template  # an N_ of scorer/web/tournaments.py
    assert ("Undo", None) in template  # a word of templates/partials/_scoreboard.html
    for locale in LOCALES:
        before = translations(catalog(po(CATALOGS, locale), locale))
        after = translations(catalog(po(folder, locale), locale))
        assert set(after) == set(template), locale
        assert {k: v for k, v in before.items() if k in after} == {k: after[k] for k in before if k in after}
        with open(po(folder, locale).with_suffix(".mo"), "rb") as f:
            compiled = translations(read_mo(f))
        assert compiled == {k: v for k, v in after.items() if v and (isinstance(v, str) or all(v))}


def test_twice_changes_nothing(folder):
    run(folder)
    first = {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    run(folder)
    assert {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()} == first


def test_a_new_word_in_the_code_reaches_every_catalog_untranslated_and_a_gone_one_leaves(folder, tmp_path):
    source = tmp_path / "source"
    (source / "scorer").mkdir(parents=True)
    (source / "templates").mkdir()
    (source / "scorer" / "words.py").write_text(
        'from scorer.core.errors import N_, NP_\nA = N_("A brand-new word")\nB = NP_("{n} tento", "{n} tentos")\n')
    (source / "templates" / "page.html").write_text("<p>{{ _('Undo') }}</p>\n")
    run(folder, "--source", str(source))
    assert set(translations(catalog(folder / "messages.pot"))) == {
        ("A brand-new word", None), (("{n} tento", "{n} tentos"), None), ("Undo", None)}
    for locale in LOCALES:
        after = translations(catalog(po(folder, locale), locale))
        assert after[("A brand-new word", None)] == ""
        assert set(after) == {("A brand-new word", None), (("{n} tento", "{n} tentos"), None), ("Undo", None)}
    assert translations(catalog(po(folder, "pt_BR"), "pt_BR"))[("Undo", None)] == translations(
        catalog(po(CATALOGS, "pt_BR"), "pt_BR"))[("Undo", None)]


def test_outside_a_checkout_it_says_so(tmp_path):
    result = CliRunner().invoke(cli, ["i18n", "--translations", str(tmp_path), "--source", str(tmp_path)])
    assert result.exit_code == 1 and "checkout" in result.output


def test_an_installed_copy_without_templates_is_refused_and_left_alone(folder, tmp_path):
    """A plain ``pip install .`` puts ``scorer/`` in site-packages with no ``templates/`` beside
    it; extracting there once dropped the templates' messages from the installed catalogs
    (found by a newcomer: "New match" in English on a Portuguese page)."""
    (tmp_path / "site" / "scorer").mkdir(parents=True)
    before = po(folder, "pt_BR").read_bytes()
    result = CliRunner().invoke(cli, ["i18n", "--translations", str(folder), "--source", str(tmp_path / "site")])
    assert result.exit_code == 1 and "pip install -e" in result.output
    assert po(folder, "pt_BR").read_bytes() == before
