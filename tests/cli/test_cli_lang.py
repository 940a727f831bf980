"""Issue 13 item 7: every CLI message follows --lang (default: the locale's, else pt)."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli.cli_lang import lang_from_environment
from scorer.cli.main import cli


@pytest.mark.parametrize(
    ("env", "lang"),
    [({}, "pt"), ({"LANG": "C.UTF-8"}, "pt"), ({"LANG": "es_AR.UTF-8"}, "es"), ({"LC_ALL": "en_US.UTF-8"}, "en"),
     ({"LC_ALL": "C", "LANG": "es_UY.UTF-8"}, "es"), ({"LANG": "de_DE.UTF-8"}, "pt"),
     ({"LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"}, "pt"), ({"LANGUAGE": "en_GB:en"}, "en"),
     ({"LANG": "ca_ES.UTF-8"}, "ca"), ({"LANG": "ca_ES@valencia.UTF-8"}, "ca")],
)
def test_language_from_the_environment(env, lang):
    assert lang_from_environment(env) == lang


CLEAN = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "LANGUAGE": ""}


@pytest.mark.parametrize(
    ("args", "env", "start"),
    [
        (["envido", "xx", "--lang", "es"], {}, 'Error: No entiendo "xx" como carta.'),  # the example
        (["envido", "xx", "--lang", "en"], {}, 'Error: Cannot read "xx" as a card.'),
        (["envido", "xx", "--lang", "ca"], {}, 'Error: No entenc "xx" com a carta.'),  # issue 33
        (["envido", "xx"], {}, "Erro: "),  # no locale: pt
        (["envido", "xx"], {"LANG": "es_AR.UTF-8"}, 'Error: No entiendo "xx" como carta.'),
        (["manilha", "9", "--lang", "es"], {}, "Error: "),
    ],
)
def test_card_command_errors_follow_the_language(args, env, start):
    result = CliRunner().invoke(cli, args, env={**CLEAN, **env})
    assert result.exit_code == 2
    assert result.stderr.startswith(start), result.stderr
    if "--lang" in args and args[-1] == "es":
        assert "Cannot" not in result.stderr and "Expected" not in result.stderr


def test_json_errors_follow_the_language():
    result = CliRunner().invoke(cli, ["envido", "xx", "--lang", "es", "--json"], env=CLEAN)
    assert json.loads(result.output)["error"]["message"].startswith('No entiendo "xx"')


def test_replay_messages_and_log_follow_the_language():
    actions = '{"type":"call","side":0,"call":"truco"}\n{"type":"quiero","side":0}\n'
    result = CliRunner().invoke(cli, ["replay", "--variant", "truco-15", "--lang", "es"], input=actions, env=CLEAN)
    assert result.exit_code == 2
    message = json.loads(result.output)["error"]["message"]
    assert message == "Truco de Nosotros: la respuesta le toca a Ellos."
    bad = CliRunner().invoke(cli, ["replay", "--variant", "truco-15", "--lang", "pt"], input="{x\n", env=CLEAN)
    assert json.loads(bad.output)["error"]["message"].startswith("A linha não é JSON")


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (["envido", "--lang", "es"], {}, "Error: Falta el argumento 'CARDS...'."),
        (["envido"], {}, "Erro: Falta o argumento 'CARDS...'."),
        (["envido"], {"LANG": "en_US.UTF-8"}, "Error: Missing argument 'CARDS...'."),
        (["envido", "7o", "6o", "5c", "--lang", "xx"], {"LANG": "es_AR.UTF-8"}, "no es uno de 'pt', 'es', 'en', 'ca'."),
        (["replay", "--variant", "truco-15", "--lang", "es", "--mano", "7"], {}, "Valor inválido para '--mano'"),
    ],
)
def test_clicks_own_messages_follow_the_language(args, env, expected):
    result = CliRunner().invoke(cli, args, env={**CLEAN, **env})
    assert result.exit_code == 2
    assert expected in result.stderr, result.stderr


def test_help_headings_follow_the_language():
    result = CliRunner().invoke(cli, ["envido", "--help", "--lang", "es"], env=CLEAN)
    # (click builds the --help option's own line once per process, so a test run that asked
    # for help in another language before keeps that line; a real `truco` run is one process.)
    assert "Uso:" in result.output and "Opciones:" in result.output


def test_the_language_is_not_left_in_the_environment():
    import os

    before = os.environ.get("LANGUAGE")
    untouched = {key: value for key, value in CLEAN.items() if key != "LANGUAGE"}  # the runner leaves LANGUAGE alone
    result = CliRunner().invoke(cli, ["envido", "xx", "--lang", "es"], env=untouched)
    assert result.stderr.startswith("Error: No entiendo")
    assert os.environ.get("LANGUAGE") == before
